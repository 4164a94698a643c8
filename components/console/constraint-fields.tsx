import type { ConstraintFormValues } from './build-request';

interface ConstraintFieldsProps {
  readonly values: ConstraintFormValues;
  readonly invalidField?: keyof ConstraintFormValues;
  readonly onChange: (values: ConstraintFormValues) => void;
}

const NUMBER_FIELDS = [
  { key: 'maxCostUsd', label: 'Max cost (USD)', step: '0.001', testId: 'max-cost-input' },
  { key: 'maxLatencySeconds', label: 'Max latency (s)', step: '0.1', testId: 'max-latency-input' },
  { key: 'maxTokens', label: 'Max tokens', step: '1', testId: 'max-tokens-input' },
] as const;

const CHECKBOX_FIELDS = [
  { key: 'requireCitations', label: 'Require citations', testId: 'require-citations-input' },
  { key: 'requireVerification', label: 'Require verification', testId: 'require-verification-input' },
] as const;

export function ConstraintFields({ values, invalidField, onChange }: ConstraintFieldsProps) {
  return (
    <fieldset className="constraints">
      <legend>Constraints</legend>
      {NUMBER_FIELDS.map((field) => (
        <label key={field.key} className="field">
          <span>{field.label}</span>
          <input
            type="number"
            inputMode="decimal"
            step={field.step}
            value={values[field.key]}
            placeholder="no limit"
            aria-invalid={invalidField === field.key || undefined}
            data-testid={field.testId}
            onChange={(event) => onChange({ ...values, [field.key]: event.target.value })}
          />
        </label>
      ))}
      {CHECKBOX_FIELDS.map((field) => (
        <label key={field.key} className="field checkbox">
          <input
            type="checkbox"
            checked={values[field.key]}
            aria-invalid={invalidField === field.key || undefined}
            data-testid={field.testId}
            onChange={(event) => onChange({ ...values, [field.key]: event.target.checked })}
          />
          <span>{field.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
