/**
 * The learning loop over tRPC: the bandit's arms with their statistics (viewers may read them)
 * and thumbs up/down on a run (operators: the people who run goals judge the answers). The vote
 * is stored before the call returns; the bandit's update from it happens off the response path.
 */
import { z } from 'zod';
import { ContextRuntimeError } from '../../runtime/errors';
import type { ArmSummary, LearningSettings } from '../../runtime/learning/bandit-learner';
import type { FeedbackTally, Thumb } from '../../runtime/learning/bandit-store';
import { type ApiContext, createTRPCRouter, operatorProcedure, viewerProcedure } from '../init';

/** What ContextRuntime.learning() returns, as far as this router needs it. */
export interface LearningPort {
  /** The bandit policy id (BanditLearner.policy), read from the runtime rather than imported from it. */
  readonly policy: string;
  readonly settings: LearningSettings;
  arms(): Promise<readonly ArmSummary[]>;
  feedback(runId: string, user: string, thumb: Thumb): Promise<FeedbackTally>;
}

async function learningOf(ctx: ApiContext): Promise<LearningPort> {
  const runtime = (await ctx.runtime()) as { learning?: () => LearningPort };
  if (typeof runtime.learning !== 'function') throw new ContextRuntimeError('INTERNAL', 'the runtime exposes no learning loop (ContextRuntime.learning())');
  return runtime.learning();
}

export const learningRouter = createTRPCRouter({
  arms: viewerProcedure.query(async ({ ctx }) => {
    const learning = await learningOf(ctx);
    return { policy: learning.policy, enabled: learning.settings.enabled, alpha: learning.settings.alpha, topKArms: learning.settings.topKArms, arms: await learning.arms() };
  }),

  feedback: operatorProcedure
    .input(z.object({ runId: z.string().trim().min(1).max(200), thumb: z.enum(['up', 'down']) }))
    .mutation(async ({ ctx, input }) => {
      const tally = await (await learningOf(ctx)).feedback(input.runId, ctx.principal.user, input.thumb);
      return { runId: input.runId, thumb: input.thumb, ...tally };
    }),
});
