import { describe, expect, it } from 'vitest';
import type { PlanningContext } from '../contracts/candidate-generator';
import { RuleCandidateGenerator } from './candidate-generator';
import { generationKey } from './generation-key';
import { ruleIntentAnalyzer } from './intent-analyzer';
import { demoPlanningContext } from './testing/demo-planning-context';

const intent = ruleIntentAnalyzer.analyze('Why did checkout-api crash after the deploy?');
const base = demoPlanningContext();
const [bm25, ...otherRetrievers] = base.retrievers;
const [local, ...otherTiers] = base.tiers;

/** One change per field the generator reads: each must give another key (and so a freshly generated set). */
const VARIANTS: readonly [string, PlanningContext][] = [
  ['retriever availability', { ...base, retrievers: [{ ...bm25, available: false, unavailableReason: 'index dropped' }, ...otherRetrievers] }],
  ['retriever unavailable reason', { ...base, retrievers: [{ ...bm25, available: false, unavailableReason: 'another reason' }, ...otherRetrievers] }],
  ['retriever sends passages off the machine', { ...base, retrievers: [{ ...bm25, sendsPassagesOffMachine: true }, ...otherRetrievers] }],
  ['retriever source kinds', { ...base, retrievers: [{ ...bm25, sourceKinds: ['docs'] }, ...otherRetrievers] }],
  ['retriever composed of', { ...base, retrievers: [{ ...bm25, composedOf: ['fulltext'] }, ...otherRetrievers] }],
  ['retriever requires (its family)', { ...base, retrievers: [{ ...bm25, method: 'lexical-x', requires: ['vector'] }, ...otherRetrievers] }],
  ['retriever recall prior for the intent', { ...base, retrievers: [{ ...bm25, recallPrior: { ...bm25.recallPrior, incident: 0.1 } }, ...otherRetrievers] }],
  ['tier availability', { ...base, tiers: [{ ...local, available: false, unavailableReason: 'down' }, ...otherTiers] }],
  ['tier locality', { ...base, tiers: [{ ...local, capabilities: { ...local.capabilities, local: false } }, ...otherTiers] }],
  ['tier provider', { ...base, tiers: [{ ...local, capabilities: { ...local.capabilities, provider: 'openai' } }, ...otherTiers] }],
  ['tier tool calls', { ...base, tiers: [{ ...local, capabilities: { ...local.capabilities, toolCalls: true } }, ...otherTiers] }],
  ['sources the policy allows', { ...base, policy: { ...base.policy, allowedSources: base.policy.allowedSources.slice(0, 1) } }],
  ['policy local only', { ...base, policy: { ...base.policy, localOnly: true } }],
  ['policy requires verification', { ...base, policy: { ...base.policy, requireVerification: true } }],
  ['policy requires approval', { ...base, policy: { ...base.policy, requireApproval: true } }],
  ['policy reasons', { ...base, policy: { ...base.policy, localOnly: true, reasons: ['restricted source'] } }],
  ['reasoners', { ...base, reasoners: base.reasoners.slice(0, 1) }],
  ['compressions', { ...base, compressions: [] }],
  ['verifiers', { ...base, verifiers: [] }],
  ['top k', { ...base, retrieval: { ...base.retrieval, topK: 7 } }],
];

describe('generationKey', () => {
  it.each(VARIANTS)('changes with %s, and the memoised generator plans the changed context afresh', (_name, variant) => {
    expect(generationKey(intent, variant)).not.toBe(generationKey(intent, base));
    const memoised = new RuleCandidateGenerator();
    memoised.generate(intent, base);
    expect(memoised.generate(intent, variant)).toEqual(new RuleCandidateGenerator().generate(intent, variant));
  });

  it('changes with the intent classes and the source kinds the goal names, not with its other words', () => {
    const analyze = (goal: string) => ruleIntentAnalyzer.analyze(goal);
    expect(generationKey(analyze('Why did checkout-api crash after the deploy?'), base)).toBe(generationKey(analyze('Why did payments-api crash after the rollout?'), base));
    expect(generationKey(analyze('Which commit made checkout-api crash?'), base)).not.toBe(generationKey(analyze('Why did checkout-api crash?'), base));
    expect(generationKey(analyze('What is a circuit breaker?'), base)).not.toBe(generationKey(intent, base));
  });

  it('returns the same frozen set for an equal key', () => {
    const generator = new RuleCandidateGenerator();
    const first = generator.generate(intent, base);
    expect(generator.generate(ruleIntentAnalyzer.analyze('Why did payments-api crash after the rollout?'), demoPlanningContext())).toBe(first);
    expect(Object.isFrozen(first.candidates[0])).toBe(true);
  });
});
