'use client';
/**
 * /plans/[id]: the plan of one run, explorable. The Execution Graph (shaded by cost, latency or
 * tokens; click or Enter on a node for estimate vs actual), the candidates the planner scored, what
 * it cut and why, and how the token budget was spent. Anchors: pev2, explain.depesz.com, Dagster.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { startTransition, useCallback, useEffect, useState } from 'react';
import { ErrorMessage } from '@/components/console/error-message';
import { RejectedCandidatesTable } from '@/components/explain/rejected-candidates-table';
import { RejectedSourcesTable } from '@/components/explain/rejected-sources-table';
import { CandidateTable } from '@/components/explain/candidate-table';
import { TokenBudgetView } from '@/components/explain/token-budget-view';
import { MetricToggle } from './metric-toggle';
import { NodeDetailPanel } from './node-detail-panel';
import { PlanGraph } from './plan-graph';
import type { Metric } from './plan-metrics';
import { PlanSummary } from './plan-summary';
import { usePlanRun, type StoredRun } from './use-plan-run';
import './plan-explorer.css';

/** Rejected families shown before "show all": the first ones are the planner's broadest cuts. */
const REJECTED_SHOWN = 40;

export function PlanExplorer({ runId, initial }: { readonly runId: string; readonly initial?: StoredRun }) {
  const { query, shaped } = usePlanRun(runId, initial);
  const [metric, setMetric] = useState<Metric>('latencySeconds');
  const [selectedId, setSelectedId] = useState<string>();
  // The tables below the graph (hundreds of rejected-candidate rows) render after the graph is
  // interactive, so they never delay the first view of the plan; a timer covers a graph that fails.
  const [graphReady, setGraphReady] = useState(false);
  const [showAllRejected, setShowAllRejected] = useState(false);
  // A transition, not a plain update: React Flow reports ready from an effect, and a plain update
  // there was batched with the graph's own "ready" commit, so the graph became clickable only once
  // the tables had rendered too (half a second of a 200-node plan's 2 s budget).
  const markReady = useCallback(() => startTransition(() => setGraphReady(true)), []);
  const loaded = query.data !== undefined;
  useEffect(() => {
    if (!loaded || graphReady) return;
    const timer = setTimeout(markReady, 3000);
    return () => clearTimeout(timer);
  }, [loaded, graphReady, markReady]);
  const close = useCallback(() => {
    setSelectedId((current) => {
      // Focus goes back to the node the panel was opened from (keyboard users keep their place).
      if (current) requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-node-id="${current.replace(/["\\]/g, '')}"]`)?.focus());
      return undefined;
    });
  }, []);
  useEffect(() => {
    if (!selectedId) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [selectedId, close]);

  if (query.error) return <ErrorMessage error={query.error} />;
  if (!shaped) return <p className="muted panel">Loading plan…</p>;
  const { run, views, totals } = shaped;
  const explain = run.explain;
  const selected = selectedId ? views.find((view) => view.node.id === selectedId) : undefined;
  return (
    <div className="plans">
      <PlanSummary run={run} actions={<CompareForm runId={runId} />} />

      <section className="panel plan-section" aria-labelledby="graph-title">
        <div className="plan-toolbar">
          <h2 id="graph-title">
            Execution graph <span className="section-note">({explain.graph.nodes.length} nodes{explain.edited ? `, edited from the planner's ${explain.edited.plannerNodes}` : ''})</span>
          </h2>
          <MetricToggle value={metric} onChange={setMetric} totals={totals.measured} />
        </div>
        <p className="muted small">Figures read estimate → actual. Shading is relative to the heaviest node; Tab reaches every node, Enter opens it, Esc closes the panel.</p>
        <div className={`plan-graph-layout${selected ? ' with-panel' : ''}`}>
          <PlanGraph graph={explain.graph} views={views} metric={metric} selectedId={selectedId} onSelect={setSelectedId} label="Execution graph" onReady={markReady} />
          {selected ? <NodeDetailPanel graph={explain.graph} views={views} view={selected} onClose={close} /> : null}
        </div>
      </section>

      {graphReady ? (
        <>
          <section className="panel plan-section" aria-labelledby="candidates-title">
            <h2 id="candidates-title">
              Candidate plans <span className="section-note">({explain.candidates.length} scored of {explain.enumerated} enumerated; best first)</span>
            </h2>
            <CandidateTable candidates={explain.candidates} weights={explain.costModel.weights} />
          </section>

          <section className="panel plan-section" aria-label="What the planner cut">
            {/* Focusable so a keyboard can scroll it: a compact stored list may hold no button to tab to. */}
            <div className="plan-rejected-scroll" role="region" aria-label="Rejected candidates" tabIndex={0}>
              <RejectedCandidatesTable rejected={showAllRejected ? explain.rejectedCandidates : explain.rejectedCandidates.slice(0, REJECTED_SHOWN)} summary={explain.rejectedSummary} />
              {explain.rejectedCandidates.length > REJECTED_SHOWN ? (
                <button type="button" onClick={() => setShowAllRejected((shown) => !shown)} aria-expanded={showAllRejected}>
                  {showAllRejected ? `Show the first ${REJECTED_SHOWN}` : `Show all ${explain.rejectedCandidates.length} rejected candidates`}
                </button>
              ) : null}
            </div>
            <RejectedSourcesTable rejected={explain.rejectedSources} />
          </section>

          <section className="panel plan-section" aria-labelledby="budget-title" data-testid="plan-token-budget">
            <h2 id="budget-title">Token budget</h2>
            <TokenBudgetView budget={explain.tokenBudget} />
          </section>
        </>
      ) : (
        <p className="muted panel">Loading candidates, rejections and the token budget…</p>
      )}
    </div>
  );
}

function CompareForm({ runId }: { readonly runId: string }) {
  const router = useRouter();
  const [other, setOther] = useState('');
  return (
    <form
      className="plan-compare-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (other.trim()) router.push(`/plans/compare?a=${encodeURIComponent(runId)}&b=${encodeURIComponent(other.trim())}`);
      }}
    >
      <label>
        <span>Compare with run</span>
        <input type="text" value={other} onChange={(event) => setOther(event.target.value)} placeholder="run id" aria-label="Run id to compare with" />
      </label>
      <button type="submit" disabled={!other.trim()}>
        Compare
      </button>
      <Link href="/traces">All runs</Link>
    </form>
  );
}
