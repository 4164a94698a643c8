import type { FormEvent, KeyboardEvent } from 'react';
import { DEMO_GOAL, type ConstraintFormValues } from './build-request';
import { ConstraintFields } from './constraint-fields';

export type ConsoleAction = 'run' | 'explain';

interface GoalFormProps {
  readonly goal: string;
  readonly constraints: ConstraintFormValues;
  readonly pending: ConsoleAction | null;
  readonly invalidField?: keyof ConstraintFormValues | 'goal';
  readonly onGoalChange: (goal: string) => void;
  readonly onConstraintsChange: (values: ConstraintFormValues) => void;
  readonly onSubmit: (action: ConsoleAction) => void;
}

export function GoalForm({ goal, constraints, pending, invalidField, onGoalChange, onConstraintsChange, onSubmit }: GoalFormProps) {
  const busy = pending !== null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSubmit('run');
  };
  // Enter runs, Shift+Enter is a newline; an IME composition's Enter only confirms the composition.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!busy) onSubmit('run');
  };
  return (
    // Server-side validation is the source of truth, so the browser's own number checks are off.
    <form className="goal-form" onSubmit={submit} noValidate aria-busy={busy}>
      <label className="field goal-field">
        <span>Goal</span>
        <textarea
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
      <ConstraintFields values={constraints} invalidField={invalidField === 'goal' ? undefined : invalidField} onChange={onConstraintsChange} />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy} data-testid="run-button">
          {pending === 'run' ? 'Running…' : 'Run'}
        </button>
        <button type="button" disabled={busy} data-testid="explain-button" onClick={() => onSubmit('explain')}>
          {pending === 'explain' ? 'Planning…' : 'Explain only'}
        </button>
      </div>
    </form>
  );
}
