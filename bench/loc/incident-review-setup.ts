/**
 * What bench:loc and its test share: the loopback model, one ingest of the demo corpus, and both
 * pipelines opened on it. Each pipeline gets its own embedded Postgres over the same rows — the
 * runtime's data directory, and a copy of it for the hand-rolled side — because one PGlite
 * directory admits one process, and neither side should queue behind the other's engine.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Citation, RunResult } from '../../server/runtime';
import { openContextRuntimePipeline } from './context-runtime-pipeline';
import { type CitedPassage, openHandRolledPipeline, type ReviewResult } from './hand-rolled-pipeline';
import { type LoopbackReaderServer, startLoopbackReaderServer } from './loopback-reader-server';

export const LOOPBACK_MODEL = 'loopback-reader';

export interface IncidentReviewBench {
  readonly server: LoopbackReaderServer;
  readonly handRolled: Awaited<ReturnType<typeof openHandRolledPipeline>>;
  readonly contextRuntime: Awaited<ReturnType<typeof openContextRuntimePipeline>>;
  /** Closes both pipelines and the model, and deletes the temp folder. */
  close(): Promise<void>;
}

export async function openIncidentReviewBench(): Promise<IncidentReviewBench> {
  // Both sides read the embedded database built here, whatever the shell points the server at.
  delete process.env.DATABASE_URL;
  delete process.env.CONTEXT_RUNTIME_DATA_DIR;
  const root = mkdtempSync(join(tmpdir(), 'bench-loc-'));
  const server = await startLoopbackReaderServer();
  const runtimeOptions = { dataDir: join(root, 'pglite'), configPath: join(root, 'context-runtime.yaml'), baseURL: server.baseURL, model: LOOPBACK_MODEL };
  // The first open migrates and loads the demo corpus; closed, its directory can be copied.
  await (await openContextRuntimePipeline(runtimeOptions)).close();
  cpSync(runtimeOptions.dataDir, join(root, 'pglite-copy'), { recursive: true });
  const contextRuntime = await openContextRuntimePipeline(runtimeOptions);
  const handRolled = await openHandRolledPipeline({ dataDir: join(root, 'pglite-copy'), baseURL: server.baseURL, model: LOOPBACK_MODEL });
  return {
    server,
    handRolled,
    contextRuntime,
    async close() {
      await Promise.allSettled([handRolled.close(), contextRuntime.close()]);
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** "source · locator" of each cited passage, sorted and without repeats: what "same cited evidence" compares. */
export function citedEvidence(citations: readonly (Citation | CitedPassage)[]): string[] {
  const labels = citations.map((citation) => `${'sourceName' in citation ? citation.sourceName : citation.source} · ${citation.locator ?? '(whole source)'}`);
  return [...new Set(labels)].sort();
}

export interface EvidenceComparison {
  readonly handRolled: readonly string[];
  readonly contextRuntime: readonly string[];
  readonly shared: readonly string[];
  readonly same: boolean;
}

export function compareEvidence(handRolled: ReviewResult, contextRuntime: RunResult): EvidenceComparison {
  const left = citedEvidence(handRolled.citations);
  const right = citedEvidence(contextRuntime.citations);
  const shared = left.filter((label) => right.includes(label));
  return { handRolled: left, contextRuntime: right, shared, same: shared.length === left.length && shared.length === right.length };
}
