import { REASONER_CONTRACT, type ReasonerPlugin, type ReasonRequest, type ReasonResult } from '../contracts/reasoner';
import type { RouterPlugin } from '../contracts/router';
import { invalidInput } from '../errors';
import { answerOverContext, critiqueFindings, PLANNING_MAX_OUTPUT_TOKENS, routedCall } from './mixture-calls';
import { decomposePrompt, mergePrompt, parseSubQuestions } from './mixture-prompts';
import { createSingleShotReasoner } from './single-shot-reasoner';

/** Workers per plan: the graph is fixed at plan time, so the fan-out is an upper bound (idle workers call nothing). */
export const PLAN_WORKER_CRITIC_WORKERS = 3;

/**
 * Plan → workers → critic → merge (least-to-most / plan-and-solve decomposition, Zhou et al. 2023;
 * Wang et al. 2023; a critic of grounding as in CRITIC, Gou et al. 2024). Each call is its own
 * reason node (execution/mixture-nodes.ts): the decompose node splits the goal, each worker answers
 * one sub-question over its own retrieval and tier, the critic checks each worker's answer against
 * the evidence it cites, and the merge node writes the cited answer over the plan's context with
 * the grounded sub-answers beside the question. It needs a model that follows instructions, so the
 * planner never pairs it with the extractive reader; if a decompose reply holds no sub-question,
 * the goal itself is the one sub-question (one worker answers it, the others stay idle).
 */
export function createPlanWorkerCriticReasoner(workers = PLAN_WORKER_CRITIC_WORKERS): ReasonerPlugin {
  if (!Number.isInteger(workers) || workers < 1) throw invalidInput('workers', `must be a positive integer, got ${workers}`);
  const once = createSingleShotReasoner();
  return Object.freeze({
    contract: REASONER_CONTRACT,
    strategy: 'plan_worker_critic' as const,
    // decompose + workers + critic + merge
    expectedModelCalls: workers + 3,
    needsInstructions: true,
    mixture: Object.freeze({ layout: 'plan_worker_critic' as const, branches: workers }),
    async reason(request: ReasonRequest, router: RouterPlugin): Promise<ReasonResult> {
      if (request.goal.trim().length === 0) throw invalidInput('goal', 'must not be empty');
      switch (request.purpose) {
        case 'decompose': {
          // Only the question leaves: a plan needs no passages, so nothing sensitive goes with it.
          const call = await routedCall(request, router, decomposePrompt(request.goal, workers), { localOnly: request.localOnly, maxOutputTokens: PLANNING_MAX_OUTPUT_TOKENS });
          const parsed = parseSubQuestions(call.text, workers);
          const subQuestions = parsed.length > 0 ? parsed : [request.goal.trim()];
          return Object.freeze({ answer: subQuestions.join('\n'), citations: Object.freeze([]), modelCalls: Object.freeze([call]), subQuestions: Object.freeze(subQuestions) });
        }
        case 'worker':
          // The executor hands a worker its sub-question as the goal, over the worker's own retrieval.
          return once.reason({ ...request, outputSchema: undefined }, router);
        case 'critic':
          return critiqueFindings(request, router);
        default:
          return answerOverContext(request, router, (context) => mergePrompt(request.goal, context, request.findings ?? []));
      }
    },
  });
}
