/**
 * What the console checks before it sends anything, and how it words what the runtime refuses:
 * always with the field's label as the form shows it ("Max latency (seconds)"), never the API path
 * (`constraints.max_latency_seconds`) a user never typed.
 */
import type { ConstraintFormValues } from './build-request';

export type FormField = keyof ConstraintFormValues | 'goal' | 'sources';
export type FormErrors = Partial<Record<FormField, string>>;

export const FIELD_LABEL: Readonly<Record<FormField, string>> = Object.freeze({
  goal: 'Goal',
  sources: 'Sources',
  maxCostUsd: 'Max cost (USD)',
  maxLatencySeconds: 'Max latency (seconds)',
  maxTokens: 'Max tokens',
  requireCitations: 'Require citations',
  requireVerification: 'Require verification',
});

/** The runtime's field paths and constraint names → the form field that shows them. */
const FIELD_OF_PATH: Readonly<Record<string, FormField>> = Object.freeze({
  goal: 'goal',
  sources: 'sources',
  'constraints.max_cost_usd': 'maxCostUsd',
  'constraints.max_latency_seconds': 'maxLatencySeconds',
  'constraints.max_tokens': 'maxTokens',
  'constraints.require_citations': 'requireCitations',
  'constraints.require_verification': 'requireVerification',
  max_cost_usd: 'maxCostUsd',
  max_latency_seconds: 'maxLatencySeconds',
  max_tokens: 'maxTokens',
  require_citations: 'requireCitations',
  require_verification: 'requireVerification',
});

/** Same limit as the runtime (server/runtime/facade/validate-request.ts MAX_GOAL_CHARACTERS). */
export const MAX_GOAL_CHARACTERS = 16_000;
const DECIMAL = /^[+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export function fieldOfPath(path: string | null | undefined): FormField | undefined {
  if (!path) return undefined;
  if (path.startsWith('sources.')) return 'sources';
  return FIELD_OF_PATH[path];
}

function numberError(text: string, label: string, rule: 'zero-or-more' | 'positive' | 'whole'): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (rule === 'zero-or-more') return Number.isFinite(value) && value >= 0 ? undefined : `${label} must be a number of dollars, 0 or more (for example 0.05)`;
  if (rule === 'positive') return Number.isFinite(value) && value > 0 ? undefined : `${label} must be a positive number`;
  return Number.isInteger(value) && value > 0 ? undefined : `${label} must be a whole number greater than 0`;
}

export interface ConsoleFormValues {
  readonly goal: string;
  /** null = every source. */
  readonly sources: readonly string[] | null;
  readonly constraints: ConstraintFormValues;
}

/** Errors to show beside their fields. An empty goal is not an error to shout about: it only disables Run. */
export function validateConsoleForm({ goal, sources, constraints }: ConsoleFormValues): FormErrors {
  const errors: FormErrors = {};
  const goalLength = goal.trim().length;
  if (goalLength > MAX_GOAL_CHARACTERS) errors.goal = `Goal must be at most ${MAX_GOAL_CHARACTERS.toLocaleString('en-US')} characters (it has ${goalLength.toLocaleString('en-US')})`;
  if (sources !== null && sources.length === 0) errors.sources = 'Pick at least one source.';
  const cost = numberError(constraints.maxCostUsd, FIELD_LABEL.maxCostUsd, 'zero-or-more');
  const latency = numberError(constraints.maxLatencySeconds, FIELD_LABEL.maxLatencySeconds, 'positive');
  const tokens = numberError(constraints.maxTokens, FIELD_LABEL.maxTokens, 'whole');
  if (cost) errors.maxCostUsd = cost;
  if (latency) errors.maxLatencySeconds = latency;
  if (tokens) errors.maxTokens = tokens;
  return errors;
}

/** Whether Run, Explain and Quote may send the form. */
export function canSubmit(values: ConsoleFormValues, errors: FormErrors): boolean {
  return values.goal.trim() !== '' && Object.keys(errors).length === 0;
}

const PATH_PATTERN = /\b(?:constraints\.)?(?:max_cost_usd|max_latency_seconds|max_tokens|require_citations|require_verification)\b/g;

/**
 * A runtime message in the form's words: the leading "field: " becomes the label, and constraint
 * names anywhere in it (a "no feasible plan" message lists them) become their labels too.
 */
export function describeServerMessage(message: string, path: string | null | undefined): string {
  let text = message;
  const field = fieldOfPath(path);
  if (path && field && text.startsWith(`${path}: `)) text = `${FIELD_LABEL[field]}: ${text.slice(path.length + 2)}`;
  return text.replace(PATH_PATTERN, (name) => `“${FIELD_LABEL[fieldOfPath(name)!]}”`);
}
