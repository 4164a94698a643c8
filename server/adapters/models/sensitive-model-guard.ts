import type { ModelPlugin, ModelRequest, ModelResult } from '../../runtime/contracts/model';
import { ContextRuntimeError } from '../../runtime/errors';
import { redactSensitive, type SensitiveContentMode, sensitiveKinds } from '../../runtime/policy/sensitive-content-detector';

/**
 * The last line before a non-local model: every message of every call is scanned for personal
 * data and secrets. Plugins hold sensitive passages back themselves (reasoner, reranker, OpenIE);
 * this guard catches what any of them, or a future one, lets through. Under "redact" the spans are
 * replaced by their kind; under "local_only" the call is refused (FORBIDDEN, naming the kinds,
 * never the text). A local model is returned unwrapped: its data never leaves the machine.
 */
export function guardSensitiveContent<Model extends ModelPlugin>(model: Model, mode: SensitiveContentMode): Model {
  if (model.capabilities().local) return model;
  async function complete(request: ModelRequest): Promise<ModelResult> {
    if (mode === 'redact') {
      return model.complete({ ...request, messages: request.messages.map((message) => ({ ...message, content: redactSensitive(message.content) })) });
    }
    const kinds = [...new Set(request.messages.flatMap((message) => sensitiveKinds(message.content)))];
    if (kinds.length > 0) {
      throw new ContextRuntimeError('FORBIDDEN', `tier ${model.tier} is not local: a passage holding ${kinds.join(', ')} stays on local tiers (policy.sensitive_content: local_only)`, {
        details: { tier: model.tier, kinds, rule: 'policy.sensitive_content' },
      });
    }
    return model.complete(request);
  }
  // Inherits everything else (tier, availability, capabilities, token counting) from the model
  // itself; a frozen plugin cannot be proxied with another `complete`, but it can be a prototype.
  return Object.freeze(Object.create(model, { complete: { value: complete, enumerable: true } }) as Model);
}
