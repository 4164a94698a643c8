import type { KnowledgeNodeView } from '@/server/runtime/contracts/knowledge-explorer';
import { TableScroll } from '@/components/layout/table-scroll';
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

/**
 * Memories as believed at the chosen instant: valid time (when it held in the world) beside
 * transaction time (when we recorded it and when we stopped believing it), after Graphiti's
 * bi-temporal edges.
 */
export function MemoriesTable({ memories, onExpire, expiring, onLineage }: MemoriesTableProps) {
  const columns = onExpire ? 10 : 9;
  return (
    <TableScroll label="Memories">
      <table className="data-table" data-testid="knowledge-memories">
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">Attribute</th>
            <th scope="col">Value</th>
            <th scope="col" className="num">Confidence</th>
            <th scope="col">Valid (UTC)</th>
            <th scope="col">Recorded → expired (UTC)</th>
            <th scope="col">Status</th>
            <th scope="col">Source</th>
            <th scope="col">Lineage</th>
            {onExpire ? <th scope="col">Action</th> : null}
          </tr>
        </thead>
        <tbody>
          {memories.length === 0 ? (
            <tr>
              <td colSpan={columns} className="muted" data-testid="knowledge-memories-empty">
                No memories believed at this instant. Keep a current fact as a memory from a source’s facts.
              </td>
            </tr>
          ) : (
            memories.map((memory) => (
              <tr key={memory.id} data-testid="knowledge-memory-row" data-memory-id={memory.id} data-kind={memory.kind}>
                <td>
                  {memory.subject}
                  {memory.kind === 'memory' ? null : <span className={styles.reason}>{memory.kind}</span>}
                </td>
                <td>{memory.attribute}</td>
                <td className="strong">
                  {memory.value}
                  {memory.text ? <span className={styles.evidence}>{memory.text}</span> : null}
                </td>
                <td className="num">{memory.confidence === null ? '—' : memory.confidence.toFixed(2)}</td>
                <td className={styles.nowrap}>{formatPeriod(memory.validFrom, memory.validTo)}</td>
                <td className={styles.nowrap} data-recorded-at={memory.recordedAt} data-expired-at={memory.expiredAt ?? ''}>
                  {formatInstant(memory.recordedAt)}
                  <span className={styles.reason}>{memory.expiredAt ? `${new Date(memory.expiredAt) > new Date() ? 'expires' : 'expired'} ${formatInstant(memory.expiredAt)}` : 'not expired'}</span>
                </td>
                <td>
                  <StatusBadge status={memory.status} reason={memory.statusReason} />
                </td>
                <td>{memory.sourceName ? `${memory.sourceName} v${memory.versionNo ?? '?'}` : '—'}</td>
                <td>
                  <button type="button" className={styles.linkButton} onClick={() => onLineage(memory.id)}>
                    lineage
                  </button>
                </td>
                {onExpire ? (
                  <td>
                    {memory.kind === 'memory' && memory.expiredAt === null ? (
                      <button type="button" className={styles.linkButton} disabled={expiring === memory.id} onClick={() => onExpire(memory.id)} data-testid="expire-memory">
                        {expiring === memory.id ? 'expiring…' : 'expire'}
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </TableScroll>
  );
}
