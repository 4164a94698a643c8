/**
 * The pure half of the shared table: which columns show and what classes a cell gets, kept apart
 * from the JSX so the rules are tested without rendering.
 */
import type { HTMLAttributes, ReactNode, TdHTMLAttributes } from 'react';

/** Extra attributes on one cell or row: a title, a tone class, the data-* hooks specs and styles use. */
export type CellAttributes = TdHTMLAttributes<HTMLTableCellElement> & { readonly [data: `data-${string}`]: string | number | boolean | undefined };
export type RowAttributes = HTMLAttributes<HTMLTableRowElement> & { readonly [data: `data-${string}`]: string | number | boolean | undefined };

export interface DataColumn<Row> {
  /** Stable React key for the column. */
  readonly key: string;
  readonly header: ReactNode;
  readonly cell: (row: Row, index: number) => ReactNode;
  /** Figures: right-aligned, tabular digits, kept on one line. */
  readonly numeric?: boolean;
  /** Short text kept on one line (times, statuses). */
  readonly nowrap?: boolean;
  /** A figure that may break (an interval at its dash) rather than push the table out of its card. */
  readonly wrap?: boolean;
  /** The cell names its row for a screen reader (`<th scope="row">`); 'rowgroup' for a cell spanning rows. */
  readonly rowHeader?: boolean | 'rowgroup';
  /** Extra class on the header and every cell of the column. */
  readonly className?: string;
  /** Hover text on the header, e.g. what a coverage figure means. */
  readonly headerTitle?: string;
  /** Per-cell attributes (title, tone class, data-*, rowSpan); a rowSpan of 0 means a cell above covers this one. */
  readonly cellAttributes?: (row: Row, index: number) => CellAttributes | undefined;
}

/** A column list may hold `false` for a column a role or a mode leaves out (`onKeep ? column : false`). */
export type ColumnList<Row> = readonly (DataColumn<Row> | false | null | undefined)[];

export function shownColumns<Row>(columns: ColumnList<Row>): readonly DataColumn<Row>[] {
  return columns.filter((column): column is DataColumn<Row> => Boolean(column));
}

/** The classes a column's header and cells share; a cell's own class (a tone) comes after. */
export function columnClassName(column: Pick<DataColumn<unknown>, 'numeric' | 'nowrap' | 'wrap' | 'className'>, extra?: string): string | undefined {
  const names = [column.numeric ? 'num' : '', column.nowrap ? 'nowrap' : '', column.wrap ? 'wrap' : '', column.className ?? '', extra ?? ''].filter(Boolean);
  return names.length > 0 ? names.join(' ') : undefined;
}

/** The table element's classes: the shared look, then the density and any page's own class. */
export function tableClassName(dense: boolean | undefined, extra: string | undefined): string {
  return ['data-table', dense ? 'dense' : '', extra ?? ''].filter(Boolean).join(' ');
}
