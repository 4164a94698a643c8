import type { Misestimate } from '@/server/runtime/explain/explain-types';
import type { CellAttributes } from '@/components/ui/data-table';
import { formatMisestimate, misestimateSeverity } from './format';

interface MisestimateCellProps {
  readonly actual?: number;
  readonly misestimate?: Misestimate;
  readonly format: (value: number) => string;
}

/** The cell's tone (coloured at 10×/100×/1000×) and the factor as hover text; muted when nothing ran. */
export function misestimateAttributes({ actual, misestimate }: Omit<MisestimateCellProps, 'format'>): CellAttributes {
  if (actual === undefined) return { className: 'muted' };
  const severity = misestimate ? misestimateSeverity(misestimate.factor) : 'fine';
  return { className: `misestimate-${severity}`, title: misestimate ? `actual/estimate = ${misestimate.factor.toPrecision(3)}` : undefined };
}

/** An actual figure with its misestimate factor (actual/estimate) under it. */
export function MisestimateFigure({ actual, misestimate, format }: MisestimateCellProps) {
  if (actual === undefined) return <>—</>;
  return (
    <>
      {format(actual)}
      {misestimate ? <span className="factor">{formatMisestimate(misestimate)}</span> : null}
    </>
  );
}

/** The same figure as a whole cell, for a totals row outside the table's columns. */
export function MisestimateCell(props: MisestimateCellProps) {
  const { className, title } = misestimateAttributes(props);
  return (
    <td className={`num ${className}`} title={title}>
      <MisestimateFigure {...props} />
    </td>
  );
}
