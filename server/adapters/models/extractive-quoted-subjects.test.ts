import { describe, expect, it } from 'vitest';
import { creditQuotedSubjects, type ScoredUnit } from './extractive-quoted-subjects';
import type { Unit } from './extractive-units';

const unit = (ref: number, role: Unit['role'], text: string, scored = text): Unit => {
  const terms = scored.toLowerCase().split(/\W+/).filter(Boolean);
  return { ref, source: `s${ref}`, order: ref, role, text, scored, terms, termSet: new Set(terms), tokens: new Set(terms), shape: new Set(terms), evidence: new Set(terms), moments: new Set() };
};

describe('a commit named by its quoted subject', () => {
  const timeline: ScoredUnit = { unit: unit(1, 'prose', 'Mar 6 16:40 — ops-infra change "Route print jobs through the new  spooler pool" merged.'), score: 27 };
  const named: ScoredUnit = { unit: unit(2, 'subject', 'Route print jobs through the new spooler pool (commit 9f1e2d3, Ana Ruiz)', 'Route print jobs through the new spooler pool'), score: 9 };
  const other: ScoredUnit = { unit: unit(3, 'subject', 'Fix spooler pool quota (commit 1a2b3c4, Ana Ruiz)', 'Fix spooler pool quota'), score: 12 };

  it('scores as the best sentence quoting it, whatever case and spacing', () => {
    expect(creditQuotedSubjects([timeline, named, other]).map((entry) => entry.score)).toEqual([27, 27, 12]);
  });

  it('keeps its own score when that is higher, and changes nothing without quotes', () => {
    expect(creditQuotedSubjects([{ ...timeline, score: 5 }, named]).map((entry) => entry.score)).toEqual([5, 9]);
    expect(creditQuotedSubjects([{ unit: unit(1, 'prose', 'The pool was changed.'), score: 20 }, named]).map((entry) => entry.score)).toEqual([20, 9]);
  });
});
