import type { KnowledgeNodeView } from '@/server/runtime/contracts/knowledge-explorer';
import { TableScroll } from '@/components/layout/table-scroll';
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

/** A source's facts: what it says, when it held (valid time), and whether it can still be relied on. */
export function FactsTable({ facts, selectedNode, onLineage, onKeep, keeping = null }: FactsTableProps) {
  return (
    <TableScroll label="Facts">
      <table className="data-table" data-testid="knowledge-facts">
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">Attribute</th>
            <th scope="col">Value</th>
            <th scope="col">Valid (UTC)</th>
            <th scope="col">Evidence</th>
            <th scope="col" className="num">Confidence</th>
            <th scope="col">Status</th>
            <th scope="col">Lineage</th>
            {onKeep ? <th scope="col">Memory</th> : null}
          </tr>
        </thead>
        <tbody>
          {facts.length === 0 ? (
            <tr>
              <td colSpan={onKeep ? 9 : 8} className="muted">
                No facts extracted from this source (settings in manifests and config, limits and replicas stated in prose or logs).
              </td>
            </tr>
          ) : (
            facts.map((fact) => (
              <tr key={fact.id} data-testid="knowledge-fact-row" data-fact-id={fact.id} data-fact-status={fact.status} className={fact.id === selectedNode ? styles.selected : undefined}>
                <td>{fact.subject}</td>
                <td>{fact.attribute}</td>
                <td className="strong">{fact.value}</td>
                <td className={styles.nowrap}>
                  {fact.validFrom || fact.validTo ? (
                    <>
                      {fact.validFrom ? `from ${formatInstant(fact.validFrom).slice(0, 16)}` : null}
                      {fact.validTo ? <span className={styles.reason}>until {formatInstant(fact.validTo).slice(0, 16)}</span> : null}
                    </>
                  ) : (
                    <span className="muted">undated</span>
                  )}
                </td>
                <td>
                  {fact.locator ?? ''}
                  {fact.text ? <span className={styles.evidence}>{fact.text}</span> : null}
                </td>
                <td className="num">{fact.confidence === null ? '—' : fact.confidence.toFixed(2)}</td>
                <td>
                  <StatusBadge status={fact.status} reason={fact.statusReason} />
                </td>
                <td>
                  <button type="button" className={styles.linkButton} onClick={() => onLineage(fact.id)} data-testid="lineage-button">
                    lineage
                  </button>
                </td>
                {onKeep ? (
                  <td>
                    {/* Only a current fact can become a memory (MemoryStore.promote answers CONFLICT otherwise). */}
                    {fact.status === 'current' ? (
                      <KeepFactControl label={`${fact.subject ?? ''} ${fact.attribute ?? ''} = ${fact.value ?? ''}`} busy={keeping === fact.id} onKeep={(confidence) => onKeep(fact.id, confidence)} />
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
