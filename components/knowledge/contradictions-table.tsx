import type { ContradictionGroup } from '@/server/runtime/contracts/knowledge-explorer';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import styles from './knowledge.module.css';
import { contradictionRows } from './knowledge-format';

type SideRow = ReturnType<typeof contradictionRows<ContradictionGroup>>[number];

/** The subject and attribute cells span their group's sides; on the later sides they are left out. */
const spanned = (row: SideRow) => ({ rowSpan: row.span });

function sideColumns(onLineage: (nodeId: string) => void): ColumnList<SideRow> {
  return [
    { key: 'subject', header: 'Subject', rowHeader: 'rowgroup', cellAttributes: spanned, cell: (row) => row.group.subject },
    { key: 'attribute', header: 'Attribute', cellAttributes: spanned, cell: (row) => row.group.attribute },
    { key: 'value', header: 'Value', className: 'strong', cell: (row) => row.side.value },
    { key: 'source', header: 'Source', cell: (row) => row.side.sourceName },
    { key: 'facts', header: 'Facts', numeric: true, cell: (row) => row.side.facts.length },
    {
      key: 'evidence',
      header: 'Evidence (first)',
      cell: (row) => (
        <>
          {row.side.facts[0].locator ?? ''}
          <span className={styles.evidence}>{row.side.facts[0].evidence}</span>
        </>
      ),
    },
    {
      key: 'lineage',
      header: 'Lineage',
      cell: (row) => (
        <button type="button" className={styles.linkButton} onClick={() => onLineage(row.side.facts[0].factId)}>
          lineage
        </button>
      ),
    },
  ];
}

/** Facts valid now that disagree on one subject and attribute: one row per side (value × source). */
export function ContradictionsTable({ groups, onLineage }: { readonly groups: readonly ContradictionGroup[]; readonly onLineage: (nodeId: string) => void }) {
  return (
    <DataTable
      rows={contradictionRows(groups)}
      columns={sideColumns(onLineage)}
      rowKey={(row) => `${row.group.subject}-${row.group.attribute}-${row.side.value}-${row.side.sourceName}`}
      rowAttributes={(row) => ({ 'data-testid': 'knowledge-contradiction-row', 'data-subject': row.group.subject, 'data-attribute': row.group.attribute })}
      groupOf={(row) => `${row.group.subject} ${row.group.attribute}`}
      testId="knowledge-contradictions"
      scrollLabel="Contradictions"
      empty="No contradictions among current facts."
    />
  );
}
