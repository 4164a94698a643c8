import type { ExplainResult } from '@/server/runtime/explain/explain-types';
import { CandidateTable } from './candidate-table';
import { ChosenPlan } from './chosen-plan';
import { ContradictionsTable } from './contradictions-table';
import { ExplainSummary } from './explain-summary';
import { GraphNodesTable } from './graph-nodes-table';
import { RejectedCandidatesTable } from './rejected-candidates-table';
import { RejectedSourcesTable } from './rejected-sources-table';
import { TokenBudgetView } from './token-budget-view';

/** EXPLAIN as tables, in the order an operator asks: what was decided, how, what else was weighed. */
export function ExplainView({ explain }: { readonly explain: ExplainResult }) {
  return (
    <section className="panel explain" aria-label="Explain">
      <h2>EXPLAIN{explain.analyze ? ' ANALYZE' : ''}</h2>
      <ExplainSummary explain={explain} />
      <ChosenPlan chosen={explain.chosen} />
      <GraphNodesTable graph={explain.graph} analyze={explain.analyze} />
      <CandidateTable candidates={explain.candidates} enumerated={explain.enumerated} weights={explain.costModel.weights} />
      <RejectedCandidatesTable rejected={explain.rejectedCandidates} />
      <RejectedSourcesTable rejected={explain.rejectedSources} />
      <ContradictionsTable contradictions={explain.contradictions ?? []} />
      <TokenBudgetView budget={explain.tokenBudget} />
    </section>
  );
}
