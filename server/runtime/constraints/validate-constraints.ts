import { invalidInput } from '../errors';
import type { Constraints } from '../types';

/**
 * Validates caller-supplied constraints (HTTP body, CLI flags, YAML). Numbers may arrive
 * as strings from forms and flags, so a decimal string is accepted; anything else that is
 * not a finite non-negative number is rejected with the field named, because a NaN budget
 * would silently make every plan feasible (NaN comparisons are false).
 */

const NUMERIC_KEYS = ['max_cost_usd', 'max_latency_seconds', 'max_tokens'] as const;
const BOOLEAN_KEYS = ['require_citations', 'require_verification'] as const;
const KNOWN_KEYS: readonly string[] = [...NUMERIC_KEYS, ...BOOLEAN_KEYS];
const DECIMAL = /^[+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

const describe = (raw: unknown): string => (typeof raw === 'string' ? JSON.stringify(raw) : Array.isArray(raw) ? 'an array' : raw === null ? 'null' : String(raw));

function parseNonNegative(field: string, raw: unknown, integer: boolean): number {
  let value: number | undefined;
  if (typeof raw === 'number') value = raw;
  else if (typeof raw === 'string' && DECIMAL.test(raw.trim())) value = Number(raw.trim());
  if (value === undefined || !Number.isFinite(value) || value < 0) {
    throw invalidInput(field, `expected a non-negative number, got ${describe(raw)}`);
  }
  if (integer && !Number.isInteger(value)) throw invalidInput(field, `expected a whole number of tokens, got ${describe(raw)}`);
  return value;
}

function parseBoolean(field: string, raw: unknown): boolean {
  if (typeof raw === 'boolean') return raw;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw invalidInput(field, `expected true or false, got ${describe(raw)}`);
}

export function validateConstraints(raw: unknown, field = 'constraints'): Constraints {
  if (raw === undefined || raw === null) return Object.freeze({});
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalidInput(field, `expected an object, got ${describe(raw)}`);
  const result: Record<string, number | boolean> = {};
  for (const [key, value] of Object.entries(raw)) {
    const path = `${field}.${key}`;
    if (!KNOWN_KEYS.includes(key)) throw invalidInput(path, `unknown constraint; expected one of ${KNOWN_KEYS.join(', ')}`);
    if (value === undefined) continue;
    if ((NUMERIC_KEYS as readonly string[]).includes(key)) result[key] = parseNonNegative(path, value, key === 'max_tokens');
    else result[key] = parseBoolean(path, value);
  }
  return Object.freeze(result) as Constraints;
}

/**
 * Request constraints layered over config budgets: a request may tighten a budget but a
 * looser request value does not lift the operator's cap.
 */
export function mergeConstraints(budgets: Constraints, request: Constraints): Constraints {
  const merged: Record<string, number | boolean> = { ...budgets };
  for (const key of NUMERIC_KEYS) {
    const requested = request[key];
    if (requested === undefined) continue;
    const cap = budgets[key];
    merged[key] = cap === undefined ? requested : Math.min(cap, requested);
  }
  for (const key of BOOLEAN_KEYS) if (request[key] !== undefined) merged[key] = request[key] === true || budgets[key] === true;
  return Object.freeze(merged) as Constraints;
}
