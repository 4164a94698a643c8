import type { IngestChunk } from '../runtime/contracts/store';
import { type CountTokens, LOG_TIMESTAMP, type TextFile, freezeChunk, lineRangeLocator, splitLines, uriBaseName } from './ingest-types';
import { logStatSeriesChunks } from './log-stat-series';

/**
 * Log files → windows of consecutive lines, kept verbatim: a log line is evidence only as written
 * (timestamps, ids, exit codes), and neighbouring lines carry its context (the kill follows the warm-up).
 * A window closes at 20 lines or ~300 tokens, whichever comes first, so one window stays small
 * enough to cite whole.
 */

export interface LogParseOptions {
  readonly countTokens: CountTokens;
  readonly maxLines?: number;
  readonly maxTokens?: number;
}

export const LOG_MAX_LINES = 20;
export const LOG_MAX_TOKENS = 300;

export function parseLog(file: TextFile, options: LogParseOptions): IngestChunk[] {
  const maxLines = options.maxLines ?? LOG_MAX_LINES;
  const maxTokens = options.maxTokens ?? LOG_MAX_TOKENS;
  const lines = splitLines(file.content);
  const fileName = uriBaseName(file.uri);
  const chunks: IngestChunk[] = [];
  let start = 0;
  const emit = (end: number) => {
    const window = lines.slice(start, end);
    if (window.some((line) => line.trim() !== '')) {
      const text = window.join('\n');
      const locator = lineRangeLocator(start + 1, end);
      const timestamps = window.map((line) => LOG_TIMESTAMP.exec(line)?.[0]).filter((stamp): stamp is string => stamp !== undefined);
      chunks.push(
        freezeChunk({
          uri: file.uri,
          ordinal: chunks.length,
          title: `${fileName} ${locator}`,
          text,
          locator,
          tokens: options.countTokens(text),
          metadata: { lineStart: start + 1, lineEnd: end, firstTimestamp: timestamps[0], lastTimestamp: timestamps[timestamps.length - 1] },
        }),
      );
    }
    start = end;
  };
  let windowTokens = 0;
  for (let index = 0; index < lines.length; index++) {
    // +1 per line for the newline that joins it (one token in BPE vocabularies, zero in a word count).
    const lineTokens = options.countTokens(lines[index]) + 1;
    if (index > start && (index - start >= maxLines || windowTokens + lineTokens > maxTokens)) {
      emit(index);
      windowTokens = 0;
    }
    windowTokens += lineTokens;
  }
  if (start < lines.length) emit(lines.length);
  return [...chunks, ...logStatSeriesChunks(file.uri, fileName, lines, options.countTokens, chunks.length)];
}
