import { describe, expect, it } from 'vitest';
import { DEFAULT_RM3_OPTIONS } from '../../server/adapters/retrievers/rm3-retriever';
import { chooseByFolds, chooseLeavingSetOut, optionLabel, queryFolds, RM3_OPTION_GRID } from './rm3-option-search';

describe('rm3 options by k-fold cross-validation', () => {
  it('chooses, for each fold, the grid point best on the OTHER folds, never on the fold it scores', () => {
    // Point 0 wins on queries 0–1 (fold 0), point 1 on queries 2–3 (fold 1); each fold must get the other's winner.
    const scores = [
      [1, 1, 0, 0],
      [0, 0, 1, 1],
    ];
    expect(chooseByFolds(scores, [0, 0, 1, 1], 2)).toEqual([1, 0]);
  });

  it('breaks ties toward the lower grid index', () => {
    expect(chooseByFolds([[0.5, 0.5], [0.5, 0.5]], [0, 1], 2)).toEqual([0, 0]);
  });

  it('deals queries into k folds of near-equal size, the same way on every run', () => {
    const ids = Array.from({ length: 23 }, (_, index) => `q${index}`);
    const folds = queryFolds(ids, 5, 7);
    expect(queryFolds(ids, 5, 7)).toEqual(folds);
    const sizes = [0, 1, 2, 3, 4].map((fold) => folds.filter((value) => value === fold).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(queryFolds(ids, 5, 11)).not.toEqual(folds);
  });

  it('holds the shipped options in its grid, so the search can keep them', () => {
    expect(RM3_OPTION_GRID.map(optionLabel)).toContain(optionLabel(DEFAULT_RM3_OPTIONS));
    expect(new Set(RM3_OPTION_GRID.map(optionLabel)).size).toBe(RM3_OPTION_GRID.length);
  });

  it('leaves one dataset out: each set is scored with the point best on the OTHER sets, each set weighing the same', () => {
    const grids = [
      { set: 'a', means: [0.9, 0.1, 0.5] },
      { set: 'b', means: [0.2, 0.6, 0.5] },
      { set: 'c', means: [0.2, 0.6, 0.5] },
    ];
    // a held out: b and c prefer point 1 (0.6); b held out: a + c give point 0 0.55, 1 0.35, 2 0.5.
    expect(chooseLeavingSetOut(grids)).toEqual([
      { heldOut: 'a', chosen: 1, heldOutScore: 0.1 },
      { heldOut: 'b', chosen: 0, heldOutScore: 0.2 },
      { heldOut: 'c', chosen: 0, heldOutScore: 0.2 },
    ]);
  });

  it('refuses grids of different sizes', () => {
    expect(() => chooseLeavingSetOut([{ set: 'a', means: [1] }, { set: 'b', means: [1, 2] }])).toThrow(/a 1, b 2/);
  });
});
