import type { RejectedSummary } from '@/server/runtime/explain/explain-types';
import type { RejectedCandidate } from '@/server/runtime/types';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import { ExplainSection } from './explain-section';
import { describeCandidate } from './format';

const COLUMNS: ColumnList<RejectedCandidate> = [
  { key: 'stage', header: 'Stage', cell: (entry) => <span className={`badge stage-${entry.stage}`}>{entry.stage}</span> },
  { key: 'rule', header: 'Rule', cell: (entry) => <code>{entry.rule}</code> },
  { key: 'candidate', header: 'Candidate', cell: (entry) => describeCandidate(entry.candidate) },
  { key: 'reason', header: 'Reason', cell: (entry) => entry.reason },
];

/** The section's count; a run's stored EXPLAIN lists only the best of each rule, and says so (server/runtime/explain/stored-explain.ts). */
function countNote(rejected: readonly RejectedCandidate[], summary: RejectedSummary | undefined): string {
  if (!summary || summary.shown >= summary.total) return `(${rejected.length})`;
  return `(${summary.total} rejected; showing the best ${summary.keptPerRule} of each rule, ${summary.shown} in all)`;
}

export function RejectedCandidatesTable({ rejected, summary }: { readonly rejected: readonly RejectedCandidate[]; readonly summary?: RejectedSummary }) {
  return (
    <ExplainSection title="Rejected candidates" note={countNote(rejected, summary)}>
      <DataTable
        rows={rejected}
        columns={COLUMNS}
        rowKey={(entry, index) => `${entry.rule}-${index}`}
        label="Rejected candidates"
        testId="rejected-candidates"
        empty="None: every enumerated candidate was scored."
      />
    </ExplainSection>
  );
}
