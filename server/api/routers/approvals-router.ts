/**
 * The Approvals inbox over tRPC: runs paused at an approve node (all of them for approvers, their
 * own for operators), the decision itself, and the append-only audit log. Deciding is the approver's right and is checked HERE (the page hiding the
 * buttons is only a courtesy); the decider is the signed-in principal, never a name from the client.
 */
import { z } from 'zod';
import { adminProcedure, approverProcedure, createTRPCRouter, operatorProcedure, viewerProcedure } from '../init';

const limitInput = z.object({ limit: z.number().int().min(1).max(200).default(50) }).default({ limit: 50 });

export const approvalsRouter = createTRPCRouter({
  /** The draft answers behind the gates are not released yet, so only approvers read the inbox (of runs over sources they may read). */
  inbox: approverProcedure.input(limitInput).query(async ({ ctx, input }) => {
    return (await ctx.runtime()).pendingApprovals({ limit: input.limit, principal: ctx.principal });
  }),

  /** The caller's own runs waiting at a gate, draft withheld: an operator sees what they wait for, not what they may not read yet. */
  mine: operatorProcedure.input(limitInput).query(async ({ ctx, input }) => {
    return (await ctx.runtime()).waitingRunsOf({ limit: input.limit, principal: ctx.principal });
  }),

  decide: approverProcedure
    .input(
      z.object({
        runId: z.string().trim().min(1).max(200),
        nodeId: z.string().trim().min(1).max(200),
        decision: z.enum(['approved', 'rejected']),
        comment: z.string().max(2000).default(''),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const runtime = await ctx.runtime();
      const run = await runtime.approve(input.runId, input.nodeId, input.decision, ctx.principal, input.comment);
      return { runId: run.runId, status: run.status, answer: run.answer, citations: run.citations.length, caveats: run.caveats, error: run.error, verification: run.verification };
    }),

  /** Who decided what, when, and why: rows of runs the caller may read (the runtime's access check). */
  log: viewerProcedure
    .input(
      z
        .object({
          limit: z.number().int().min(1).max(200).default(50),
          offset: z.number().int().min(0).default(0),
          runId: z.string().trim().min(1).max(200).optional(),
        })
        .default({ limit: 50, offset: 0 }),
    )
    .query(async ({ ctx, input }) => {
      const rows = await (await ctx.runtime()).approvalLog({ limit: input.limit + 1, offset: input.offset, runId: input.runId, principal: ctx.principal });
      return { entries: rows.slice(0, input.limit), hasMore: rows.length > input.limit, offset: input.offset, limit: input.limit };
    }),

  /** Walks the log's hash chain; admins only, as it reads every row. */
  verify: adminProcedure.query(async ({ ctx }) => (await ctx.runtime()).verifyApprovalLog()),
});
