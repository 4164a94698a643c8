import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerJson, outputSchemaCheck, outputSchemaValidator } from './output-schema-verifier';

const schema = z.toJSONSchema(z.object({ cause: z.string(), affected: z.array(z.string()).min(1) })) as Record<string, unknown>;

describe('output_schema verification', () => {
  it('passes an answer that is JSON matching the schema, bare or in a json fence', () => {
    expect(outputSchemaCheck(schema, '{"cause":"OOMKilled [1]","affected":["checkout-api"]}')).toMatchObject({ name: 'output_schema', passed: true });
    expect(outputSchemaCheck(schema, 'Here it is:\n```json\n{"cause":"OOMKilled","affected":["checkout-api"]}\n```')).toMatchObject({ passed: true });
  });

  it('fails prose and names each path that does not match', () => {
    expect(outputSchemaCheck(schema, 'The pod ran out of memory [1].')).toMatchObject({ passed: false, detail: expect.stringMatching(/^the answer is not JSON/) });
    const check = outputSchemaCheck(schema, '{"cause": 7, "affected": []}');
    expect(check.passed).toBe(false);
    expect(check.detail).toMatch(/cause: .*; affected: /);
  });

  it('refuses a schema that is not a JSON Schema object, naming the field', () => {
    expect(() => outputSchemaValidator(['x'])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'output_schema' }));
    expect(() => outputSchemaValidator({ type: 'no-such-type' })).toThrow(expect.objectContaining({ field: 'output_schema' }));
    expect(answerJson('[1, 2]')).toEqual({ value: [1, 2] });
  });
});
