import { describe, expect, it } from 'vitest';
import { FITTED_REASONER_GAINS, MIN_SHIPPED_QUESTIONS, PRIOR_RUNS, ReasonerOutcomeTally, gainText, gainValues, resolveReasonerGains } from './reasoner-gains';

const tallyOf = (runs: readonly (readonly [shape: string, actual: number])[], intentClass: 'multi_hop' | 'incident' = 'multi_hop') => {
  const tally = new ReasonerOutcomeTally();
  for (const [shape, actual] of runs) tally.add({ field: 'accuracy', intentClass, shape, actual });
  return tally;
};
const repeat = (count: number, shape: string, actual: number) => Array.from({ length: count }, () => [shape, actual] as const);

describe('reasoner gains learned from observed runs', () => {
  it('starts every unmeasured reasoner at 0, whatever it costs: the mixtures have no hand-set prior', () => {
    const table = resolveReasonerGains({});
    for (const reasoner of ['plan_worker_critic', 'debate', 'tool_loop']) expect(table[reasoner]).toBeUndefined();
    const explained = gainText('debate', 'multi_hop', undefined);
    expect(explained).toContain('gain 0');
    expect(explained).toContain('no runs observed');
  });

  it('weighs the shipped fitted table by the questions it was fitted on against the 0 prior', () => {
    const table = resolveReasonerGains({});
    const fitted = FITTED_REASONER_GAINS.decomposition!.multi_hop!;
    expect(table.decomposition?.multi_hop).toMatchObject({ target: 0, targetSource: 'prior', fitted, runs: 0, source: 'fitted' });
    expect(table.decomposition!.multi_hop!.gain).toBeCloseTo(Math.round(((fitted.questions * fitted.gain) / (fitted.questions + PRIOR_RUNS)) * 100) / 100, 10);
    // No shipped class rests on fewer questions than the prior's weight (conceptual had 3: not shipped).
    for (const byClass of Object.values(FITTED_REASONER_GAINS)) for (const fitted of Object.values(byClass)) expect(fitted!.questions).toBeGreaterThanOrEqual(MIN_SHIPPED_QUESTIONS);
    expect(table.decomposition?.conceptual?.gain ?? 0).toBe(0);
    expect(gainText('decomposition', 'multi_hop', table.decomposition!.multi_hop)).toContain(`fitted ${fitted.gain.toFixed(3)} on ${fitted.questions} questions`);
  });

  it('replaces the shipped table whole with a configured one (the bench fits on one set and plans another)', () => {
    const table = resolveReasonerGains({ debate: { incident: 0.1 } });
    expect(table.decomposition).toBeUndefined();
    expect(table.debate?.incident).toMatchObject({ gain: 0.1, targetSource: 'configured', source: 'configured' });
  });

  it('measures a gain as the share of one shot failures the reasoner turned into successes, per tier', () => {
    // Same tier: single_shot passes 8 of 18 (smoothed 0.45), the mixture 17 of 18 (0.9): (0.9 − 0.45)/(1 − 0.45) ≈ 0.82.
    const tally = tallyOf([...repeat(8, 'loopback/single_shot/bm25', 1), ...repeat(10, 'loopback/single_shot/bm25', 0), ...repeat(17, 'loopback/plan_worker_critic/bm25', 1), ...repeat(1, 'loopback/plan_worker_critic/bm25', 0)]);
    const observed = tally.observed('plan_worker_critic', 'multi_hop');
    expect(observed.runs).toBe(18);
    expect(observed.gain).toBeCloseTo((0.9 - 0.45) / 0.55, 10);
    // Shrunk toward 0 with PRIOR_RUNS pseudo-runs: 18 runs move it a little under halfway.
    const resolved = resolveReasonerGains({}, tally).plan_worker_critic!.multi_hop!;
    expect(resolved.source).toBe('observed');
    expect(resolved.gain).toBeCloseTo(Math.round(((18 * observed.gain) / (18 + PRIOR_RUNS)) * 100) / 100, 10);
    // Another intent class learned nothing from these runs.
    expect(tally.observed('plan_worker_critic', 'incident').runs).toBe(0);
  });

  it('compares runs on the same tier only: a mixture on a model tier against one shot on the extractive reader teaches nothing', () => {
    const tally = tallyOf([...repeat(10, 'extractive/single_shot/bm25', 0), ...repeat(10, 'loopback/debate/bm25', 1)]);
    expect(tally.observed('debate', 'multi_hop').runs).toBe(0);
    expect(resolveReasonerGains({}, tally).debate!.multi_hop!.gain).toBe(0);
  });

  it('learns a loss too, and a few lucky runs barely move the estimate', () => {
    const worse = tallyOf([...repeat(30, 'loopback/single_shot/bm25', 1), ...repeat(30, 'loopback/debate/bm25', 0)]);
    expect(resolveReasonerGains({}, worse).debate!.multi_hop!.gain).toBeLessThan(-0.5);
    const lucky = tallyOf([...repeat(2, 'loopback/single_shot/bm25', 0), ...repeat(2, 'loopback/debate/bm25', 1)]);
    // Raw (0.75 − 0.25)/0.75 ≈ 0.67 on two runs each, weighed 2 against PRIOR_RUNS: 0.06.
    expect(lucky.observed('debate', 'multi_hop').gain).toBeCloseTo(2 / 3, 10);
    expect(resolveReasonerGains({}, lucky).debate!.multi_hop!.gain).toBeCloseTo(0.06, 10);
  });

  it('ignores observations that are not a planned run outcome', () => {
    const tally = new ReasonerOutcomeTally();
    tally.add({ field: 'tokens', intentClass: 'multi_hop', shape: 'loopback/debate/bm25', actual: 1 });
    tally.add({ field: 'accuracy', intentClass: 'multi_hop', actual: 1 });
    expect(tally.pairs()).toEqual([]);
  });

  it('gives the cost model plain values and EXPLAIN what decided them', () => {
    const tally = tallyOf([...repeat(20, 'loopback/single_shot/bm25', 0), ...repeat(20, 'loopback/debate/bm25', 1)]);
    const table = resolveReasonerGains({ debate: { multi_hop: 0.1 } }, tally);
    expect(gainValues(table)).toEqual({ debate: { multi_hop: table.debate!.multi_hop!.gain } });
    const text = gainText('debate', 'multi_hop', table.debate!.multi_hop);
    expect(text).toContain('observed: 20 runs observed, configured 0.100 weighed as 20 runs');
    expect(gainText('single_shot', 'multi_hop', undefined)).toContain('baseline');
  });
});
