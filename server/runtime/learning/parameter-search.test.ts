import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '../config/config-schema';
import { seededRandom } from './bandit-replay';
import { FINAL_K_CHOICES, perturb, RERANK_DEPTH_CHOICES, searchParameters, TOP_K_CHOICES, type TuningPoint } from './parameter-search';

const start: TuningPoint = { weights: { ...DEFAULT_WEIGHTS }, topK: 20, finalK: 8, rerankDepth: 30 };
// A known optimum: acc high, cost low, top-k 50, depth 50.
const objective = async (point: TuningPoint) => -Math.abs(point.weights.acc - 3) - Math.abs(point.weights.cost - 0.1) - Math.abs(point.topK - 50) / 50 - Math.abs(point.rerankDepth - 50) / 50;

describe('parameter search', () => {
  it('perturbs within the allowed choices and bounds, never touching the input', () => {
    const random = seededRandom(3);
    for (let step = 0; step < 200; step++) {
      const next = perturb(start, random);
      expect(TOP_K_CHOICES).toContain(next.topK);
      expect(RERANK_DEPTH_CHOICES).toContain(next.rerankDepth);
      expect(FINAL_K_CHOICES).toContain(next.finalK);
      expect(Object.values(next.weights).every((value) => value > 0 && value <= 5)).toBe(true);
    }
    expect(start.weights).toEqual(DEFAULT_WEIGHTS);
  });

  it('improves on the start, keeps only improvements and replays identically from the seed', async () => {
    const first = await searchParameters(start, objective, { trials: 150, seed: 9 });
    expect(first.bestScore).toBeGreaterThan(first.startScore + 1);
    expect(first.best.topK).toBe(50);
    expect(first.history.filter((record) => record.kept).map((record) => record.score)).toEqual([...first.history.filter((record) => record.kept).map((record) => record.score)].sort((left, right) => left - right));
    const again = await searchParameters(start, objective, { trials: 150, seed: 9 });
    expect(again.best).toEqual(first.best);
  });
});
