import type { KnowledgeNodeView, Lineage } from '@/server/runtime/contracts/knowledge-explorer';
import styles from './knowledge.module.css';
import { formatPeriod, shortId } from './knowledge-format';
import { StatusBadge } from './status-badge';

const clip = (text: string, length: number): string => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

function describe(node: KnowledgeNodeView): string {
  if (node.kind === 'source') return `${node.sourceName ?? 'source'} v${node.versionNo ?? '?'}`;
  if (node.kind === 'chunk') return `${node.sourceName ?? ''} v${node.versionNo ?? '?'} · ${node.text ?? ''}`;
  if (node.subject && node.attribute) return `${node.subject} · ${node.attribute} = ${node.value ?? ''}`;
  // A kept answer: what it answered, then the start of the answer itself.
  if (node.kind === 'summary' && node.subject) return `${node.subject} — ${clip(node.text ?? '', 240)}`;
  return node.text ?? node.id;
}

function NodeLine({ node }: { readonly node: KnowledgeNodeView }) {
  return (
    <>
      <strong>{node.kind}</strong> {describe(node)} <code className="muted">{shortId(node.id)}</code>{' '}
      <StatusBadge status={node.status} reason={node.statusReason} />
      {node.kind === 'fact' || node.kind === 'memory' ? <span className={styles.reason}>valid {formatPeriod(node.validFrom, node.validTo)}</span> : null}
    </>
  );
}

/** Where a node came from: its derived_from chain up to the source version that contains it. */
export function LineageView({ lineage }: { readonly lineage: Lineage }) {
  return (
    <div data-testid="knowledge-lineage">
      <p>
        <NodeLine node={lineage.node} />
      </p>
      {lineage.chain.length === 0 ? (
        <p className="muted">Nothing upstream: this node is an origin.</p>
      ) : (
        <ol className={styles.chain} aria-label="Upstream chain">
          {lineage.chain.map((step) => (
            <li key={`${step.id}-${step.depth}`} data-testid="lineage-step" data-kind={step.kind} style={{ marginLeft: `${(step.depth - 1) * 1.25}rem` }}>
              <span className={styles.via}>
                {step.via === 'contains' ? 'contained in' : 'derived from'} ↑
              </span>{' '}
              <NodeLine node={step} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
