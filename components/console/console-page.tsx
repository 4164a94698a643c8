'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import { ExplainView } from '@/components/explain/explain-view';
import { AnswerText } from './answer-text';
import { buildConstraints, DEMO_GOAL, EMPTY_CONSTRAINTS, FIELD_OF_CONSTRAINT, type ConstraintFormValues } from './build-request';
import { CitationList } from './citation-list';
import { ErrorMessage } from './error-message';
import { GoalForm, type ConsoleAction } from './goal-form';
import { RunNotices } from './run-notices';

export function ConsolePage() {
  const trpc = useTRPC();
  const [goal, setGoal] = useState(DEMO_GOAL);
  const [constraints, setConstraints] = useState<ConstraintFormValues>(EMPTY_CONSTRAINTS);
  const [lastAction, setLastAction] = useState<ConsoleAction | null>(null);
  const run = useMutation(trpc.runtime.run.mutationOptions());
  const explain = useMutation(trpc.runtime.explain.mutationOptions());

  const submit = (action: ConsoleAction) => {
    const request = { goal, constraints: buildConstraints(constraints) };
    setLastAction(action);
    run.reset();
    explain.reset();
    if (action === 'run') run.mutate(request);
    else explain.mutate({ ...request, analyze: false });
  };

  const pending: ConsoleAction | null = run.isPending ? 'run' : explain.isPending ? 'explain' : null;
  const error = lastAction === 'run' ? run.error : lastAction === 'explain' ? explain.error : null;
  const errorField = error?.data?.runtimeError?.field ?? undefined;
  const invalidField = errorField === 'goal' ? 'goal' : errorField ? FIELD_OF_CONSTRAINT[errorField] : undefined;
  const runResult = lastAction === 'run' ? run.data : undefined;
  const explainResult = lastAction === 'run' ? run.data?.explain : lastAction === 'explain' ? explain.data : undefined;

  return (
    <div className="console">
      <section className="panel">
        <h1>Console</h1>
        <GoalForm
          goal={goal}
          constraints={constraints}
          pending={pending}
          invalidField={invalidField}
          onGoalChange={setGoal}
          onConstraintsChange={setConstraints}
          onSubmit={submit}
        />
        {error ? <ErrorMessage error={error} /> : null}
      </section>
      {runResult ? (
        <section className="panel" aria-label="Answer">
          <h2>
            Answer <span className={`status status-${runResult.status}`}>{runResult.status.replace('_', ' ')}</span>
          </h2>
          {runResult.answer ? <AnswerText answer={runResult.answer} citations={runResult.citations} /> : null}
          <RunNotices result={runResult} />
          <h3>Citations</h3>
          <CitationList citations={runResult.citations} />
        </section>
      ) : null}
      {explainResult ? <ExplainView explain={explainResult} /> : null}
    </div>
  );
}
