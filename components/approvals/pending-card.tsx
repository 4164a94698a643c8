'use client';

/**
 * One run waiting at a gate: why it was gated, what approving releases (or runs), the plan around
 * the gate, what it has cost so far, and the decision with a comment for the audit log.
 */
import { useState } from 'react';
import type { PendingApproval } from '@/server/runtime';
import { nodeDetail } from '@/components/explain/node-detail';
import { formatInterval, formatRatio, formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';
import { DecisionForm, type Verdict } from './decision-form';
import { GateCard } from './gate-card';
import { GateWhy } from './gate-why';
import styles from './approvals.module.css';

export type { Verdict } from './decision-form';

export function PendingCard({ item, deciding, onDecide, linked = false }: { readonly item: PendingApproval; readonly deciding: boolean; readonly onDecide: (verdict: Verdict, comment: string) => void; readonly linked?: boolean }) {
  const [verdict, setVerdict] = useState<Verdict>('approved');
  const { run, gate, why, draft, after, spent } = item;
  const explain = run.explain;
  const nodesById = new Map(explain.graph.nodes.map((node) => [node.id, node]));
  const reasonNode = explain.graph.nodes.find((node) => node.kind === 'reason');

  return (
    <GateCard
      item={item}
      linked={linked}
      forApprover
      testId="pending-approval"
      footer={
        <DecisionForm
          goal={explain.goal}
          gate={gate}
          rights={item.rights}
          deciding={deciding ? verdict : undefined}
          onDecide={(chosen, comment) => {
            setVerdict(chosen);
            onDecide(chosen, comment);
          }}
        />
      }
    >
      <div className={styles.columns}>
        <GateWhy gate={gate} why={why} />

        <section aria-label="What approving does">
          <h3>What approving does</h3>
          {after.length > 0 ? (
            <>
              <p>Approving runs these steps:</p>
              <ul className={styles.reasons} data-testid="after-gate">
                {after.map((nodeId) => {
                  const node = nodesById.get(nodeId);
                  return (
                    <li key={nodeId}>
                      <code>{nodeId}</code> {node ? `— ${node.kind} ${nodeDetail(node)}` : null}
                    </li>
                  );
                })}
              </ul>
            </>
          ) : (
            <p data-testid="after-gate">
              Nothing more runs: approving <strong>releases the answer</strong> already drafted
              {reasonNode?.kind === 'reason' ? (
                <>
                  {' '}
                  by the <code>{reasonNode.tier}</code> tier ({reasonNode.strategy.replace('_', ' ')}
                  {draft && draft.models.length > 0 ? `, ${[...new Set(draft.models)].join(', ')}` : ''})
                </>
              ) : null}
              {draft?.verification ? (
                <>
                  {' '}
                  and checked by <code>{draft.verification.method}</code> verification:{' '}
                  <span className={draft.verification.passed ? styles.passed : styles.failed}>{draft.verification.passed ? 'passed' : 'failed'}</span> at {formatRatio(draft.verification.confidence)} confidence
                </>
              ) : null}
              . Rejecting ends the run with no answer.
            </p>
          )}
          {draft ? (
            <details className={styles.draft}>
              <summary>
                Read the draft answer ({draft.citations} citation{draft.citations === 1 ? '' : 's'})
              </summary>
              <p>{draft.answer}</p>
            </details>
          ) : null}
          <dl className="facts inline">
            <div>
              <dt>Spent so far</dt>
              <dd>{formatUsd(spent.costUsd)}</dd>
            </div>
            <div>
              <dt>Estimated cost</dt>
              <dd>{formatInterval(explain.estimates.costUsd, formatUsd)}</dd>
            </div>
            <div>
              <dt>Tokens</dt>
              <dd>{formatTokens(spent.tokens)}</dd>
            </div>
            <div>
              <dt>Time so far</dt>
              <dd>{formatSeconds(spent.latencySeconds)}</dd>
            </div>
          </dl>
        </section>
      </div>
    </GateCard>
  );
}
