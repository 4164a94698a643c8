import { describeServerMessage, FIELD_LABEL, fieldOfPath } from './validate-form';

/** The part of a tRPC client error the console shows; structural so it fits every procedure's error. */
export interface DisplayableError {
  readonly message: string;
  readonly data?: { readonly runtimeError?: { readonly code: string; readonly field: string | null } | null } | null;
}

/** A refused request in the form's words: the field by its label, never an API path. */
export function ErrorMessage({ error }: { readonly error: DisplayableError }) {
  const runtimeError = error.data?.runtimeError;
  const field = fieldLabelOf(runtimeError?.field);
  return (
    <div className="error-message" role="alert" data-testid="error-message">
      <strong>{runtimeError ? describeCode(runtimeError.code) : 'Request failed'}</strong>
      {field ? (
        <span>
          {' '}
          in <span data-testid="error-field">{field}</span>
        </span>
      ) : null}
      <p>{describeServerMessage(error.message, runtimeError?.field)}</p>
    </div>
  );
}

/**
 * The console's label for one of its own fields; any other page's field (this component is shared,
 * e.g. the Knowledge page's confidence) by the last part of its path in words, never the whole path.
 */
function fieldLabelOf(path: string | null | undefined): string | undefined {
  const formField = fieldOfPath(path);
  if (formField) return FIELD_LABEL[formField];
  const last = path?.split('.').filter((part) => part !== '' && !/^\d+$/.test(part)).at(-1);
  return last ? last.replace(/_/g, ' ') : undefined;
}

function describeCode(code: string): string {
  switch (code) {
    case 'NO_FEASIBLE_PLAN':
      return 'No plan meets the constraints';
    case 'UNKNOWN_SOURCE':
      return 'Unknown source';
    case 'NOT_FOUND':
      return 'Not found';
    case 'CONFLICT':
      return 'Conflict';
    default:
      return 'Invalid input';
  }
}
