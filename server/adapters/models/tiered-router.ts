import type { TierConfig } from '../../runtime/config/config-schema';
import type { ModelPlugin, ModelRequest, StepAdmission } from '../../runtime/contracts/model';
import { type CallAdmission, MESSAGE_OVERHEAD_TOKENS, ROUTER_CONTRACT, type RoutedResult, type RouterPlugin, type TierInfo } from '../../runtime/contracts/router';
import { ContextRuntimeError, invalidInput, isContextRuntimeError } from '../../runtime/errors';
import { createModelPlugin } from './ai-sdk-model';
import { callFailure } from './call-failure';
import type { Environment } from './language-model-factory';

/** A model plugin that may report itself unreachable (see TierModelPlugin); plain ModelPlugins count as available. */
export type RoutableModelPlugin = ModelPlugin & { readonly available?: boolean; readonly unavailableReason?: string };

/**
 * Capability-tiered routing: the ladder is the config order (rank = index, 0 = cheapest/local).
 * A failing or timed-out tier hands the request up the ladder, never down, and never to a
 * non-local tier when the goal must stay on this machine. The next tier starts only after the
 * failed call has settled (a timed-out call is aborted first, its connection closed).
 */
export function createTieredRouter(models: readonly RoutableModelPlugin[]): RouterPlugin {
  const names = models.map((model) => model.tier);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate) throw new ContextRuntimeError('INVALID_CONFIG', `models.tiers: tier "${duplicate}" is configured twice`, { field: 'models.tiers' });
  if (models.length === 0) throw new ContextRuntimeError('INVALID_CONFIG', 'models.tiers: at least one tier is required', { field: 'models.tiers' });

  const tierInfos: readonly TierInfo[] = Object.freeze(
    models.map((model, rank) =>
      Object.freeze({
        name: model.tier,
        rank,
        capabilities: model.capabilities(),
        available: model.available ?? true,
        unavailableReason: model.available === false ? model.unavailableReason : undefined,
      }),
    ),
  );

  const rankOf = (tier: string): number => {
    const rank = names.indexOf(tier);
    if (rank === -1) throw invalidInput('tier', `unknown model tier "${tier}"; configured tiers: ${names.join(', ')}`);
    return rank;
  };

  async function complete(tier: string, request: ModelRequest, options: { readonly localOnly?: boolean; readonly admit?: CallAdmission } = {}): Promise<RoutedResult> {
    const start = rankOf(tier);
    const localOnly = options.localOnly ?? false;
    const fallbacks: { tier: string; error: string }[] = [];
    // The requested tier is always attempted (an unavailable one fails fast and is recorded); higher tiers only when reachable.
    const ladder = models.slice(start).filter((model, offset) => (offset === 0 || tierInfos[start + offset].available) && (!localOnly || model.capabilities().local));
    if (ladder.length === 0) {
      throw new ContextRuntimeError('MODEL_UNAVAILABLE', `no local model tier at or above "${tier}" (localOnly)`, { details: { tier, localOnly } });
    }
    const promptText = request.messages.map((message) => message.content).join('\n');
    for (const model of ladder) {
      request.signal?.throwIfAborted();
      // A refusal (the run's budget) ends the climb here, before this tier's call starts: a pricier
      // fallback is exactly what a budget must be able to stop.
      const info = tierInfos[rankOf(model.tier)];
      // A tool loop is many calls: the model plugin asks for each step itself (priced on its own prompt).
      const stepwise = request.toolLoop !== undefined && info.capabilities.toolCalls === true;
      const admit = options.admit;
      const admitStep: StepAdmission | undefined = stepwise && admit ? (step) => admit({ tier: info.name, prices: info.capabilities, ...step }) : undefined;
      const ended = stepwise
        ? undefined
        : admit?.({
            tier: info.name,
            prices: info.capabilities,
            promptTokens: model.countTokens(promptText) + request.messages.length * MESSAGE_OVERHEAD_TOKENS,
            // The model plugin asks for no more than the tier allows (ai-sdk-model.ts).
            maxOutputTokens: Math.min(request.maxOutputTokens, info.capabilities.maxOutputTokens),
          });
      try {
        const result = await model.complete(request, admitStep ? { admitStep } : undefined);
        ended?.({ usage: result.usage, costUsd: result.costUsd });
        return Object.freeze({ ...result, fallbacks: Object.freeze(fallbacks.map((fallback) => Object.freeze(fallback))) });
      } catch (error) {
        ended?.({ failed: callFailure(error, request.signal) });
        // The caller gave up (node timeout, cancel): nobody waits for a higher tier's answer.
        if (request.signal?.aborted) throw error;
        // A caller's mistake or a policy refusal is no tier's failure: a higher tier would only repeat it (or leak what policy held back).
        if (isContextRuntimeError(error) && error.isUserError) throw error;
        const code = isContextRuntimeError(error) ? `${error.code}: ` : '';
        fallbacks.push({ tier: model.tier, error: `${code}${error instanceof Error ? error.message : String(error)}` });
      }
    }
    throw new ContextRuntimeError('MODEL_UNAVAILABLE', `every model tier from "${tier}" up failed: ${fallbacks.map((fallback) => `${fallback.tier}: ${fallback.error}`).join('; ')}`, {
      details: { tier, localOnly, failures: fallbacks },
    });
  }

  return Object.freeze({
    contract: ROUTER_CONTRACT,
    tiers: () => tierInfos,
    countTokens: (tier: string, text: string) => models[rankOf(tier)].countTokens(text),
    complete,
  });
}

/** The router for `models.tiers` of the config: one AI SDK model plugin per tier, in config order. */
export function createRouterFromConfig(tiers: readonly TierConfig[], environment: Environment): RouterPlugin {
  return createTieredRouter(tiers.map((tier) => createModelPlugin(tier, environment)));
}
