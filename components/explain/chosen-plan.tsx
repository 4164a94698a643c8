import type { ExplainedCandidate } from '@/server/runtime/explain/explain-types';
import { ExplainSection } from './explain-section';
import { formatScore } from './format';

export function ChosenPlan({ chosen }: { readonly chosen: ExplainedCandidate }) {
  const { choice } = chosen;
  const facts: readonly [string, string][] = [
    ['Retrieval', choice.retrieval.join(' + ')],
    ['Source kinds', choice.sourceKinds === 'all' ? 'all' : choice.sourceKinds.join(', ')],
    ['Top k', String(choice.topK)],
    ['Model tier', choice.modelTier],
    ['Reasoning', choice.reasoning],
    ...(choice.solverTiers ? [['Solver tiers', choice.solverTiers.join(', ')] as [string, string]] : []),
    ['Compression', choice.compression],
    ['Verification', choice.verification],
    ['Shape', choice.shape],
    ['Approval gate', choice.approval ? 'yes' : 'no'],
    ['PlanScore', formatScore(chosen.score.total)],
  ];
  return (
    <ExplainSection title="Chosen plan" note={<code>{chosen.id}</code>}>
      <p className="plan-description" data-testid="chosen-plan">
        {chosen.description}
      </p>
      <dl className="facts inline">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </ExplainSection>
  );
}
