/**
 * The one table of the app: semantic <table> with <th scope> headers, so role-based tests and the
 * axe checks read every table the same way, and one stylesheet (data-table.css) instead of each
 * page styling its own. Pages describe columns; rows, empty state and classes are built here.
 */
import type { ReactNode } from 'react';
import { TableScroll } from '@/components/layout/table-scroll';
import { columnClassName, shownColumns, tableClassName, type CellAttributes, type ColumnList, type DataColumn, type RowAttributes } from './data-table-columns';
import './data-table.css';

export type { CellAttributes, ColumnList, DataColumn, RowAttributes } from './data-table-columns';

interface DataTableProps<Row> {
  readonly rows: readonly Row[];
  readonly columns: ColumnList<Row>;
  readonly rowKey: (row: Row, index: number) => string;
  /** The table's accessible name (aria-label); or name it by a heading with `labelledBy`. */
  readonly label?: string;
  readonly labelledBy?: string;
  readonly caption?: ReactNode;
  /** Shown in one full-width row when there are no rows; without it an empty table has no body rows. */
  readonly empty?: ReactNode;
  readonly emptyAttributes?: CellAttributes;
  readonly rowAttributes?: (row: Row, index: number) => RowAttributes | undefined;
  /**
   * Consecutive rows with the same group name form one <tbody> named by it: a row header with
   * scope="rowgroup" then spans exactly its group, and a screen reader finds a group by its name.
   */
  readonly groupOf?: (row: Row) => string;
  /** Rows after the data rows that do not fit the columns' shape (a totals or calibration line). */
  readonly footer?: ReactNode;
  /** Tighter cells for a narrow column (the plan explorer's node panel). */
  readonly dense?: boolean;
  /** A key/value table whose row headers say everything: no column header row. */
  readonly headless?: boolean;
  readonly className?: string;
  readonly testId?: string;
  readonly busy?: boolean;
  /** Wraps the table in a focusable, named sideways scroller (wide tables). */
  readonly scrollLabel?: string;
}

function Cell<Row>({ column, row, index }: { readonly column: DataColumn<Row>; readonly row: Row; readonly index: number }) {
  const attributes = column.cellAttributes?.(row, index);
  if (attributes?.rowSpan === 0) return null;
  const className = columnClassName(column, attributes?.className);
  const content = column.cell(row, index);
  if (column.rowHeader) {
    return (
      <th {...attributes} scope={column.rowHeader === 'rowgroup' ? 'rowgroup' : 'row'} className={className}>
        {content}
      </th>
    );
  }
  return (
    <td {...attributes} className={className}>
      {content}
    </td>
  );
}

/** Consecutive rows sharing a group name; one unnamed group when the table is not grouped. */
function rowGroups<Row>(rows: readonly Row[], groupOf?: (row: Row) => string): { name?: string; rows: { row: Row; index: number }[] }[] {
  const groups: { name?: string; rows: { row: Row; index: number }[] }[] = [];
  rows.forEach((row, index) => {
    const name = groupOf?.(row);
    const last = groups[groups.length - 1];
    if (last && last.name === name) last.rows.push({ row, index });
    else groups.push({ name, rows: [{ row, index }] });
  });
  return groups;
}

export function DataTable<Row>(props: DataTableProps<Row>) {
  const { rows, rowKey, empty, emptyAttributes, rowAttributes, footer, scrollLabel } = props;
  const columns = shownColumns(props.columns);
  const table = (
    <table className={tableClassName(props.dense, props.className)} aria-label={props.label} aria-labelledby={props.labelledBy} aria-busy={props.busy} data-testid={props.testId}>
      {props.caption ? <caption>{props.caption}</caption> : null}
      {props.headless ? null : (
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" className={columnClassName(column)} title={column.headerTitle}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
      )}
      {rows.length === 0 && empty !== undefined ? (
        <tbody>
          <tr>
            <td {...emptyAttributes} colSpan={columns.length} className="muted">
              {empty}
            </td>
          </tr>
        </tbody>
      ) : (
        rowGroups(rows, props.groupOf).map((group) => (
          <tbody key={group.name ?? 'rows'} aria-label={group.name}>
            {group.rows.map(({ row, index }) => (
              <tr key={rowKey(row, index)} {...rowAttributes?.(row, index)}>
                {columns.map((column) => (
                  <Cell key={column.key} column={column} row={row} index={index} />
                ))}
              </tr>
            ))}
          </tbody>
        ))
      )}
      {footer ? <tfoot>{footer}</tfoot> : null}
    </table>
  );
  return scrollLabel ? <TableScroll label={scrollLabel}>{table}</TableScroll> : table;
}
