import { describe, expect, it } from 'vitest';
import { fitReasonerGains, gainsConfig, PRIOR_QUESTIONS } from './reasoner-gain-fit';

const answered = (mode: string, intent: string, f1s: readonly number[]) => f1s.map((f1, index) => ({ id: `${intent}-${index}`, mode, intent, f1 }));

describe('fitReasonerGains', () => {
  it('turns an F1 ratio into the quality gain that moves accuracy by that ratio, smoothed with pseudo-questions at the pooled F1', () => {
    const answers = [...answered('single_shot', 'multi_hop', Array(30).fill(0.2)), ...answered('decomposition', 'multi_hop', Array(30).fill(0.3))];
    const [fit] = fitReasonerGains(answers, 0.45);
    const shrunk = (30 * 0.3 + PRIOR_QUESTIONS * 0.2) / (30 * 0.2 + PRIOR_QUESTIONS * 0.2);
    expect(fit).toMatchObject({ reasoner: 'decomposition', intent: 'multi_hop', questions: 30 });
    expect(fit.gain).toBeCloseTo((0.45 * (shrunk - 1)) / 0.55, 10);
    // The fitted gain reproduces the ratio on the cost model's quality formula (before shrinkage it would be exactly 1.5).
    expect((0.45 + fit.gain * 0.55) / 0.45).toBeCloseTo(shrunk, 10);
  });

  it('fits each intent class apart and gives a negative gain where the reasoner answers worse', () => {
    const answers = [
      ...answered('single_shot', 'multi_hop', [0.2, 0.2]), ...answered('decomposition', 'multi_hop', [0.1, 0.1]),
      ...answered('single_shot', 'conceptual', [0.01, 0.01]), ...answered('decomposition', 'conceptual', [0.03, 0.03]),
      ...answered('planner', 'multi_hop', [1, 1]),
    ];
    const config = gainsConfig(fitReasonerGains(answers, 0.5));
    expect(config.decomposition.multi_hop).toBeLessThan(0);
    // Two questions at a near-zero F1 tripled: the pooled pseudo-questions keep the claim small.
    expect(config.decomposition.conceptual).toBeGreaterThan(0);
    expect(config.decomposition.conceptual).toBeLessThan(0.25);
    expect(config.planner).toBeUndefined();
    // No baseline signal anywhere: no gain claimed.
    expect(gainsConfig(fitReasonerGains([...answered('single_shot', 'conceptual', [0]), ...answered('decomposition', 'conceptual', [0.5])], 0.5)).decomposition.conceptual).toBe(0);
  });

  it('refuses a quality prior outside (0, 1)', () => {
    expect(() => fitReasonerGains([], 1)).toThrow(/qualityPrior/);
  });
});
