import { REASONER_CONTRACT, type ReasonerPlugin, type ReasonRequest, type ReasonResult } from '../contracts/reasoner';
import type { RouterPlugin } from '../contracts/router';
import { invalidInput } from '../errors';
import { parseCitations } from './context-prompt';
import { answerOverContext, routedCall } from './mixture-calls';
import { judgePrompt, solverPrompt } from './mixture-prompts';
import { outgoingContext } from './outgoing-context';

/** Solvers per debate: two disagree often enough to be worth a judge; a third mostly repeats one of them. */
export const DEBATE_SOLVERS = 2;

/**
 * Several solvers, one judge (multi-agent debate, Du et al. 2023, in its one-round form; a judge
 * as in LLM-as-a-judge, Zheng et al. 2023). Each solver is its own reason node with its own tier,
 * reading the plan's context from its own angle; the judge reads their answers beside the same
 * numbered context and writes the cited answer, so the verification gate checks it like any other.
 */
export function createDebateReasoner(solvers = DEBATE_SOLVERS): ReasonerPlugin {
  if (!Number.isInteger(solvers) || solvers < 2) throw invalidInput('solvers', `a debate needs at least 2 solvers, got ${solvers}`);
  return Object.freeze({
    contract: REASONER_CONTRACT,
    strategy: 'debate' as const,
    expectedModelCalls: solvers + 1,
    needsInstructions: true,
    mixture: Object.freeze({ layout: 'debate' as const, branches: solvers }),
    async reason(request: ReasonRequest, router: RouterPlugin): Promise<ReasonResult> {
      if (request.goal.trim().length === 0) throw invalidInput('goal', 'must not be empty');
      if (request.purpose === 'solver') {
        const outgoing = outgoingContext(request, router);
        const call = await routedCall(request, router, solverPrompt(request.goal, outgoing.context, request.slot ?? 0), { localOnly: outgoing.localOnly, maxOutputTokens: request.maxOutputTokens });
        const answer = call.text.trim();
        return Object.freeze({ answer, citations: Object.freeze(parseCitations(answer, outgoing.context)), modelCalls: Object.freeze([call]) });
      }
      return answerOverContext(request, router, (context) => judgePrompt(request.goal, context, request.findings ?? []));
    },
  });
}
