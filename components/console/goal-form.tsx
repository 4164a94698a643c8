import type { FormEvent, KeyboardEvent } from 'react';
import { DEMO_GOAL, type ConstraintFormValues } from './build-request';
import { ConstraintFields } from './constraint-fields';
import { SourcePicker } from './source-picker';

export type ConsoleAction = 'run' | 'explain' | 'quote';

interface GoalFormProps {
  readonly goal: string;
  readonly constraints: ConstraintFormValues;
  readonly pending: ConsoleAction | null;
  readonly canRun: boolean;
  readonly invalidField?: keyof ConstraintFormValues | 'goal' | 'sources';
  /** null = every source. */
  readonly sources: readonly string[] | null;
  readonly onSourcesChange: (sources: readonly string[] | null) => void;
  readonly onGoalChange: (goal: string) => void;
  readonly onConstraintsChange: (values: ConstraintFormValues) => void;
  readonly onSubmit: (action: ConsoleAction) => void;
}

export function GoalForm({ goal, constraints, pending, canRun, invalidField, sources, onGoalChange, onConstraintsChange, onSourcesChange, onSubmit }: GoalFormProps) {
  const busy = pending !== null;
  const blocked = busy || !canRun;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!blocked) onSubmit('run');
  };
  // Enter runs, Shift+Enter is a newline; an IME composition's Enter only confirms the composition.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!blocked) onSubmit('run');
  };
  return (
    // Server-side validation is the source of truth, so the browser's own number checks are off.
    <form className="goal-form" onSubmit={submit} noValidate aria-busy={busy}>
      <label className="field goal-field">
        <span>Goal</span>
        <textarea
          id="goal-input"
          name="goal"
          rows={3}
          value={goal}
          placeholder={DEMO_GOAL}
          aria-invalid={invalidField === 'goal' || undefined}
          data-testid="goal-input"
          onChange={(event) => onGoalChange(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <small className="hint">Enter runs · Shift+Enter for a new line</small>
      </label>
      <SourcePicker selected={sources} invalid={invalidField === 'sources'} onChange={onSourcesChange} />
      <ConstraintFields values={constraints} invalidField={invalidField === 'goal' || invalidField === 'sources' ? undefined : invalidField} onChange={onConstraintsChange} />
      <div className="actions">
        <button type="submit" className="primary" disabled={blocked} data-testid="run-button">
          {pending === 'run' ? 'Running…' : 'Run'}
        </button>
        <button type="button" disabled={blocked} data-testid="explain-button" onClick={() => onSubmit('explain')}>
          {pending === 'explain' ? 'Planning…' : 'Explain only'}
        </button>
        <button type="button" disabled={blocked} data-testid="quote-button" onClick={() => onSubmit('quote')}>
          {pending === 'quote' ? 'Estimating…' : 'Quote before run'}
        </button>
      </div>
      {canRun ? null : (
        <p className="hint" data-testid="role-note">
          Running, explaining and quoting goals needs the operator role; you can read answers and plans.
        </p>
      )}
    </form>
  );
}
