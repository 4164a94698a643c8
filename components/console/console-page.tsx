'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC, useTRPCClient } from '@/components/providers/trpc-provider';
import { ExplainView } from '@/components/explain/explain-view';
import { ThumbsFeedback } from '@/components/feedback/thumbs-feedback';
import type { Citation } from '@/server/runtime/types';
import { AnswerText } from './answer-text';
import { buildConstraints, DEMO_GOAL, EMPTY_CONSTRAINTS, FIELD_OF_CONSTRAINT, type ConstraintFormValues } from './build-request';
import { CitationList } from './citation-list';
import styles from './console.module.css';
import { ErrorMessage, type DisplayableError } from './error-message';
import { EvidenceDialog } from './evidence-dialog';
import { GoalForm, type ConsoleAction } from './goal-form';
import { QuotePanel } from './quote-panel';
import { RunHistory } from './run-history';
import { RunNotices } from './run-notices';
import { RunProgressList } from './run-progress-list';
import { useStreamedRun } from './use-streamed-run';

type InvalidField = keyof ConstraintFormValues | 'goal' | 'sources';

function invalidFieldOf(error: DisplayableError | null | undefined): InvalidField | undefined {
  const field = error?.data?.runtimeError?.field ?? undefined;
  if (!field) return undefined;
  if (field === 'goal') return 'goal';
  if (field === 'sources' || field.startsWith('sources.')) return 'sources';
  return FIELD_OF_CONSTRAINT[field];
}

/** `canRun`: the signed-in user may run goals (operator or above); viewers read answers and history. */
export function ConsolePage({ canRun }: { readonly canRun: boolean }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [goal, setGoal] = useState(DEMO_GOAL);
  const [constraints, setConstraints] = useState<ConstraintFormValues>(EMPTY_CONSTRAINTS);
  const [sources, setSources] = useState<readonly string[] | null>(null);
  const [lastAction, setLastAction] = useState<ConsoleAction | null>(null);
  const [openCitation, setOpenCitation] = useState<Citation | null>(null);
  const refreshHistory = () => void queryClient.invalidateQueries({ queryKey: trpc.console.history.queryKey() });
  const run = useStreamedRun(refreshHistory);
  const explain = useMutation(trpc.runtime.explain.mutationOptions());
  const quote = useMutation(trpc.runtime.simulate.mutationOptions());
  const openRun = useMutation({
    mutationFn: (runId: string) => client.runtime.getRun.query({ runId }),
    onSuccess: ({ run: result }) => {
      setGoal(result.explain.goal);
      run.show(result);
    },
  });

  const submit = (action: ConsoleAction) => {
    const request = { goal, sources: sources ?? undefined, constraints: buildConstraints(constraints) };
    setLastAction(action);
    setOpenCitation(null);
    explain.reset();
    quote.reset();
    openRun.reset();
    if (action === 'run') run.start(request);
    else {
      run.reset();
      if (action === 'explain') explain.mutate({ ...request, sources: request.sources && [...request.sources], analyze: false });
      else quote.mutate({ ...request, sources: request.sources && [...request.sources] });
    }
  };

  const reuseGoal = (previous: string) => {
    setGoal(previous);
    document.getElementById('goal-input')?.focus();
  };

  const showRun = (runId: string) => {
    setLastAction('run');
    setOpenCitation(null);
    explain.reset();
    quote.reset();
    openRun.mutate(runId);
  };

  const pending: ConsoleAction | null = run.pending ? 'run' : explain.isPending ? 'explain' : quote.isPending ? 'quote' : null;
  const error: DisplayableError | null = (lastAction === 'run' ? (run.error ?? openRun.error) : lastAction === 'explain' ? explain.error : lastAction === 'quote' ? quote.error : null) ?? null;
  const runResult = lastAction === 'run' ? run.result : undefined;
  const explainResult = lastAction === 'run' ? run.result?.explain : lastAction === 'explain' ? explain.data : undefined;
  const showProgress = lastAction === 'run' && (run.pending || run.progress.rows.length > 0);

  return (
    <div className={styles.layout}>
      <div className="console">
        <section className="panel" aria-labelledby="console-heading">
          <h1 id="console-heading">Console</h1>
          <GoalForm
            goal={goal}
            constraints={constraints}
            sources={sources}
            pending={pending}
            canRun={canRun}
            invalidField={invalidFieldOf(error)}
            onGoalChange={setGoal}
            onConstraintsChange={setConstraints}
            onSourcesChange={setSources}
            onSubmit={submit}
          />
          {error ? <ErrorMessage error={error} /> : null}
        </section>
        {lastAction === 'quote' && quote.data ? <QuotePanel quote={quote.data} /> : null}
        {showProgress ? <RunProgressList progress={run.progress} pending={run.pending} /> : null}
        {runResult ? (
          <section className="panel" aria-labelledby="answer-heading">
            <div className={styles.answerHeader}>
              <h2 id="answer-heading">
                Answer <span className={`status status-${runResult.status}`}>{runResult.status.replace('_', ' ')}</span>
              </h2>
              <span>
                {runResult.answerNodeId ? (
                  // The answer is kept as knowledge derived from its citations: it turns stale when a cited source changes.
                  <Link href={`/knowledge?node=${encodeURIComponent(runResult.answerNodeId)}`} className={styles.planLink} data-testid="answer-lineage-link">
                    Lineage <span aria-hidden="true">→</span>
                  </Link>
                ) : null}{' '}
                <Link href={`/plans/${runResult.runId}`} className={styles.planLink} data-testid="plan-link">
                  Open plan <span aria-hidden="true">→</span>
                </Link>
              </span>
            </div>
            {runResult.answer ? <AnswerText answer={runResult.answer} citations={runResult.citations} onOpenCitation={setOpenCitation} /> : null}
            {runResult.status === 'completed' ? <ThumbsFeedback key={runResult.runId} runId={runResult.runId} /> : null}
            <RunNotices result={runResult} />
            <h3>Citations</h3>
            <CitationList citations={runResult.citations} onOpen={setOpenCitation} />
            <EvidenceDialog runId={runResult.runId} citation={openCitation} onClose={() => setOpenCitation(null)} />
          </section>
        ) : null}
        {explainResult ? <ExplainView explain={explainResult} /> : null}
      </div>
      <RunHistory activeRunId={runResult?.runId} onReuseGoal={reuseGoal} onOpenRun={showRun} />
    </div>
  );
}
