import type { Misestimate } from '@/server/runtime/explain/explain-types';
import { formatMisestimate, misestimateSeverity } from './format';

interface MisestimateCellProps {
  readonly actual?: number;
  readonly misestimate?: Misestimate;
  readonly format: (value: number) => string;
}

/** An actual figure with its misestimate factor (actual/estimate), coloured at 10×/100×/1000×. */
export function MisestimateCell({ actual, misestimate, format }: MisestimateCellProps) {
  if (actual === undefined) return <td className="num muted">—</td>;
  const severity = misestimate ? misestimateSeverity(misestimate.factor) : 'fine';
  return (
    <td className={`num misestimate-${severity}`} title={misestimate ? `actual/estimate = ${misestimate.factor.toPrecision(3)}` : undefined}>
      {format(actual)}
      {misestimate ? <span className="factor">{formatMisestimate(misestimate)}</span> : null}
    </td>
  );
}
