import type { ExplainResult } from '@/server/runtime/explain/explain-types';
import { CandidateTable } from './candidate-table';
import { ChosenPlan } from './chosen-plan';
import { shownCandidates } from './candidate-rows';
import { ContradictionsTable } from './contradictions-table';
import { ExplainSection } from './explain-section';
import { ExplainSummary } from './explain-summary';
import { GraphNodesTable } from './graph-nodes-table';
import { RejectedCandidatesTable } from './rejected-candidates-table';
import { RejectedSourcesTable } from './rejected-sources-table';
import { TokenBudgetView } from './token-budget-view';

/** EXPLAIN lists the best candidates; the plan explorer shows them all. */
const CANDIDATES_SHOWN = 15;

/** EXPLAIN as tables, in the order an operator asks: what was decided, how, what else was weighed. */
export function ExplainView({ explain }: { readonly explain: ExplainResult }) {
  return (
    <section className="panel explain" aria-label="Explain">
      <h2>EXPLAIN{explain.analyze ? ' ANALYZE' : ''}</h2>
      <ExplainSummary explain={explain} />
      <ChosenPlan chosen={explain.chosen} />
      <GraphNodesTable graph={explain.graph} analyze={explain.analyze} />
      <ExplainSection title="Candidate plans" note={`(top ${shownCandidates(explain.candidates, CANDIDATES_SHOWN).length} of ${explain.candidates.length} scored, ${explain.enumerated} enumerated)`}>
        <CandidateTable candidates={explain.candidates} weights={explain.costModel.weights} limit={CANDIDATES_SHOWN} />
      </ExplainSection>
      <RejectedCandidatesTable rejected={explain.rejectedCandidates} summary={explain.rejectedSummary} />
      <RejectedSourcesTable rejected={explain.rejectedSources} />
      <ContradictionsTable contradictions={explain.contradictions ?? []} />
      <ExplainSection title="Token budget">
        <div data-testid="token-budget">
          <TokenBudgetView budget={explain.tokenBudget} />
        </div>
      </ExplainSection>
    </section>
  );
}
