/**
 * The rows of a two-plan comparison: the same figure for plan A and plan B, and how B differs
 * (a ratio for quantities, "same"/"differs" for choices). Pure, so the compare page stays thin.
 */
import type { RunResult } from '@/server/runtime/explain/explain-types';
import { formatRatio, formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';

export interface DiffRow {
  readonly label: string;
  readonly a: string;
  readonly b: string;
  /** "×2.0", "−50%", "same", "differs", or "—" when a side has no figure. */
  readonly change: string;
  readonly changed: boolean;
}

function ratioChange(a: number | undefined, b: number | undefined): { change: string; changed: boolean } {
  if (a === undefined || b === undefined) return { change: '—', changed: false };
  if (a === b) return { change: 'same', changed: false };
  if (a === 0) return { change: b > 0 ? 'from 0' : 'same', changed: b !== 0 };
  const ratio = b / a;
  return { change: ratio >= 1 ? `×${ratio.toFixed(ratio < 10 ? 2 : 0)}` : `−${((1 - ratio) * 100).toFixed(0)}%`, changed: Math.abs(ratio - 1) > 0.005 };
}

function quantity(label: string, a: number | undefined, b: number | undefined, format: (value: number) => string): DiffRow {
  return { label, a: a === undefined ? '—' : format(a), b: b === undefined ? '—' : format(b), ...ratioChange(a, b) };
}

function choice(label: string, a: string, b: string): DiffRow {
  return { label, a, b, change: a === b ? 'same' : 'differs', changed: a !== b };
}

const constraintText = (run: RunResult) => {
  const entries = Object.entries(run.explain.constraints).filter(([, value]) => value !== undefined);
  return entries.length > 0 ? entries.map(([key, value]) => `${key}=${String(value)}`).join(', ') : 'none';
};

export function diffPlans(a: RunResult, b: RunResult): readonly DiffRow[] {
  const [ea, eb] = [a.explain, b.explain];
  return [
    choice('Goal', ea.goal, eb.goal),
    choice('Constraints', constraintText(a), constraintText(b)),
    choice('Status', a.status, b.status),
    choice('Chosen plan', ea.chosen.description, eb.chosen.description),
    choice('Plan hash', ea.planHash.slice(0, 16), eb.planHash.slice(0, 16)),
    quantity('Graph nodes', ea.graph.nodes.length, eb.graph.nodes.length, String),
    quantity('Candidates enumerated', ea.enumerated, eb.enumerated, String),
    quantity('Estimated cost', ea.estimates.costUsd.value, eb.estimates.costUsd.value, formatUsd),
    quantity('Actual cost', ea.analyze?.totals.actual.costUsd, eb.analyze?.totals.actual.costUsd, formatUsd),
    quantity('Estimated latency', ea.estimates.latencySeconds.value, eb.estimates.latencySeconds.value, formatSeconds),
    quantity('Actual latency', ea.analyze?.totals.actual.latencySeconds, eb.analyze?.totals.actual.latencySeconds, formatSeconds),
    quantity('Estimated model tokens', ea.estimates.tokens.value, eb.estimates.tokens.value, formatTokens),
    quantity('Actual model tokens', ea.analyze?.totals.actual.tokens, eb.analyze?.totals.actual.tokens, formatTokens),
    quantity('Estimated accuracy', ea.estimates.accuracy.value, eb.estimates.accuracy.value, formatRatio),
    quantity('Context budget', ea.tokenBudget.budget, eb.tokenBudget.budget, formatTokens),
    quantity('Rejected sources', ea.rejectedSources.length, eb.rejectedSources.length, String),
    quantity('Citations', a.citations.length, b.citations.length, String),
  ];
}
