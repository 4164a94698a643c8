import type { KnowledgeNodeView } from '@/server/runtime/contracts/knowledge-explorer';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import styles from './knowledge.module.css';
import { formatInstant, formatPeriod } from './knowledge-format';
import { StatusBadge } from './status-badge';

interface MemoriesTableProps {
  readonly memories: readonly KnowledgeNodeView[];
  /** Present only for roles that may expire (operator and up). */
  readonly onExpire?: (memoryId: string) => void;
  readonly expiring: string | null;
  readonly onLineage: (nodeId: string) => void;
}

function memoryColumns({ onExpire, expiring, onLineage }: Omit<MemoriesTableProps, 'memories'>): ColumnList<KnowledgeNodeView> {
  return [
    {
      key: 'subject',
      header: 'Subject',
      cell: (memory) => (
        <>
          {memory.subject}
          {memory.kind === 'memory' ? null : <span className={styles.reason}>{memory.kind}</span>}
        </>
      ),
    },
    { key: 'attribute', header: 'Attribute', cell: (memory) => memory.attribute },
    {
      key: 'value',
      header: 'Value',
      className: 'strong',
      cell: (memory) => (
        <>
          {memory.value}
          {memory.text ? <span className={styles.evidence}>{memory.text}</span> : null}
        </>
      ),
    },
    { key: 'confidence', header: 'Confidence', numeric: true, cell: (memory) => (memory.confidence === null ? '—' : memory.confidence.toFixed(2)) },
    { key: 'valid', header: 'Valid (UTC)', nowrap: true, cell: (memory) => formatPeriod(memory.validFrom, memory.validTo) },
    {
      key: 'recorded',
      header: 'Recorded → expired (UTC)',
      nowrap: true,
      cellAttributes: (memory) => ({ 'data-recorded-at': memory.recordedAt, 'data-expired-at': memory.expiredAt ?? '' }),
      cell: (memory) => (
        <>
          {formatInstant(memory.recordedAt)}
          <span className={styles.reason}>{memory.expiredAt ? `${new Date(memory.expiredAt) > new Date() ? 'expires' : 'expired'} ${formatInstant(memory.expiredAt)}` : 'not expired'}</span>
        </>
      ),
    },
    { key: 'status', header: 'Status', cell: (memory) => <StatusBadge status={memory.status} reason={memory.statusReason} /> },
    { key: 'source', header: 'Source', cell: (memory) => (memory.sourceName ? `${memory.sourceName} v${memory.versionNo ?? '?'}` : '—') },
    {
      key: 'lineage',
      header: 'Lineage',
      cell: (memory) => (
        <button type="button" className={styles.linkButton} onClick={() => onLineage(memory.id)}>
          lineage
        </button>
      ),
    },
    onExpire && {
      key: 'action',
      header: 'Action',
      cell: (memory: KnowledgeNodeView) =>
        memory.kind === 'memory' && memory.expiredAt === null ? (
          <button type="button" className={styles.linkButton} disabled={expiring === memory.id} onClick={() => onExpire(memory.id)} data-testid="expire-memory">
            {expiring === memory.id ? 'expiring…' : 'expire'}
          </button>
        ) : null,
    },
  ];
}

/**
 * Memories as believed at the chosen instant: valid time (when it held in the world) beside
 * transaction time (when we recorded it and when we stopped believing it), after Graphiti's
 * bi-temporal edges.
 */
export function MemoriesTable({ memories, ...actions }: MemoriesTableProps) {
  return (
    <DataTable
      rows={memories}
      columns={memoryColumns(actions)}
      rowKey={(memory) => memory.id}
      rowAttributes={(memory) => ({ 'data-testid': 'knowledge-memory-row', 'data-memory-id': memory.id, 'data-kind': memory.kind })}
      testId="knowledge-memories"
      scrollLabel="Memories"
      empty="No memories believed at this instant. Keep a current fact as a memory from a source’s facts."
      emptyAttributes={{ 'data-testid': 'knowledge-memories-empty' }}
    />
  );
}
