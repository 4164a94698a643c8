/**
 * Kinds of source a goal asks for by name. "Which commit made billing-worker apply migrations at
 * start-up, and who wrote it?" is a conceptual question by its wording, and the conceptual rule
 * narrows to docs — where no commit lives, so the answer could only quote runbooks (issue 10).
 * A goal that says "commit", "log" or "runbook" says where its answer is; every narrowed scope
 * keeps that kind and the scope factor counts it as required.
 */
import type { SourceKind } from '../types';

const NAMED_KINDS: readonly { readonly kind: SourceKind; readonly words: RegExp }[] = [
  { kind: 'git', words: /\b(?:commits?|committed|git|diffs?|pull requests?|merge requests?)\b/i },
  { kind: 'logs', words: /\b(?:logs?|logged|log lines?|journal)\b/i },
  { kind: 'metrics', words: /\b(?:metrics?|dashboards?|time series)\b/i },
  { kind: 'docs', words: /\b(?:runbooks?|docs?|documentation|handbook|postmortems?|architecture)\b/i },
];

export function namedSourceKinds(goal: string): SourceKind[] {
  return NAMED_KINDS.filter((entry) => entry.words.test(goal)).map((entry) => entry.kind);
}
