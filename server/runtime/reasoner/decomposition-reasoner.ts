import { REASONER_CONTRACT, type ReasonerPlugin, type ReasonRequest, type ReasonResult } from '../contracts/reasoner';
import { withIntermediateAnswer } from './intermediate-answer';
import type { RouterPlugin } from '../contracts/router';
import { bridgeEntities } from './bridge-entities';
import { createSingleShotReasoner } from './single-shot-reasoner';

/** Names handed to the next retrieval: the first hop's answer rarely holds more than one bridge. */
const BRIDGE_NAMES = 2;

/**
 * Self-ask / IRCoT decomposition (Press et al. 2023; Trivedi et al. 2023) for a model with no
 * instruction following, such as the offline extractive reader: the graph runs it twice. The
 * bridge hop reads the first retrieval and names what the answer quotes beyond the question (the
 * bridge entity); a retrieve node searches again with those names; the answer hop reads the union
 * of both retrievals. Each hop is its own reason node, so EXPLAIN ANALYZE shows each call's
 * estimate and actual. Every call is an ordinary cited answer over the numbered context, so a
 * capable model tier answers the same prompts.
 */
export function createDecompositionReasoner(): ReasonerPlugin {
  const once = createSingleShotReasoner();
  return Object.freeze({
    contract: REASONER_CONTRACT,
    strategy: 'decomposition' as const,
    expectedModelCalls: 2,
    bridgeHops: 1,
    async reason(request: ReasonRequest, router: RouterPlugin): Promise<ReasonResult> {
      if (request.purpose !== 'bridge') {
        // Self-ask's last step: the question asked again with the intermediate answer beside it.
        const bridge = request.bridge ?? [];
        return once.reason(bridge.length > 0 ? { ...request, goal: withIntermediateAnswer(request.goal, bridge) } : request, router);
      }
      const answered = await once.reason(request, router);
      return Object.freeze({ ...answered, bridge: Object.freeze(bridgeEntities(answered.answer, request.goal, BRIDGE_NAMES)) });
    },
  });
}
