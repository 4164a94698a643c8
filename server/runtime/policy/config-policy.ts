/**
 * The built-in policy: source read permissions by role, sensitive sources and intents kept on
 * local tiers, and high-risk goals gated by a human. Cedar can replace it behind the same contract.
 */
import { POLICY_CONTRACT, type PolicyDecision, type PolicyPlugin } from '../contracts/policy';
import { sha256Hex } from '../ir/plan-hash';
import { canonicalJson } from '../ir/serialize-graph';
import type { RejectedSource, SourceInfo } from '../types';
import type { SensitiveContentMode } from './sensitive-content-detector';

export interface ConfigPolicyRules {
  /** Sources only these roles may read. */
  readonly sourceRoles: Readonly<Record<string, readonly string[]>>;
  readonly sensitiveSources: readonly string[];
  /**
   * policy.sensitive_content: a permitted source holding passages marked sensitive at ingest keeps
   * the plan on local tiers (local_only, the default), or lets it go out redacted (redact).
   */
  readonly sensitiveContent?: SensitiveContentMode;
  readonly highRiskRequiresHuman: boolean;
  readonly verificationByDefault: boolean;
}

/** "sensitive passages (demo-git 7: email): local model tiers only (policy.sensitive_content: local_only)": counts and kinds, never text. */
function markedPassagesReason(marked: readonly SourceInfo[], mode: SensitiveContentMode): string {
  const listed = marked.map((source) => `${source.name} ${source.sensitiveChunks}${source.sensitiveKinds?.length ? `: ${source.sensitiveKinds.join(', ')}` : ''}`).join('; ');
  const effect = mode === 'local_only' ? 'local model tiers only' : 'redacted before any non-local model';
  return `sensitive passages (${listed}): ${effect} (policy.sensitive_content: ${mode})`;
}

export function createConfigPolicy(rules: ConfigPolicyRules): PolicyPlugin {
  const rulesFingerprint = sha256Hex(canonicalJson(rules));
  return {
    contract: POLICY_CONTRACT,
    evaluate({ intent, principal, sources }): PolicyDecision {
      const denied: RejectedSource[] = [];
      const allowed: string[] = [];
      for (const source of sources) {
        const roles = rules.sourceRoles[source.name];
        if (roles && !roles.some((role) => principal.roles.includes(role))) {
          denied.push({ source: source.name, reason: 'not_permitted', detail: `readable by roles ${roles.join(', ')}; ${principal.user} has ${principal.roles.join(', ') || 'none'}` });
        } else allowed.push(source.name);
      }
      const reasons: string[] = [];
      const sensitiveSource = sources.some((source) => allowed.includes(source.name) && (source.sensitive || rules.sensitiveSources.includes(source.name)));
      const mode = rules.sensitiveContent ?? 'local_only';
      const marked = sources.filter((source) => allowed.includes(source.name) && (source.sensitiveChunks ?? 0) > 0);
      const localOnly = intent.classes.includes('sensitive') || sensitiveSource || (mode === 'local_only' && marked.length > 0);
      if (intent.classes.includes('sensitive')) reasons.push('goal is sensitive: local model tiers only');
      if (sensitiveSource) reasons.push('a permitted source is marked sensitive: local model tiers only');
      if (marked.length > 0) reasons.push(markedPassagesReason(marked, mode));
      const highRisk = intent.classes.includes('high_risk');
      const requireApproval = highRisk && rules.highRiskRequiresHuman;
      if (requireApproval) reasons.push('goal is high-risk: a human approves before the answer is released');
      const requireVerification = rules.verificationByDefault || highRisk;
      if (requireVerification) reasons.push(highRisk ? 'goal is high-risk: verification required' : 'verification on by default (config verification.default)');
      // The fingerprint covers the rules and what they granted this principal, so two users
      // with different permissions never share a cached plan.
      const fingerprint = sha256Hex(canonicalJson({ rules: rulesFingerprint, roles: [...principal.roles].sort(), allowed, localOnly, requireApproval })).slice(0, 32);
      return { allowedSources: allowed, deniedSources: denied, localOnly, requireApproval, requireVerification, reasons, fingerprint };
    },
  };
}
