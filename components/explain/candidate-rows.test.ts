import { describe, expect, it } from 'vitest';
import type { ExplainedCandidate } from '@/server/runtime/explain/explain-types';
import { candidateRowClass, shownCandidates } from './candidate-rows';

const candidate = (id: string, chosen = false, feasible = true) => ({ id, chosen, feasible }) as unknown as ExplainedCandidate;

describe('shownCandidates', () => {
  const list = [candidate('a'), candidate('b'), candidate('c', true), candidate('d')];

  it('shows every candidate without a limit or under it', () => {
    expect(shownCandidates(list)).toBe(list);
    expect(shownCandidates(list, 10)).toBe(list);
  });

  it('cuts at the limit but keeps the chosen plan in view', () => {
    expect(shownCandidates(list, 2).map((entry) => entry.id)).toEqual(['a', 'b', 'c']);
    expect(shownCandidates(list, 3).map((entry) => entry.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('candidateRowClass', () => {
  it('marks the chosen plan and mutes an infeasible one', () => {
    expect(candidateRowClass({ chosen: true, feasible: true })).toBe('chosen');
    expect(candidateRowClass({ chosen: false, feasible: false })).toBe('infeasible');
    expect(candidateRowClass({ chosen: false, feasible: true })).toBeUndefined();
  });
});
