/**
 * A sentence that names a change by its quoted subject line (a postmortem's timeline: kdp-infra
 * change "Move Connect S3 sinks to the lake-writer IAM role" merged) says what that change did in
 * the words of the question, while the commit's own subject shares few of them. For a question
 * asking which change, the commit's subject line scores at least as well as the best sentence
 * naming it, so the answer carries the commit and its author, not only the sentence pointing at it
 * (issue 10, freight dev d29: the commit ranked 9th, below the later fix whose subject says "prefix").
 */
import { quotedSpans } from '../../runtime/planner/goal-tokens';
import type { Unit } from './extractive-units';

const normalized = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

export interface ScoredUnit {
  readonly unit: Unit;
  readonly score: number;
}

export function creditQuotedSubjects(scored: readonly ScoredUnit[]): ScoredUnit[] {
  const quoting = new Map<string, number>();
  for (const { unit, score } of scored) {
    if (unit.role === 'subject') continue;
    for (const span of quotedSpans(unit.text)) {
      const key = normalized(span);
      quoting.set(key, Math.max(quoting.get(key) ?? 0, score));
    }
  }
  if (quoting.size === 0) return [...scored];
  return scored.map((entry) => {
    if (entry.unit.role !== 'subject') return entry;
    const credit = quoting.get(normalized(entry.unit.scored));
    return credit !== undefined && credit > entry.score ? { unit: entry.unit, score: credit } : entry;
  });
}
