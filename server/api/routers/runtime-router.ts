/**
 * The runtime over tRPC. Thin by design: zod shape → one runtime call → result. Goal, constraints
 * and weights are only loosely typed here so the runtime's own validation produces the message
 * that names the offending field ("constraints.max_cost_usd: expected …").
 */
import { z } from 'zod';
import type { RunStatus } from '../../runtime/contracts/run-store';
import { cliDecider } from '../../auth/cli-decider';
import { CLI_PRINCIPAL } from '../../auth/request-principal';
import { ContextRuntimeError } from '../../runtime/errors';
import { type ApiContext, adminProcedure, approverProcedure, createTRPCRouter, operatorProcedure, viewerProcedure } from '../init';

// Routers may import only types from the runtime: the list is repeated here, checked against RunStatus.
const RUN_STATUSES = ['queued', 'running', 'awaiting_approval', 'completed', 'unverified', 'rejected', 'failed', 'cancelled'] as const satisfies readonly RunStatus[];

const runRequestInput = z.object({
  goal: z.string(),
  sources: z.array(z.string()).optional(),
  constraints: z.record(z.string(), z.unknown()).optional(),
  weights: z.record(z.string(), z.unknown()).optional(),
  output_schema: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A coarse transport bound only (base64 is 4/3 of the bytes): the runtime's ingest-request rules
 * (8 MiB and 500 files per upload) are the ones a caller hears about.
 */
const MAX_BASE64_CHARS = 12 * 1024 * 1024;
const uploadInput = z.object({
  source: z.string(),
  files: z
    .array(z.object({ path: z.string().max(300), contentBase64: z.string().max(MAX_BASE64_CHARS, 'a file may hold at most 8 MiB') }))
    .min(1, 'expected at least one file')
    .max(1000, 'expected at most 500 files per upload'),
});
async function usersOf(ctx: ApiContext) {
  if (!ctx.accounts) throw new ContextRuntimeError('INTERNAL', 'the API context has no accounts to check the CLI decider against');
  return (await ctx.accounts()).users;
}

export const runtimeRouter = createTRPCRouter({
  run: operatorProcedure.input(runRequestInput).mutation(async ({ ctx, input }) => {
    const runtime = await ctx.runtime();
    return runtime.run({ ...input, principal: ctx.principal });
  }),

  /** Returns once the run is planned and recorded: `queued` when workers execute runs (poll getRun). */
  submit: operatorProcedure.input(runRequestInput).mutation(async ({ ctx, input }) => {
    const runtime = await ctx.runtime();
    return runtime.submit({ ...input, principal: ctx.principal });
  }),

  explain: operatorProcedure
    .input(runRequestInput.extend({ analyze: z.boolean().default(false) }))
    .mutation(async ({ ctx, input: { analyze, ...request } }) => {
      const runtime = await ctx.runtime();
      return runtime.explain({ ...request, principal: ctx.principal }, { analyze });
    }),

  simulate: operatorProcedure.input(runRequestInput).mutation(async ({ ctx, input }) => {
    const runtime = await ctx.runtime();
    return runtime.simulate({ ...input, principal: ctx.principal });
  }),

  approve: approverProcedure
    .input(
      z.object({
        runId: z.string().min(1),
        nodeId: z.string().min(1),
        decision: z.enum(['approved', 'rejected']),
        comment: z.string().max(2000).default(''),
        /** Only for the local CLI: the account deciding and its password (cli-decider.ts); a browser's values are ignored. */
        by: z.string().trim().min(1).max(200).optional(),
        password: z.string().max(1000).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const runtime = await ctx.runtime();
      // The approver is whoever is signed in; the CLI's token names no person, so it signs in as one.
      const decider = ctx.principal.user === CLI_PRINCIPAL.user ? await cliDecider(await usersOf(ctx), input) : ctx.principal;
      return runtime.approve(input.runId, input.nodeId, input.decision, decider, input.comment);
    }),

  /** Cancels a running or paused run: its starter or an admin (the runtime checks which). */
  cancel: operatorProcedure.input(z.object({ runId: z.string().min(1) })).mutation(async ({ ctx, input }) => {
    const runtime = await ctx.runtime();
    return runtime.cancel(input.runId, ctx.principal);
  }),

  getRun: viewerProcedure.input(z.object({ runId: z.string().min(1) })).query(async ({ ctx, input }) => {
    const runtime = await ctx.runtime();
    return runtime.getRun(input.runId, ctx.principal);
  }),

  listRuns: viewerProcedure
    .input(
      z.object({
        limit: z.number().int().min(1).max(500).default(50),
        status: z.enum(RUN_STATUSES).optional(),
        search: z.string().max(500).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const runtime = await ctx.runtime();
      return runtime.listRuns({ ...input, principal: ctx.principal });
    }),

  /**
   * A path on the server's own disk: admins only, and the runtime confines it to ingest.allowed_roots.
   * An ingest is cancelled by its caller going away (`signal`: the request's, aborted when the
   * connection closes): its report goes to nobody else, and a Ctrl-C in the CLI or a closed tab
   * then stops the work instead of leaving it to run out ingest.timeout_ms (issue 13, point 1).
   */
  ingest: adminProcedure.input(z.object({ path: z.string(), source: z.string().optional() })).mutation(async ({ ctx, input, signal }) => {
    const runtime = await ctx.runtime();
    return runtime.ingestServerPath(input.path, { source: input.source, principal: ctx.principal, ...(signal ? { signal } : {}) });
  }),

  /** Files from the Knowledge page or the CLI, base64 in one JSON body (bounded: base64 is 4/3 of the bytes); cancelled like `ingest`. */
  upload: operatorProcedure.input(uploadInput).mutation(async ({ ctx, input, signal }) => {
    const runtime = await ctx.runtime();
    const files = input.files.map((file) => ({ path: file.path, content: Buffer.from(file.contentBase64, 'base64') }));
    return runtime.ingestUpload(files, { source: input.source, principal: ctx.principal, ...(signal ? { signal } : {}) });
  }),

  /** `context-runtime retention apply` against a server: the sweep the server also runs periodically. */
  applyRetention: adminProcedure.mutation(async ({ ctx }) => {
    const runtime = await ctx.runtime();
    return runtime.applyRetention(ctx.principal);
  }),

  statistics: viewerProcedure.query(async ({ ctx }) => {
    const runtime = await ctx.runtime();
    return runtime.statistics();
  }),

  sources: viewerProcedure.query(async ({ ctx }) => {
    const runtime = await ctx.runtime();
    return runtime.sources(ctx.principal);
  }),
});
