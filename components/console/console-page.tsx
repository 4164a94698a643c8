'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC, useTRPCClient } from '@/components/providers/trpc-provider';
import { ExplainView } from '@/components/explain/explain-view';
import type { Citation } from '@/server/runtime/types';
import { AnswerPanel } from './answer-panel';
import { buildConstraints, DEFAULT_CONSTRAINTS, DEMO_GOAL, type ConstraintFormValues } from './build-request';
import styles from './console.module.css';
import { ErrorMessage, type DisplayableError } from './error-message';
import { GoalForm, type ConsoleAction } from './goal-form';
import { QuotePanel } from './quote-panel';
import { RunHistory } from './run-history';
import { RunProgressList } from './run-progress-list';
import { useStreamedRun, type StreamedRunRequest } from './use-streamed-run';
import { canSubmit, fieldOfPath, validateConsoleForm } from './validate-form';

/** `canRun`: the signed-in user may run goals (operator or above); viewers read answers and history. */
export function ConsolePage({ canRun }: { readonly canRun: boolean }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [goal, setGoal] = useState(DEMO_GOAL);
  const [constraints, setConstraints] = useState<ConstraintFormValues>(DEFAULT_CONSTRAINTS);
  const [sources, setSources] = useState<readonly string[] | null>(null);
  const [lastAction, setLastAction] = useState<ConsoleAction | null>(null);
  const [openCitation, setOpenCitation] = useState<{ readonly citation: Citation; readonly number: number } | null>(null);
  /** The request behind the quote on screen: "Run this plan" runs exactly it, whatever the form says now. */
  const [quotedRequest, setQuotedRequest] = useState<StreamedRunRequest | null>(null);
  /** The plan hash the user ran from a quote, to say whether the run executed that plan. */
  const [ranQuoteHash, setRanQuoteHash] = useState<string | null>(null);
  const refreshHistory = () => void queryClient.invalidateQueries({ queryKey: trpc.console.history.queryKey() });
  const run = useStreamedRun(refreshHistory);
  const explain = useMutation(trpc.runtime.explain.mutationOptions());
  // The followed run's result arrives over the stream as `cancelled`: the mutation only asks.
  const cancelRun = useMutation(trpc.runtime.cancel.mutationOptions());
  const quote = useMutation(trpc.runtime.simulate.mutationOptions());
  const openRun = useMutation({
    mutationFn: (runId: string) => client.runtime.getRun.query({ runId }),
    onSuccess: ({ run: result }) => {
      setGoal(result.explain.goal);
      run.show(result);
    },
  });

  const formValues = { goal, sources, constraints };
  const formErrors = validateConsoleForm(formValues);
  const submittable = canSubmit(formValues, formErrors);

  const clearResults = () => {
    setOpenCitation(null);
    setRanQuoteHash(null);
    explain.reset();
    quote.reset();
    openRun.reset();
  };

  const submit = (action: ConsoleAction) => {
    // The buttons are disabled too; this also guards Enter in the goal box.
    if (!submittable) return;
    const request: StreamedRunRequest = { goal, sources: sources ?? undefined, constraints: buildConstraints(constraints) };
    setLastAction(action);
    clearResults();
    if (action === 'run') run.start(request);
    else {
      run.reset();
      if (action === 'explain') explain.mutate({ ...request, sources: request.sources && [...request.sources], analyze: false });
      else {
        setQuotedRequest(request);
        quote.mutate({ ...request, sources: request.sources && [...request.sources] });
      }
    }
  };

  const runQuotedPlan = () => {
    if (!quotedRequest || !quote.data) return;
    const planHash = quote.data.planHash;
    setLastAction('run');
    clearResults();
    setRanQuoteHash(planHash);
    run.start(quotedRequest);
  };

  const reuseGoal = (previous: string) => {
    setGoal(previous);
    document.getElementById('goal-input')?.focus();
  };

  const showRun = (runId: string) => {
    setLastAction('run');
    clearResults();
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
          {/* Named for screen readers; the nav already says "Console", and the answer needs the room on the first screen. */}
          <h1 id="console-heading" className={styles.visuallyHidden}>
            Console
          </h1>
          <GoalForm
            goal={goal}
            constraints={constraints}
            sources={sources}
            pending={pending}
            canRun={canRun}
            errors={formErrors}
            submittable={submittable}
            invalidField={fieldOfPath(error?.data?.runtimeError?.field)}
            onGoalChange={setGoal}
            onConstraintsChange={setConstraints}
            onSourcesChange={setSources}
            onSubmit={submit}
          />
          {error ? <ErrorMessage error={error} /> : null}
        </section>
        {lastAction === 'quote' && quote.data ? <QuotePanel quote={quote.data} busy={pending !== null} onRunPlan={canRun ? runQuotedPlan : undefined} /> : null}
        {/* The answer comes first: the progress list and the plan fold away beneath it. */}
        {runResult ? (
          <AnswerPanel
            result={runResult}
            quotedPlanHash={ranQuoteHash}
            openCitation={openCitation}
            onOpenCitation={(citation, number) => setOpenCitation({ citation, number })}
            onCloseCitation={() => setOpenCitation(null)}
          />
        ) : null}
        {showProgress ? (
          <RunProgressList
            progress={run.progress}
            pending={run.pending}
            onCancel={canRun && run.runId ? () => cancelRun.mutate({ runId: run.runId! }) : undefined}
            cancelling={cancelRun.isPending}
          />
        ) : null}
        {lastAction === 'run' && cancelRun.error ? <ErrorMessage error={cancelRun.error} /> : null}
        {explainResult && lastAction === 'run' ? (
          <details className="panel" data-testid="run-plan">
            <summary className={styles.foldSummary}>
              <h2>Plan</h2> <span className="muted">EXPLAIN of the plan that produced this answer</span>
            </summary>
            <ExplainView explain={explainResult} />
          </details>
        ) : explainResult ? (
          <ExplainView explain={explainResult} />
        ) : null}
      </div>
      <RunHistory activeRunId={runResult?.runId} onReuseGoal={reuseGoal} onOpenRun={showRun} />
    </div>
  );
}
