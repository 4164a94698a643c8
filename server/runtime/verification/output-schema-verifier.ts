/**
 * Schema verification: the request's `output_schema` (a JSON Schema, the kind zod's toJSONSchema
 * writes) checked on the answer. The answer must be one JSON value — bare, or in a ```json fence
 * as models often write it — that the schema accepts; each issue is named by its path.
 */
import { z } from 'zod';
import type { VerificationCheck } from '../contracts/verifier';
import { invalidInput } from '../errors';

/** A caller's schema as a zod validator; a schema zod cannot read is the caller's mistake, named by field. */
export function outputSchemaValidator(schema: unknown, field = 'output_schema'): z.ZodType {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw invalidInput(field, 'must be a JSON Schema object (for example {"type":"object","properties":{…}})');
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw invalidInput(field, `is not a JSON Schema zod can read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const FENCED = /```(?:json)?\s*\n([\s\S]*?)\n?```/i;

/** The JSON value an answer holds: the whole text, or the body of its first code fence. */
export function answerJson(answer: string): { readonly value?: unknown; readonly error?: string } {
  const text = (FENCED.exec(answer)?.[1] ?? answer).trim();
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: `the answer is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

export function outputSchemaCheck(schema: Readonly<Record<string, unknown>>, answer: string): VerificationCheck {
  const parsed = answerJson(answer);
  if (parsed.error !== undefined) return { name: 'output_schema', passed: false, score: 0, detail: parsed.error };
  const result = outputSchemaValidator(schema).safeParse(parsed.value);
  if (result.success) return { name: 'output_schema', passed: true, score: 1, detail: 'the answer matches output_schema' };
  const issues = result.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(answer)'}: ${issue.message}`);
  return { name: 'output_schema', passed: false, score: 0, detail: `the answer does not match output_schema — ${issues.slice(0, 5).join('; ')}` };
}
