/**
 * The Traces pages over tRPC: runs listed with filters and offset pages, and one run's spans for
 * the waterfall. Thin by design: zod shape → one runtime call → result. Reading traces is a viewer's
 * right; nothing here changes state.
 */
import { z } from 'zod';
import type { RunStatus } from '../../runtime/contracts/run-store';
import { createTRPCRouter, viewerProcedure } from '../init';

// Routers may import only types from the runtime: the list is repeated here, checked against RunStatus.
const RUN_STATUSES = ['queued', 'running', 'awaiting_approval', 'completed', 'unverified', 'rejected', 'failed', 'cancelled'] as const satisfies readonly RunStatus[];

/** Rows per page: a screenful; the runtime accepts up to 1000. */
const MAX_PAGE_SIZE = 200;

export const tracesRouter = createTRPCRouter({
  list: viewerProcedure
    .input(
      z.object({
        search: z.string().trim().max(500).optional(),
        status: z.enum(RUN_STATUSES).optional(),
        user: z.string().trim().max(200).optional(),
        from: z.iso.datetime({ offset: true }).optional(),
        to: z.iso.datetime({ offset: true }).optional(),
        limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(25),
        offset: z.number().int().min(0).default(0),
      }),
    )
    .query(async ({ ctx, input }) => {
      const runtime = await ctx.runtime();
      // One row past the page says whether a next page exists without a COUNT over the table.
      const rows = await runtime.listRuns({ ...input, search: input.search || undefined, user: input.user || undefined, limit: input.limit + 1, principal: ctx.principal });
      return { runs: rows.slice(0, input.limit), hasMore: rows.length > input.limit, offset: input.offset, limit: input.limit };
    }),

  get: viewerProcedure.input(z.object({ runId: z.string().trim().min(1).max(200) })).query(async ({ ctx, input }) => {
    const runtime = await ctx.runtime();
    const { run, spans } = await runtime.getRun(input.runId, ctx.principal);
    // The waterfall needs the run's headline, not its whole EXPLAIN (the plan page has that).
    return {
      run: {
        runId: run.runId,
        status: run.status,
        goal: run.explain.goal,
        planHash: run.explain.planHash,
        error: run.error,
        pendingApproval: run.pendingApproval,
        nodes: run.explain.graph.nodes.length,
      },
      spans,
    };
  }),
});
