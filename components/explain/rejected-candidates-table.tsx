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

export function RejectedCandidatesTable({ rejected }: { readonly rejected: readonly RejectedCandidate[] }) {
  return (
    <ExplainSection title="Rejected candidates" note={`(${rejected.length})`}>
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
