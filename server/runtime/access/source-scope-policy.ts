/**
 * A principal's source scope (an API key scoped to sources) narrows what the policy grants, for
 * every PolicyPlugin: the runtime wraps whichever policy is wired, so both places that ask the
 * policy — planning a run (plan-request.ts) and the one read check (principal-access.ts) — apply
 * the scope, and a replacement policy (Cedar) cannot forget it.
 */
import type { PolicyDecision, PolicyPlugin } from '../contracts/policy';
import { sha256Hex } from '../ir/plan-hash';
import type { RejectedSource } from '../types';

export function withSourceScope(policy: PolicyPlugin): PolicyPlugin {
  return Object.freeze({
    contract: policy.contract,
    evaluate(input: Parameters<PolicyPlugin['evaluate']>[0]): PolicyDecision {
      const scope = input.principal.sourceScope;
      if (scope === undefined) return policy.evaluate(input);
      const inScope = input.sources.filter((source) => scope.includes(source.name));
      const outside: RejectedSource[] = input.sources
        .filter((source) => !scope.includes(source.name))
        .map((source) => ({ source: source.name, reason: 'not_permitted', detail: `outside the source scope of ${input.principal.user} (${scope.join(', ') || 'no sources'})` }));
      // Only in-scope sources reach the inner policy: a sensitive source the key cannot read does not make its plans local-only.
      const decision = policy.evaluate({ ...input, sources: inScope });
      // Two principals with the same roles but different scopes never share a cached plan.
      const fingerprint = sha256Hex(`${decision.fingerprint}\u0000scope\u0000${[...scope].sort().join('\u0000')}`).slice(0, 32);
      return { ...decision, deniedSources: [...decision.deniedSources, ...outside], fingerprint };
    },
  });
}
