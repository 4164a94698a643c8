import type { KnowledgeNodeView } from '@/server/runtime/contracts/knowledge-explorer';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import styles from './knowledge.module.css';
import { KeepFactControl } from './keep-fact-control';
import { formatInstant } from './knowledge-format';
import { StatusBadge } from './status-badge';

type FactView = KnowledgeNodeView & { readonly locator: string | null };

interface FactsTableProps {
  readonly facts: readonly FactView[];
  readonly selectedNode: string | null;
  readonly onLineage: (nodeId: string) => void;
  /** Present only for roles that may promote (operator and up). */
  readonly onKeep?: (factId: string, confidence: number) => void;
  readonly keeping?: string | null;
}

function factColumns({ onLineage, onKeep, keeping = null }: Omit<FactsTableProps, 'facts' | 'selectedNode'>): ColumnList<FactView> {
  return [
    { key: 'subject', header: 'Subject', cell: (fact) => fact.subject },
    { key: 'attribute', header: 'Attribute', cell: (fact) => fact.attribute },
    { key: 'value', header: 'Value', className: 'strong', cell: (fact) => fact.value },
    {
      key: 'valid',
      header: 'Valid (UTC)',
      nowrap: true,
      cell: (fact) =>
        fact.validFrom || fact.validTo ? (
          <>
            {fact.validFrom ? `from ${formatInstant(fact.validFrom).slice(0, 16)}` : null}
            {fact.validTo ? <span className={styles.reason}>until {formatInstant(fact.validTo).slice(0, 16)}</span> : null}
          </>
        ) : (
          <span className="muted">undated</span>
        ),
    },
    {
      key: 'evidence',
      header: 'Evidence',
      cell: (fact) => (
        <>
          {fact.locator ?? ''}
          {fact.text ? <span className={styles.evidence}>{fact.text}</span> : null}
        </>
      ),
    },
    { key: 'confidence', header: 'Confidence', numeric: true, cell: (fact) => (fact.confidence === null ? '—' : fact.confidence.toFixed(2)) },
    { key: 'status', header: 'Status', cell: (fact) => <StatusBadge status={fact.status} reason={fact.statusReason} /> },
    {
      key: 'lineage',
      header: 'Lineage',
      cell: (fact) => (
        <button type="button" className={styles.linkButton} onClick={() => onLineage(fact.id)} data-testid="lineage-button">
          lineage
        </button>
      ),
    },
    onKeep && {
      key: 'memory',
      header: 'Memory',
      // Only a current fact can become a memory (MemoryStore.promote answers CONFLICT otherwise).
      cell: (fact: FactView) =>
        fact.status === 'current' ? <KeepFactControl label={`${fact.subject ?? ''} ${fact.attribute ?? ''} = ${fact.value ?? ''}`} busy={keeping === fact.id} onKeep={(confidence) => onKeep(fact.id, confidence)} /> : null,
    },
  ];
}

/** A source's facts: what it says, when it held (valid time), and whether it can still be relied on. */
export function FactsTable({ facts, selectedNode, ...actions }: FactsTableProps) {
  return (
    <DataTable
      rows={facts}
      columns={factColumns(actions)}
      rowKey={(fact) => fact.id}
      rowAttributes={(fact) => ({ 'data-testid': 'knowledge-fact-row', 'data-fact-id': fact.id, 'data-fact-status': fact.status, className: fact.id === selectedNode ? 'selected' : undefined })}
      testId="knowledge-facts"
      scrollLabel="Facts"
      empty="No facts extracted from this source (settings in manifests and config, limits and replicas stated in prose or logs)."
    />
  );
}
