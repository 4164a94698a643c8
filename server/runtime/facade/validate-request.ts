/**
 * Validates a caller's request before anything is planned or written. Messages name the field
 * and what was expected ("goal: expected 1–16000 characters, got 1048576").
 */
import { invalidInput } from '../errors';
import { validateConstraints } from '../constraints/validate-constraints';
import { outputSchemaValidator } from '../verification/output-schema-verifier';
import type { PlanScoreWeights, Principal, RunRequest } from '../types';

/** Goals are questions, not documents: 16k characters is ~4k tokens, far above any real goal. */
export const MAX_GOAL_CHARACTERS = 16_000;
const WEIGHT_KEYS: readonly (keyof PlanScoreWeights)[] = ['acc', 'cost', 'lat', 'risk', 'hall', 'loss', 'cache', 'vrf'];
export const ANONYMOUS: Principal = Object.freeze({ user: 'anonymous', roles: Object.freeze(['operator']) });

export function validateRunRequest(raw: unknown): RunRequest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidInput('request', 'expected an object with a goal');
  const input = raw as Record<string, unknown>;
  const unknownKeys = Object.keys(input).filter((key) => !['goal', 'sources', 'constraints', 'weights', 'principal', 'output_schema'].includes(key));
  if (unknownKeys.length > 0) throw invalidInput(unknownKeys[0], 'unknown field (expected goal, sources, constraints, weights, principal, output_schema)');
  if (typeof input.goal !== 'string') throw invalidInput('goal', `expected a string, got ${input.goal === undefined ? 'nothing' : typeof input.goal}`);
  const goal = input.goal.trim();
  if (goal.length === 0) throw invalidInput('goal', 'must not be empty');
  if (goal.length > MAX_GOAL_CHARACTERS) throw invalidInput('goal', `expected at most ${MAX_GOAL_CHARACTERS} characters, got ${goal.length}`);
  assertStorableText('goal', goal);
  let sources: string[] | undefined;
  if (input.sources !== undefined) {
    if (!Array.isArray(input.sources) || input.sources.some((source) => typeof source !== 'string' || source.trim() === '')) {
      throw invalidInput('sources', 'expected an array of source names');
    }
    sources = [...new Set(input.sources.map((source: string) => source.trim()))];
  }
  return Object.freeze({
    goal,
    sources,
    constraints: validateConstraints(input.constraints ?? {}),
    weights: validateWeights(input.weights),
    principal: validatePrincipal(input.principal),
    ...(input.output_schema !== undefined ? { output_schema: validateOutputSchema(input.output_schema) } : {}),
  });
}

/** Caps a schema's size: it travels in every answering prompt and in the stored run. */
const MAX_OUTPUT_SCHEMA_CHARACTERS = 8_000;

/** A JSON Schema zod can read (outputSchemaValidator names the field when it cannot), of a size a prompt can carry. */
function validateOutputSchema(raw: unknown): Readonly<Record<string, unknown>> {
  outputSchemaValidator(raw);
  const size = JSON.stringify(raw).length;
  if (size > MAX_OUTPUT_SCHEMA_CHARACTERS) throw invalidInput('output_schema', `expected at most ${MAX_OUTPUT_SCHEMA_CHARACTERS} characters of JSON, got ${size}`);
  return raw as Readonly<Record<string, unknown>>;
}

/** Postgres text cannot hold NUL, and a lone UTF-16 surrogate is not text: refuse them by name, not with a database error. */
export function assertStorableText(field: string, text: string): void {
  if (text.includes('\u0000')) throw invalidInput(field, 'must not contain a NUL character');
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)) throw invalidInput(field, 'must be well-formed Unicode (it contains a lone surrogate)');
}

function validateWeights(raw: unknown): Partial<PlanScoreWeights> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidInput('weights', 'expected an object of PlanScore weights');
  const weights: Partial<Record<keyof PlanScoreWeights, number>> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!WEIGHT_KEYS.includes(key as keyof PlanScoreWeights)) throw invalidInput(`weights.${key}`, `unknown weight (expected one of ${WEIGHT_KEYS.join(', ')})`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw invalidInput(`weights.${key}`, `expected a non-negative number, got ${JSON.stringify(value)}`);
    weights[key as keyof PlanScoreWeights] = value;
  }
  return weights;
}

/** A caller's principal; undefined is the embedded default (ANONYMOUS, an operator). */
export function validatePrincipal(raw: unknown): Principal {
  if (raw === undefined) return ANONYMOUS;
  const principal = raw as Partial<Principal>;
  if (typeof principal !== 'object' || typeof principal.user !== 'string' || principal.user.trim() === '' || !Array.isArray(principal.roles)) {
    throw invalidInput('principal', 'expected { user: string, roles: string[] }');
  }
  assertStorableText('principal.user', principal.user);
  const roles = Object.freeze([...principal.roles].map(String));
  if (principal.sourceScope === undefined) return Object.freeze({ user: principal.user.trim(), roles });
  if (!Array.isArray(principal.sourceScope) || principal.sourceScope.some((name) => typeof name !== 'string')) throw invalidInput('principal.sourceScope', 'expected an array of source names');
  return Object.freeze({ user: principal.user.trim(), roles, sourceScope: Object.freeze([...principal.sourceScope]) });
}
