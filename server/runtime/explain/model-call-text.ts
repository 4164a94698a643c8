/** A reason node's model calls in EXPLAIN ANALYZE's tree: which answered from the model-context cache. */
import type { AnalyzedModelCall } from './explain-types';

function callText(call: AnalyzedModelCall): string {
  const cache = call.cache === 'hit' ? `cache hit${call.savedTokens !== undefined ? `, saved ${call.savedTokens} tokens` : ''}` : call.cache === 'miss' ? 'cache miss' : 'cache off';
  const provider = call.providerCachedInputTokens ? `, provider cached ${call.providerCachedInputTokens} input tokens` : '';
  return `${call.tier}/${call.modelId} ${cache}${provider}`;
}

export function modelCallsText(calls: readonly AnalyzedModelCall[]): string {
  return `[model calls: ${calls.map(callText).join('; ')}]`;
}
