/**
 * The plan explorer's writes. Reads go through `runtime.getRun` (the stored plan, its actuals and
 * spans); this router adds "re-run an edited plan": an operator sends back an Execution Graph and
 * the runtime plans the goal, checks the edit stays inside that plan's policy envelope, and runs it.
 */
import { z } from 'zod';
import { createTRPCRouter, operatorProcedure } from '../init';

const runEditedInput = z.object({
  goal: z.string(),
  sources: z.array(z.string()).optional(),
  constraints: z.record(z.string(), z.unknown()).optional(),
  weights: z.record(z.string(), z.unknown()).optional(),
  // Shape and limits are the runtime's to check (facade/edited-plan.ts), so its messages name the node.
  graph: z.unknown(),
});

export const plansRouter = createTRPCRouter({
  runEdited: operatorProcedure.input(runEditedInput).mutation(async ({ ctx, input: { graph, ...request } }) => {
    return (await ctx.runtime()).runEditedPlan({ ...request, principal: ctx.principal }, graph);
  }),
});
