import type { ConstraintFormValues } from './build-request';
import styles from './console.module.css';
import { useHydrated } from '@/components/use-hydrated';
import { FIELD_LABEL, type FormErrors } from './validate-form';

interface ConstraintFieldsProps {
  readonly values: ConstraintFormValues;
  /** Client-side errors, shown under their field. */
  readonly errors: FormErrors;
  /** The field a server-side error named (its message is in the alert below the form). */
  readonly invalidField?: keyof ConstraintFormValues;
  readonly onChange: (values: ConstraintFormValues) => void;
}

// Text inputs, not type="number": Chromium empties a number input holding "abc" and reports "",
// so a typo was silently dropped instead of named.
const NUMBER_FIELDS = [
  { key: 'maxCostUsd', testId: 'max-cost-input', hint: 'USD, e.g. 0.05' },
  { key: 'maxLatencySeconds', testId: 'max-latency-input', hint: 'seconds' },
  { key: 'maxTokens', testId: 'max-tokens-input', hint: 'whole number' },
] as const;

const CHECKBOX_FIELDS = [
  { key: 'requireCitations', testId: 'require-citations-input' },
  { key: 'requireVerification', testId: 'require-verification-input' },
] as const;

export function ConstraintFields({ values, errors, invalidField, onChange }: ConstraintFieldsProps) {
  // Read-only until hydrated: a value typed before would be dropped (use-hydrated.ts).
  const hydrated = useHydrated();
  return (
    <fieldset className="constraints">
      <legend>Constraints</legend>
      {NUMBER_FIELDS.map((field) => {
        const error = errors[field.key];
        const errorId = `${field.testId}-error`;
        return (
          // The error sits outside the label: the field is named by its label alone and described by the error.
          <div key={field.key} className="field">
            <label htmlFor={field.testId} className={styles.fieldLabel}>
              {FIELD_LABEL[field.key]}
            </label>
            <input
              id={field.testId}
              type="text"
              className={styles.numberInput}
              inputMode="decimal"
              autoComplete="off"
              value={values[field.key]}
              readOnly={!hydrated}
              placeholder="no limit"
              title={field.hint}
              aria-invalid={error !== undefined || invalidField === field.key || undefined}
              aria-describedby={error ? errorId : undefined}
              data-testid={field.testId}
              onChange={(event) => onChange({ ...values, [field.key]: event.target.value })}
            />
            {error ? (
              <small id={errorId} className={styles.fieldError}>
                {error}
              </small>
            ) : null}
          </div>
        );
      })}
      <div className={styles.checkboxes}>
        {CHECKBOX_FIELDS.map((field) => (
          <label key={field.key} className="field checkbox">
            <input
              type="checkbox"
              checked={values[field.key]}
              disabled={!hydrated}
              aria-invalid={invalidField === field.key || undefined}
              data-testid={field.testId}
              onChange={(event) => onChange({ ...values, [field.key]: event.target.checked })}
            />
            <span>{FIELD_LABEL[field.key]}</span>
          </label>
        ))}
      </div>
      {values.requireVerification ? null : <small className="hint">A policy may still require verification for some goals.</small>}
    </fieldset>
  );
}
