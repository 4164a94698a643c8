/**
 * The Console page's own procedures: start a run (a POST that answers with the run id), follow it
 * node by node by id (tRPC subscription over SSE), the evidence chunk a citation points at, and the
 * signed-in user's recent goals.
 */
import { tracked } from '@trpc/server';
import { z } from 'zod';
import { ContextRuntimeError } from '../../runtime/errors';
import { liveRun, startLiveRun, type ConsoleRunEvent, type LiveRun } from '../live-run-registry';
import { createTRPCRouter, operatorProcedure, toClientError, viewerProcedure } from '../init';
import type { RuntimePort } from '../runtime-port';
import type { Principal } from '../../runtime/types';

export type { ConsoleRunEvent } from '../live-run-registry';

const runRequestInput = z.object({
  goal: z.string(),
  sources: z.array(z.string()).optional(),
  constraints: z.record(z.string(), z.unknown()).optional(),
  weights: z.record(z.string(), z.unknown()).optional(),
});

const followInput = z.object({
  runId: z.string().min(1).max(200),
  /** Sent by the SSE client when it reconnects: "<runId>#<seq>" of the last event it saw. */
  lastEventId: z.string().nullish(),
});

/** How often a stream looks at a run this process does not hold live (started elsewhere, or long ago). */
const POLL_MS = 500;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** The events of a run this process holds, from the one after `seenSeq`, live until it settles. */
async function* replayLive(live: LiveRun, seenSeq: number, signal?: AbortSignal) {
  for (let seq = seenSeq + 1; !signal?.aborted; ) {
    while (seq <= live.events.length) {
      const event = live.events[seq - 1];
      yield tracked(`${live.runId}#${seq}`, event);
      if (event.type === 'result') return;
      seq++;
    }
    // Thrown after the procedure returned its iterator: the middleware's mapping is applied here.
    if (live.settled) throw toClientError(live.error ?? new Error(`run ${live.runId} ended without a result`), 'console.follow');
    await live.changed();
  }
}

/** A run another process executes (or one this process has forgotten): its stored state, once settled. */
async function* pollStored(runtime: RuntimePort, runId: string, principal: Principal, signal?: AbortSignal) {
  for (let poll = 1; !signal?.aborted; poll++) {
    const { run } = await runtime.getRun(runId, principal);
    if (run.status !== 'running' && run.status !== 'queued') {
      yield tracked(`${runId}#stored-${poll}`, { type: 'result', result: run } satisfies ConsoleRunEvent);
      return;
    }
    await sleep(POLL_MS, signal);
  }
}

const seqOf = (lastEventId: string | null | undefined, runId: string): number => {
  const [id, seq] = (lastEventId ?? '').split('#');
  return id === runId && /^\d+$/.test(seq ?? '') ? Number(seq) : 0;
};

/**
 * The version number and whether a newer version has replaced it, from the Knowledge explorer when
 * the runtime's Knowledge plugin has one (PgKnowledge does); the cited chunk itself is shown either way.
 */
async function versionOf(runtime: RuntimePort, principal: Principal, sourceName: string, versionId: string): Promise<{ versionNo: number | null; superseded: boolean | null }> {
  const explorer = (await runtime.knowledge(principal)).explorer;
  const version = explorer ? (await explorer.versions(sourceName).catch(() => [])).find((candidate) => candidate.id === versionId) : undefined;
  return { versionNo: version?.versionNo ?? null, superseded: version ? version.supersededAt !== null : null };
}

export const consoleRouter = createTRPCRouter({
  /**
   * Starts a run and answers with its id as soon as the run exists; progress is read with `follow`.
   * A POST body carries a goal of any allowed length (a GET URL did not: HTTP 431 at ~15,000 characters).
   */
  start: operatorProcedure.input(runRequestInput).mutation(async ({ ctx, input }) => {
    const runtime = await ctx.runtime();
    return { runId: await startLiveRun(runtime, { ...input, principal: ctx.principal }) };
  }),

  /**
   * A run's progress, then its result, by run id. Who may read the run is decided by the same check
   * as `runtime.getRun` (asked first, so an unknown id is NOT_FOUND); following never starts a run,
   * and a reconnect resumes after the last event it saw.
   */
  follow: viewerProcedure.input(followInput).subscription(async function* ({ ctx, input, signal }) {
    const runtime = await ctx.runtime();
    const { run } = await runtime.getRun(input.runId, ctx.principal);
    const live = liveRun(runtime, input.runId);
    if (live) return yield* replayLive(live, seqOf(input.lastEventId, input.runId), signal);
    if (run.status !== 'running' && run.status !== 'queued') {
      yield tracked(`${input.runId}#stored`, { type: 'result', result: run } satisfies ConsoleRunEvent);
      return;
    }
    return yield* pollStored(runtime, input.runId, ctx.principal, signal);
  }),

  /** The chunk behind a citation, as the run saw it, with the source version it came from. */
  evidence: viewerProcedure.input(z.object({ runId: z.string().min(1).max(200), chunkId: z.string().min(1).max(400) })).query(async ({ ctx, input }) => {
    const runtime = await ctx.runtime();
    const item = (await runtime.evidence(input.runId, ctx.principal)).find((candidate) => candidate.hit.chunkId === input.chunkId);
    if (!item) throw new ContextRuntimeError('NOT_FOUND', `run ${input.runId} has no evidence chunk ${input.chunkId}`, { field: 'chunkId' });
    const { hit } = item;
    return {
      ...(await versionOf(runtime, ctx.principal, hit.sourceName, hit.sourceVersionId)),
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
      /** Marked at ingest as holding personal data or secrets (kept off non-local models); null on hits stored before the marking. */
      sensitive: hit.sensitive ?? null,
    };
  }),

  /** The signed-in user's recent runs, newest first. */
  history: viewerProcedure.input(z.object({ limit: z.number().int().min(1).max(100).default(20) }).default({ limit: 20 })).query(async ({ ctx, input }) => {
    const runtime = await ctx.runtime();
    return runtime.listRuns({ limit: input.limit, user: ctx.principal.user, principal: ctx.principal });
  }),
});
