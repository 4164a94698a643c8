/**
 * The plan explorer's writes. Reads go through `runtime.getRun` (the stored plan, its actuals and
 * spans); this router adds "re-run an edited plan": an operator sends back an Execution Graph and
 * the runtime plans the goal, checks the edit stays inside that plan's policy envelope, and runs it.
 */
import { z } from 'zod';
import type { RunResult } from '../../runtime/explain/explain-types';
import { ContextRuntimeError } from '../../runtime/errors';
import type { RunRequestInput } from '../runtime-port';
import { type ApiContext, createTRPCRouter, operatorProcedure } from '../init';

/** What this router needs beyond the shared port; ContextRuntime implements it. */
export interface PlanEditPort {
  runEditedPlan(request: RunRequestInput, graph: unknown): Promise<RunResult>;
}

async function editorOf(ctx: ApiContext): Promise<PlanEditPort> {
  const runtime = (await ctx.runtime()) as Partial<PlanEditPort>;
  if (typeof runtime.runEditedPlan !== 'function') throw new ContextRuntimeError('INTERNAL', 'this runtime cannot run edited plans (ContextRuntime.runEditedPlan missing)');
  return runtime as PlanEditPort;
}

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
    return (await editorOf(ctx)).runEditedPlan({ ...request, principal: ctx.principal }, graph);
  }),
});
