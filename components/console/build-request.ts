/**
 * Console form state → the request the runtime validates. Number fields are sent as typed
 * (including negatives and NaN) so the runtime, not the browser, decides what is valid and says why.
 */
export const DEMO_GOAL = 'Explain why deployment checkout-api failed';

export interface ConstraintFormValues {
  readonly maxCostUsd: string;
  readonly maxLatencySeconds: string;
  readonly maxTokens: string;
  readonly requireCitations: boolean;
  readonly requireVerification: boolean;
}

export const EMPTY_CONSTRAINTS: ConstraintFormValues = Object.freeze({
  maxCostUsd: '',
  maxLatencySeconds: '',
  maxTokens: '',
  requireCitations: false,
  requireVerification: false,
});

/** Which form field shows a server error for a runtime field path such as "constraints.max_cost_usd". */
export const FIELD_OF_CONSTRAINT: Readonly<Record<string, keyof ConstraintFormValues>> = Object.freeze({
  'constraints.max_cost_usd': 'maxCostUsd',
  'constraints.max_latency_seconds': 'maxLatencySeconds',
  'constraints.max_tokens': 'maxTokens',
  'constraints.require_citations': 'requireCitations',
  'constraints.require_verification': 'requireVerification',
});

const numberOrUndefined = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()));

/**
 * Unchecked boxes are omitted rather than sent as false: an unchecked box means "the configured
 * default", and a deployment may require citations by default.
 */
export function buildConstraints(values: ConstraintFormValues): Record<string, number | boolean> {
  const constraints: Record<string, number | boolean> = {};
  const entries: readonly [string, number | undefined][] = [
    ['max_cost_usd', numberOrUndefined(values.maxCostUsd)],
    ['max_latency_seconds', numberOrUndefined(values.maxLatencySeconds)],
    ['max_tokens', numberOrUndefined(values.maxTokens)],
  ];
  for (const [name, value] of entries) if (value !== undefined) constraints[name] = value;
  if (values.requireCitations) constraints.require_citations = true;
  if (values.requireVerification) constraints.require_verification = true;
  return constraints;
}
