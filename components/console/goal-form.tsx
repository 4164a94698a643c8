import type { FormEvent, KeyboardEvent } from 'react';
import { useHydrated } from '@/components/use-hydrated';
import { DEMO_GOAL, type ConstraintFormValues } from './build-request';
import { ConstraintFields } from './constraint-fields';
import styles from './console.module.css';
import { SourcePicker } from './source-picker';
import type { FormErrors, FormField } from './validate-form';

export type ConsoleAction = 'run' | 'explain' | 'quote';

interface GoalFormProps {
  readonly goal: string;
  readonly constraints: ConstraintFormValues;
  readonly pending: ConsoleAction | null;
  readonly canRun: boolean;
  /** The field a server-side error named. */
  readonly invalidField?: FormField;
  /** What the form itself found wrong, by field (validate-form.ts). */
  readonly errors: FormErrors;
  /** False while the goal is empty or a field is invalid: nothing is sent. */
  readonly submittable: boolean;
  /** null = every source. */
  readonly sources: readonly string[] | null;
  readonly onSourcesChange: (sources: readonly string[] | null) => void;
  readonly onGoalChange: (goal: string) => void;
  readonly onConstraintsChange: (values: ConstraintFormValues) => void;
  readonly onSubmit: (action: ConsoleAction) => void;
}

export function GoalForm({ goal, constraints, pending, canRun, invalidField, errors, submittable, sources, onGoalChange, onConstraintsChange, onSourcesChange, onSubmit }: GoalFormProps) {
  const busy = pending !== null;
  // Until hydrated the form only looks ready: input typed there is lost (use-hydrated.ts).
  const hydrated = useHydrated();
  const blocked = busy || !canRun || !submittable || !hydrated;
  const goalEmpty = goal.trim() === '';
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
    // validate-form.ts checks the fields in the form's words; the browser's own checks would not.
    <form className="goal-form" onSubmit={submit} noValidate aria-busy={busy}>
      {/* The hint sits outside the label so the box is named "Goal", not "Goal Enter runs…". */}
      <div className="field goal-field">
        <label htmlFor="goal-input" className={styles.fieldLabel}>
          Goal
        </label>
        <textarea
          id="goal-input"
          name="goal"
          rows={2}
          value={goal}
          readOnly={!hydrated}
          placeholder={DEMO_GOAL}
          aria-invalid={invalidField === 'goal' || errors.goal !== undefined || undefined}
          aria-describedby={errors.goal ? 'goal-error' : 'goal-hint'}
          data-testid="goal-input"
          onChange={(event) => onGoalChange(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {errors.goal ? (
          <small id="goal-error" className="hint" role="alert">
            {errors.goal}
          </small>
        ) : (
          <small id="goal-hint" className="hint">
            {goalEmpty ? 'Type a goal to run it.' : 'Enter runs · Shift+Enter for a new line'}
          </small>
        )}
      </div>
      <SourcePicker selected={sources} invalid={invalidField === 'sources' || errors.sources !== undefined} onChange={onSourcesChange} />
      <ConstraintFields values={constraints} errors={errors} invalidField={invalidField === 'goal' || invalidField === 'sources' ? undefined : invalidField} onChange={onConstraintsChange} />
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
