/**
 * The plan around a gate, in one line: the graph's nodes in order (runs of the same kind folded,
 * so a 200-node fan-out stays readable), each marked done, waiting at the gate, or still to run.
 */
import type { AnalyzedNode } from '@/server/runtime/explain/explain-types';
import type { GraphNode } from '@/server/runtime/ir/graph';
import { foldSteps, type GateStep } from './gate-steps';
import styles from './approvals.module.css';

const STATE_LABEL: Record<GateStep['state'], string> = { done: 'done', gate: 'waiting here', after: 'runs after approval', other: 'not run' };

export function GatePlan({ nodes, analyzed, gateId, after }: { readonly nodes: readonly GraphNode[]; readonly analyzed: readonly AnalyzedNode[]; readonly gateId: string; readonly after: readonly string[] }) {
  const steps = foldSteps(nodes, analyzed, gateId, after);
  return (
    <ol className={styles.chain} aria-label="Plan steps around the gate">
      {steps.map((step) => (
        <li key={step.ids[0]} className={`${styles.step} ${styles[`step-${step.state}`]}`} title={step.ids.join(', ')}>
          <span className={styles.stepKind}>
            {step.kind}
            {step.ids.length > 1 ? ` ×${step.ids.length}` : ''}
          </span>
          <span className={styles.stepState}>{STATE_LABEL[step.state]}</span>
        </li>
      ))}
    </ol>
  );
}
