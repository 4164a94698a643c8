/**
 * The Console page's own procedures: a run streamed node by node (tRPC subscription over SSE),
 * the evidence chunk a citation points at, and the signed-in user's recent goals.
 */
import { tracked } from '@trpc/server';
import { z } from 'zod';
import { ContextRuntimeError } from '../../runtime/errors';
import type { RunResult } from '../../runtime/explain/explain-types';
import type { RunProgressEvent } from '../../runtime/facade/run-progress';
import { createTRPCRouter, operatorProcedure, toClientError, viewerProcedure } from '../init';
import type { RuntimePort } from '../runtime-port';

export type ConsoleRunEvent = { readonly type: 'progress'; readonly event: RunProgressEvent } | { readonly type: 'result'; readonly result: RunResult };

const runRequestInput = z.object({
  goal: z.string(),
  sources: z.array(z.string()).optional(),
  constraints: z.record(z.string(), z.unknown()).optional(),
  weights: z.record(z.string(), z.unknown()).optional(),
  /** Sent by the SSE client when it reconnects: "<runId>#<seq>" of the last event it saw. */
  lastEventId: z.string().nullish(),
});

/** How often a reconnected stream looks at a run it no longer watches live. */
const RESUME_POLL_MS = 500;
/** Scanned to find one user's runs among everyone's; a console shows the last few dozen. */
const HISTORY_SCAN = 500;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * A reconnecting EventSource re-sends the subscription; starting the goal again would run it twice.
 * The run goes on in this process regardless, so the stream waits for it to settle and sends the result.
 */
async function* resumeRun(runtime: RuntimePort, lastEventId: string, signal?: AbortSignal) {
  const runId = lastEventId.split('#')[0];
  for (let seq = 1; !signal?.aborted; seq++) {
    const { run } = await runtime.getRun(runId);
    if (run.status !== 'running') {
      yield tracked(`${runId}#resumed-${seq}`, { type: 'result', result: run } satisfies ConsoleRunEvent);
      return;
    }
    await sleep(RESUME_POLL_MS, signal);
  }
}

interface VersionReader {
  versions(sourceName: string): Promise<readonly { readonly id: string; readonly versionNo: number; readonly supersededAt: string | null }[]>;
}

/**
 * The version number and whether a newer version has replaced it, from the Knowledge explorer when
 * the runtime's Knowledge plugin has one (PgKnowledge does); the cited chunk itself is shown either way.
 */
async function versionOf(runtime: RuntimePort, sourceName: string, versionId: string): Promise<{ versionNo: number | null; superseded: boolean | null }> {
  const plugin = (runtime as { knowledge?: () => unknown }).knowledge?.();
  const explorer = plugin && typeof plugin === 'object' ? (plugin as { explorer?: VersionReader }).explorer : undefined;
  const version = explorer ? (await explorer.versions(sourceName).catch(() => [])).find((candidate) => candidate.id === versionId) : undefined;
  return { versionNo: version?.versionNo ?? null, superseded: version ? version.supersededAt !== null : null };
}

export const consoleRouter = createTRPCRouter({
  run: operatorProcedure.input(runRequestInput).subscription(async function* ({ ctx, input, signal }) {
    const runtime = await ctx.runtime();
    const { lastEventId, ...request } = input;
    if (lastEventId) return yield* resumeRun(runtime, lastEventId, signal);
    const queue: (ConsoleRunEvent | { readonly type: 'error'; readonly error: unknown })[] = [];
    let wake: (() => void) | undefined;
    const push = (item: (typeof queue)[number]) => {
      queue.push(item);
      wake?.();
    };
    void runtime.run({ ...request, principal: ctx.principal }, { onProgress: (event) => push({ type: 'progress', event }) }).then(
      (result) => push({ type: 'result', result }),
      (error: unknown) => push({ type: 'error', error }),
    );
    let runId = '';
    for (let seq = 1; ; seq++) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift()!;
      if (item.type === 'error') // Thrown after the procedure returned its iterator: the middleware's mapping is applied here.
      throw toClientError(item.error, 'console.run');
      if (item.type === 'progress') runId = item.event.runId;
      yield tracked(`${runId}#${seq}`, item);
      if (item.type === 'result') return;
    }
  }),

  /** The chunk behind a citation, as the run saw it, with the source version it came from. */
  evidence: viewerProcedure.input(z.object({ runId: z.string().min(1).max(200), chunkId: z.string().min(1).max(400) })).query(async ({ ctx, input }) => {
    const runtime = await ctx.runtime();
    if (!runtime.evidence) throw new ContextRuntimeError('INTERNAL', 'this runtime cannot return a run\'s evidence');
    const item = (await runtime.evidence(input.runId)).find((candidate) => candidate.hit.chunkId === input.chunkId);
    if (!item) throw new ContextRuntimeError('NOT_FOUND', `run ${input.runId} has no evidence chunk ${input.chunkId}`, { field: 'chunkId' });
    const { hit } = item;
    return {
      ...(await versionOf(runtime, hit.sourceName, hit.sourceVersionId)),
      ref: item.ref,
      chunkId: hit.chunkId,
      sourceName: hit.sourceName,
      sourceKind: hit.sourceKind,
      sourceVersionId: hit.sourceVersionId,
      title: hit.title,
      /** Retrievers that read chunks.uri put it on the hit; older hits (stored runs) lack it. */
      uri: (hit as { readonly uri?: string }).uri ?? null,
      locator: hit.locator ?? null,
      text: hit.text,
      /** What the model read when it differs from the chunk (compressed or clipped). */
      contextText: item.compressed ? item.text : null,
      tokens: hit.tokens,
      method: hit.method,
      rank: hit.rank,
      score: hit.score,
    };
  }),

  /** The signed-in user's recent runs, newest first. */
  history: viewerProcedure.input(z.object({ limit: z.number().int().min(1).max(100).default(20) }).default({ limit: 20 })).query(async ({ ctx, input }) => {
    const runtime = await ctx.runtime();
    const runs = await runtime.listRuns({ limit: HISTORY_SCAN });
    return runs.filter((run) => run.user === ctx.principal.user).slice(0, input.limit);
  }),
});
