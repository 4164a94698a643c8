import type { Contradiction } from '@/server/runtime/contracts/knowledge';
import { valuesWithSources } from '@/server/runtime/explain/contradiction-text';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import { ExplainSection } from './explain-section';

const COLUMNS: ColumnList<Contradiction> = [
  { key: 'subject', header: 'Subject', cell: (contradiction) => contradiction.subject },
  { key: 'attribute', header: 'Attribute', cell: (contradiction) => contradiction.attribute },
  { key: 'values', header: 'Values (sources)', cell: (contradiction) => valuesWithSources(contradiction) },
];

/**
 * Facts the planned sources disagree on (same subject and attribute, different values), found
 * before anything is retrieved; the answer repeats the ones its context draws on as caveats.
 */
export function ContradictionsTable({ contradictions }: { readonly contradictions: readonly Contradiction[] }) {
  return (
    <ExplainSection title="Contradictions" note={`(${contradictions.length})`}>
      <DataTable
        rows={contradictions}
        columns={COLUMNS}
        rowKey={(contradiction) => `${contradiction.subject}\u0000${contradiction.attribute}`}
        label="Contradictions"
        testId="explain-contradictions"
        empty="None among the planned sources."
      />
    </ExplainSection>
  );
}
