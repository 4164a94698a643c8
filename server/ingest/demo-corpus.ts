import { join } from 'node:path';
import type { IngestResult, StorePlugin } from '../runtime/contracts/store';
import { ContextRuntimeError } from '../runtime/errors';
import type { SourceKind } from '../runtime/types';
import { materializeDemoGitRepo, resolveDemoDirectory } from './demo-git-repo';
import type { CountTokens } from './ingest-types';
import { type PlannedSource, planIngest } from './ingest-path';

/**
 * The demo incident (examples/demo-incident: checkout-api failed to roll out) as five sources, one per
 * kind, so a fresh install can answer "Explain why deployment checkout-api failed" with evidence from
 * docs, logs, events, metrics and the deploy repository's history.
 */

export const DEMO_SOURCES: readonly { readonly name: string; readonly kind: SourceKind; readonly folder?: string }[] = Object.freeze([
  { name: 'demo-docs', kind: 'docs', folder: 'docs' },
  { name: 'demo-logs', kind: 'logs', folder: 'logs' },
  { name: 'demo-events', kind: 'events', folder: 'events' },
  { name: 'demo-metrics', kind: 'metrics', folder: 'metrics' },
  { name: 'demo-git', kind: 'git' },
]);

export const DEMO_QUESTION = 'Explain why deployment checkout-api failed';

/** Folder under workDir where the demo git repository is rebuilt. */
export const DEMO_GIT_FOLDER = 'shop-deploy';

export interface DemoCorpusOptions {
  readonly countTokens: CountTokens;
  /** Scratch directory owned by the caller (e.g. the data dir); the git repository is built inside it. */
  readonly workDir: string;
  readonly demoDirectory?: string;
  readonly onProgress?: (done: number, total: number) => void;
}

export async function planDemoCorpus(options: Omit<DemoCorpusOptions, 'onProgress'>): Promise<PlannedSource[]> {
  const demoDirectory = options.demoDirectory ?? resolveDemoDirectory();
  const repository = await materializeDemoGitRepo(join(options.workDir, DEMO_GIT_FOLDER), { historyPath: join(demoDirectory, 'git-history.json') });
  const planned: PlannedSource[] = [];
  for (const source of DEMO_SOURCES) {
    const path = source.folder ? join(demoDirectory, source.folder) : repository.path;
    const plan = await planIngest(path, { sourceName: source.name, countTokens: options.countTokens });
    const match = plan.sources.length === 1 && plan.sources[0].kind === source.kind ? plan.sources[0] : undefined;
    if (!match) {
      const found = plan.sources.map((entry) => `${entry.name}:${entry.kind}`).join(', ') || 'nothing';
      throw new ContextRuntimeError('INTERNAL', `demo corpus folder ${path} should yield one ${source.kind} source, found ${found}`, { details: { path } });
    }
    planned.push(match);
  }
  return planned;
}

/** Idempotent: the content hashes are deterministic, so a second load is five no-op store.ingest calls. */
export async function loadDemoCorpus(store: StorePlugin, options: DemoCorpusOptions): Promise<IngestResult[]> {
  const planned = await planDemoCorpus(options);
  const results: IngestResult[] = [];
  options.onProgress?.(0, planned.length);
  for (const source of planned) {
    results.push(await store.ingest({ name: source.name, kind: source.kind }, source.chunks, source.contentHash));
    options.onProgress?.(results.length, planned.length);
  }
  return results;
}
