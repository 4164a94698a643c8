import type { UploadedFile } from '../runtime/contracts/store';
import { invalidInput } from '../runtime/errors';
import { binaryContentReason } from './binary-content';
import { classifyContent, type ParserName, type SkippedPath, skippedSummary } from './detect-source';
import { contentHash, type IngestPlan, parseFile, type PlannedSource } from './ingest-path';
import type { CountTokens, TextFile } from './ingest-types';

/**
 * Files a browser or the CLI sent (issue 12, finding 2: operators upload instead of naming a path
 * on the server) → planned sources, one per kind, exactly as a folder on disk would be planned:
 * the same extension rules, the same binary-content check on every file's whole content, the same
 * parsers and content hash. Git history cannot be uploaded (it is not a set of files).
 */

type TextParser = Exclude<ParserName, 'git-history'>;
const ORDER: readonly TextParser[] = ['markdown', 'log', 'k8s-events', 'csv-metrics'];
const KIND_OF: Readonly<Record<TextParser, PlannedSource['kind']>> = { markdown: 'docs', log: 'logs', 'k8s-events': 'events', 'csv-metrics': 'metrics' };

export interface UploadOptions {
  readonly sourceName: string;
  readonly countTokens: CountTokens;
}

export function planUpload(files: readonly UploadedFile[], options: UploadOptions): IngestPlan {
  const byParser = new Map<TextParser, TextFile[]>();
  const skipped: SkippedPath[] = [];
  const single = files.length === 1;
  for (const file of files) {
    const bytes = Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength);
    const parser = classifyContent(file.path, bytes, false, single);
    if (typeof parser !== 'string' || parser === 'git-history') {
      skipped.push({ path: file.path, reason: typeof parser === 'string' ? 'git history cannot be uploaded' : parser.reason });
      continue;
    }
    // The whole content, not only the sniffed head: a binary tail would otherwise become chunks of garbage.
    const binary = binaryContentReason(bytes);
    if (binary) {
      skipped.push({ path: file.path, reason: binary });
      continue;
    }
    byParser.set(parser, [...(byParser.get(parser) ?? []), { uri: file.path, content: bytes.toString('utf8') }]);
  }
  if (byParser.size === 0) {
    throw invalidInput('files', `nothing to ingest in the upload; supported: .md, .txt, .log, Kubernetes events .json, .csv metrics${skippedSummary(skipped)}`);
  }
  const parsers = ORDER.filter((parser) => byParser.has(parser));
  const sources = parsers.flatMap((parser): PlannedSource[] => {
    const texts = byParser.get(parser)!;
    const chunks = Object.freeze(texts.flatMap((text) => parseFile(parser, text, options.countTokens)));
    const kind = KIND_OF[parser];
    if (chunks.length === 0) {
      skipped.push({ path: options.sourceName, reason: `${kind}: no content to ingest (empty files)` });
      return [];
    }
    const name = parsers.length > 1 ? `${options.sourceName}-${kind}` : options.sourceName;
    return [Object.freeze({ name, kind, chunks, contentHash: contentHash(texts), documents: texts.length })];
  });
  return Object.freeze({ sources: Object.freeze(sources), skipped: Object.freeze(skipped) });
}
