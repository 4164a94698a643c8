import { REASONER_CONTRACT, type ReasonerPlugin, type ReasonRequest, type ReasonResult } from '../contracts/reasoner';
import type { RouterPlugin } from '../contracts/router';
import { invalidInput } from '../errors';
import { buildContextPrompt, parseCitations } from './context-prompt';
import { outgoingContext } from './outgoing-context';
import { withOutputSchema } from './output-schema-prompt';

/**
 * One model call over the numbered context. Citations are read from the answer, never added:
 * an answer without [n] markers reaches the verifier uncited so a citation policy can fail it,
 * instead of the reasoner manufacturing evidence the model never pointed at.
 */
export function createSingleShotReasoner(): ReasonerPlugin {
  return Object.freeze({
    contract: REASONER_CONTRACT,
    strategy: 'single_shot' as const,
    expectedModelCalls: 1,
    async reason(request: ReasonRequest, router: RouterPlugin): Promise<ReasonResult> {
      if (request.goal.trim().length === 0) throw invalidInput('goal', 'must not be empty');
      const outgoing = outgoingContext(request, router);
      const messages = withOutputSchema(buildContextPrompt(request.goal, outgoing.context), request.outputSchema);
      const result = await router.complete(
        request.tier,
        { messages, maxOutputTokens: request.maxOutputTokens, timeoutMs: request.timeoutMs, ...(request.signal ? { signal: request.signal } : {}), ...(request.outputSchema ? { outputSchema: request.outputSchema } : {}) },
        { localOnly: outgoing.localOnly },
      );
      const answer = result.text.trim();
      return Object.freeze({
        answer,
        citations: Object.freeze(parseCitations(answer, outgoing.context)),
        modelCalls: Object.freeze([result]),
        ...(outgoing.withheld + outgoing.redacted > 0 ? { sensitivePassages: Object.freeze({ withheld: outgoing.withheld, redacted: outgoing.redacted }) } : {}),
      });
    },
  });
}
