/**
 * Reads a quote against the caps the plan was chosen under: does the p05–p95 interval fit, may it
 * exceed, or does it exceed? And money a reader can read: "$0.00000024" or "< $0.000001", never
 * "2.4e-7".
 */
import type { Constraints, Estimate } from '@/server/runtime/types';

export type QuoteFit = 'fits' | 'may_exceed' | 'exceeds';

/** Below a millionth of a dollar the digits stop meaning anything to a reader. */
const SMALLEST_USD = 0.000001;

export function formatQuoteUsd(value: number): string {
  if (value === 0) return '$0';
  if (value < SMALLEST_USD) return '< $0.000001';
  if (value >= 1) return `$${value.toFixed(2)}`;
  // Two significant digits without exponent notation: 0.00000024 → "$0.00000024".
  const decimals = Math.min(8, Math.max(2, 1 - Math.floor(Math.log10(value))));
  return `$${value.toFixed(decimals).replace(/(\.\d*?[1-9])0+$/, '$1')}`;
}

/** The interval against a cap: all of it at or under the cap, some of it over, or all of it over. */
export function fitOf(estimate: Pick<Estimate, 'low' | 'high'>, cap: number): QuoteFit {
  if (estimate.high <= cap) return 'fits';
  if (estimate.low > cap) return 'exceeds';
  return 'may_exceed';
}

export interface QuoteCapCheck {
  readonly label: string;
  readonly fit: QuoteFit;
  /** The cap as the reader set it: "$0.05", "30 s", "4,000 tokens". */
  readonly cap: string;
}

interface QuotedFields {
  readonly costUsd: Estimate;
  readonly latencySeconds: Estimate;
  readonly tokens: Estimate;
}

/** One check per cap that is set; none when the request set no caps. */
export function checkCaps(expected: QuotedFields, constraints: Constraints | undefined): readonly QuoteCapCheck[] {
  const checks: QuoteCapCheck[] = [];
  if (constraints?.max_cost_usd !== undefined) checks.push({ label: 'Cost', fit: fitOf(expected.costUsd, constraints.max_cost_usd), cap: formatQuoteUsd(constraints.max_cost_usd) });
  if (constraints?.max_latency_seconds !== undefined) checks.push({ label: 'Latency', fit: fitOf(expected.latencySeconds, constraints.max_latency_seconds), cap: `${constraints.max_latency_seconds} s` });
  if (constraints?.max_tokens !== undefined) checks.push({ label: 'Tokens', fit: fitOf(expected.tokens, constraints.max_tokens), cap: `${constraints.max_tokens.toLocaleString('en-US')} tokens` });
  return checks;
}

export function describeFit(check: QuoteCapCheck): string {
  switch (check.fit) {
    case 'fits':
      return `${check.label} fits the ${check.cap} cap`;
    case 'may_exceed':
      return `${check.label} may exceed the ${check.cap} cap`;
    case 'exceeds':
      return `${check.label} exceeds the ${check.cap} cap`;
  }
}
