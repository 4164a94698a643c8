import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '../config/config-schema';
import { heuristicCostModel } from '../costmodel/heuristic-cost-model';
import { resolveWeights } from '../costmodel/plan-score';
import { planOptimizer } from '../optimizer/plan-optimizer';
import { ruleCandidateGenerator } from '../planner/candidate-generator';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { planGoal } from '../planner/plan-pipeline';
import { demoPlanningContext } from '../planner/testing/demo-planning-context';
import type { RejectedCandidate } from '../types';
import type { ExplainResult } from './explain-types';
import { allRejected, registerRejectionParts } from './rejection-parts';
import { rejectedCount, rejectedCountsByStage, rejectedTruncationNote, storedExplain } from './stored-explain';

const dominated = (index: number): RejectedCandidate => ({
  candidate: { description: `candidate ${index}` },
  stage: 'dominated',
  rule: 'optimizer.dominated',
  reason: `dominated by c0 (${index})`,
  score: index / 100,
});
const tierCut = (index: number): RejectedCandidate => ({ candidate: { description: `tier family ${index}` }, stage: 'capability', rule: 'capability.tier', reason: 'OPENAI_API_KEY is not set' });

/** Only the fields these functions read: the rest of an EXPLAIN does not matter to them. */
function explainWith(rejectedCandidates: readonly RejectedCandidate[]): ExplainResult {
  return { rejectedCandidates } as ExplainResult;
}

describe('storedExplain', () => {
  const rejected = [tierCut(1), ...Array.from({ length: 50 }, (_, index) => dominated(index)), tierCut(2)];

  it('keeps the best of each rule by score and counts all of them', () => {
    const stored = storedExplain(explainWith(rejected), 5);
    expect(stored.rejectedCandidates.filter((entry) => entry.stage === 'dominated').map((entry) => entry.score)).toEqual([0.49, 0.48, 0.47, 0.46, 0.45]);
    expect(stored.rejectedCandidates.filter((entry) => entry.stage === 'capability').map((entry) => entry.candidate)).toEqual([{ description: 'tier family 1' }, { description: 'tier family 2' }]);
    expect(stored.rejectedSummary).toEqual({
      total: 52,
      shown: 7,
      keptPerRule: 5,
      byRule: [
        { stage: 'capability', rule: 'capability.tier', count: 2, shown: 2 },
        { stage: 'dominated', rule: 'optimizer.dominated', count: 50, shown: 5 },
      ],
    });
    expect(rejectedCountsByStage(stored)).toEqual(new Map([['capability', 2], ['dominated', 50]]));
    expect(rejectedTruncationNote(stored)).toBe('52 rejected; showing the best 5 of each rule (7 in all)');
  });

  it('keeps what a stable sort by score would keep, ties in list order (seeded lists with ties and unscored entries)', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const list: RejectedCandidate[] = Array.from({ length: 1 + Math.floor(random() * 60) }, (_, index) => {
        const rule = random() < 0.7 ? 'optimizer.dominated' : 'rules.scope';
        const score = random() < 0.1 ? undefined : Math.floor(random() * 6) / 5;
        return { candidate: { description: `c${index}` }, stage: rule === 'rules.scope' ? 'rule' : 'dominated', rule, reason: 'r', ...(score === undefined ? {} : { score }) } as RejectedCandidate;
      });
      const keptPerRule = 1 + Math.floor(random() * 8);
      const expected: RejectedCandidate[] = [];
      for (const rule of [...new Set(list.map((entry) => entry.rule))]) {
        const group = list.filter((entry) => entry.rule === rule);
        const ranked = group.some((entry) => entry.score !== undefined) ? [...group].sort((left, right) => (right.score ?? -Infinity) - (left.score ?? -Infinity)) : group;
        expected.push(...ranked.slice(0, keptPerRule));
      }
      const stored = storedExplain(explainWith(list), keptPerRule);
      if (stored.rejectedSummary) expect(stored.rejectedCandidates).toEqual(expected);
      else expect(stored.rejectedCandidates).toBe(list);
    }
  });

  it('stores the whole list when asked (null) or when no rule overflows, and then says nothing', () => {
    const explain = explainWith(rejected);
    expect(storedExplain(explain, null)).toBe(explain);
    expect(storedExplain(explain, 50)).toBe(explain);
    expect(rejectedTruncationNote(explain)).toBeUndefined();
    expect(rejectedCountsByStage(explain)).toEqual(new Map([['capability', 2], ['dominated', 50]]));
  });

  it('does not shrink an explain twice (a resumed run stores what it loaded)', () => {
    const once = storedExplain(explainWith(rejected), 5);
    expect(storedExplain(once, 1)).toBe(once);
  });

  it('stores a planned EXPLAIN from its rejection parts as from the whole list, without listing it', () => {
    const goals = ['Explain why deployment checkout-api failed', 'Which commit changed the connection pool size and who approved it?', 'Find request id 7f3a9c2e in the logs'];
    for (const goal of goals) {
      const planned = planGoal({ goal, context: demoPlanningContext(), constraints: {}, weights: resolveWeights(DEFAULT_WEIGHTS), analyzer: ruleIntentAnalyzer, generator: ruleCandidateGenerator, costModel: heuristicCostModel, optimizer: planOptimizer });
      expect(planned.rejections.dominated?.count).toBeGreaterThan(100);
      let listed = 0;
      const lazy = {
        planHash: goal,
        get rejectedCandidates() {
          listed++;
          return allRejected(planned.rejections);
        },
        chosenId: planned.chosen.candidate.id,
      } as unknown as ExplainResult;
      registerRejectionParts(lazy, planned.rejections);
      const keptPerRules = [1, 5, 20];
      // Before anything lists the dominated records, and again after (DominatedList.best reads either way).
      const beforeListing = keptPerRules.map((keptPerRule) => JSON.stringify(storedExplain(lazy, keptPerRule)));
      const whole = { planHash: goal, rejectedCandidates: planned.rejected, chosenId: planned.chosen.candidate.id } as unknown as ExplainResult;
      keptPerRules.forEach((keptPerRule, index) => {
        const expected = JSON.stringify(storedExplain(whole, keptPerRule));
        expect(beforeListing[index]).toBe(expected);
        expect(JSON.stringify(storedExplain(lazy, keptPerRule))).toBe(expected);
        expect(storedExplain(lazy, keptPerRule).rejectedSummary?.total).toBe(planned.rejected.length);
      });
      expect(rejectedCount(lazy)).toBe(planned.rejected.length);
      expect(listed).toBe(0);
      // Read, the lazy list is the whole list: the generator's cuts, then the dominated plans best first.
      expect(lazy.rejectedCandidates).toEqual(planned.rejected);
      expect(planned.rejected.slice(planned.rejections.generated.length).every((entry) => entry.stage === 'dominated')).toBe(true);
    }
  });
});
