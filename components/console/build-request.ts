/**
 * Console form state → the request the runtime validates. The form checks numbers before sending
 * (validate-form.ts), so what arrives here is either empty (no limit) or a number.
 */
export const DEMO_GOAL = 'Explain why deployment checkout-api failed';

export interface ConstraintFormValues {
  readonly maxCostUsd: string;
  readonly maxLatencySeconds: string;
  readonly maxTokens: string;
  readonly requireCitations: boolean;
  readonly requireVerification: boolean;
}

/**
 * The boxes start as the runtime runs without them: citations are required unless a request says
 * otherwise (plan-request.ts `require_citations ?? true`), and verification is on by default
 * (config `verification.default: true`, as the CLI's help says).
 */
export const DEFAULT_CONSTRAINTS: ConstraintFormValues = Object.freeze({
  maxCostUsd: '',
  maxLatencySeconds: '',
  maxTokens: '',
  requireCitations: true,
  requireVerification: true,
});

const numberOrUndefined = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()));

/**
 * Checked citations are omitted (the runtime's default, so the request and its plan hash are the
 * CLI's for the same goal); an unchecked box is sent as false. Verification is sent either way:
 * a box that shows "on" must mean on even where a deployment turned its default off.
 */
export function buildConstraints(values: ConstraintFormValues): Record<string, number | boolean> {
  const constraints: Record<string, number | boolean> = {};
  const entries: readonly [string, number | undefined][] = [
    ['max_cost_usd', numberOrUndefined(values.maxCostUsd)],
    ['max_latency_seconds', numberOrUndefined(values.maxLatencySeconds)],
    ['max_tokens', numberOrUndefined(values.maxTokens)],
  ];
  for (const [name, value] of entries) if (value !== undefined) constraints[name] = value;
  if (!values.requireCitations) constraints.require_citations = false;
  constraints.require_verification = values.requireVerification;
  return constraints;
}
