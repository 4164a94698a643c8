import { describe, expect, it } from 'vitest';
import type { Contradiction } from '../contracts/knowledge';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { goalNamesSubject, mentions, scopeContradictions } from './goal-contradictions';

const checkoutLimit: Contradiction = {
  subject: 'checkout-api',
  attribute: 'memory limit',
  values: [
    { value: '256Mi', sourceName: 'demo-git', chunkId: 'chk_commit' },
    { value: '512Mi', sourceName: 'demo-docs', chunkId: 'chk_overview' },
  ],
};
const billingReplicas: Contradiction = {
  subject: 'billing-worker',
  attribute: 'replicas',
  values: [
    { value: '2', sourceName: 'billing-runbook', chunkId: 'chk_runbook' },
    { value: '4', sourceName: 'billing-deploy', chunkId: 'chk_manifest' },
  ],
};
const intent = (goal: string) => ruleIntentAnalyzer.analyze(goal);
const citation = (chunkId: string) => ({ ref: 1, chunkId, sourceName: 'demo-docs', quote: '' });

describe('contradictions scoped to the goal', () => {
  it('keeps the ones whose subject the goal names, and sets the rest apart', () => {
    expect(scopeContradictions([checkoutLimit, billingReplicas], intent('Explain why deployment checkout-api failed'))).toEqual({ concerning: [checkoutLimit], other: [billingReplicas] });
    expect(scopeContradictions([checkoutLimit, billingReplicas], intent('How many replicas does billing-worker run?'))).toEqual({ concerning: [billingReplicas], other: [checkoutLimit] });
    expect(scopeContradictions([checkoutLimit], intent('What does the payments retry policy say?'))).toEqual({ concerning: [], other: [checkoutLimit] });
  });

  it('matches whole names only, and pods by their workload', () => {
    expect(mentions('is checkout-api-v2 slow', 'checkout-api')).toBe(false);
    expect(mentions('why is my-checkout-api slow', 'checkout-api')).toBe(false);
    expect(mentions('Why is Checkout-API slow?', 'checkout-api')).toBe(true);
    expect(goalNamesSubject(intent('Why did pod checkout-api-7d9f8b6c5-x2k4p restart?'), 'checkout-api')).toBe(true);
  });

  it('adds a disagreement the answer itself states from a chunk it cites', () => {
    const goal = intent('Which service had its memory limit lowered?');
    const stated = { text: 'checkout-api had its memory limit lowered to 256 Mi [1].', citations: [citation('chk_commit')] };
    expect(scopeContradictions([checkoutLimit], goal, stated).concerning).toEqual([checkoutLimit]);
    // The same value without citing the chunk that states it, or cited without stating it: not the answer's claim.
    expect(scopeContradictions([checkoutLimit], goal, { ...stated, citations: [citation('chk_other')] }).concerning).toEqual([]);
    expect(scopeContradictions([checkoutLimit], goal, { text: 'A memory limit was lowered [1].', citations: [citation('chk_commit')] }).concerning).toEqual([]);
  });

  it('never attaches another entity’s disagreement to a goal about a named entity, even on a shared value', () => {
    const goal = intent('What is the memory limit of billing-worker?');
    const answer = { text: 'billing-worker runs with a memory limit of 256Mi [1].', citations: [citation('chk_commit')] };
    expect(scopeContradictions([checkoutLimit], goal, answer)).toEqual({ concerning: [], other: [checkoutLimit] });
  });
});
