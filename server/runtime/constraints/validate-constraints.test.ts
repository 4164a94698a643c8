import { describe, expect, it } from 'vitest';
import { ContextRuntimeError } from '../errors';
import { mergeConstraints, validateConstraints } from './validate-constraints';

function rejection(raw: unknown): ContextRuntimeError {
  try {
    validateConstraints(raw);
  } catch (error) {
    if (error instanceof ContextRuntimeError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
}

describe('validateConstraints', () => {
  it('accepts numbers, numeric strings and booleans', () => {
    expect(validateConstraints({ max_cost_usd: 2, max_latency_seconds: '90', max_tokens: '120000', require_citations: true, require_verification: 'false' })).toEqual({
      max_cost_usd: 2,
      max_latency_seconds: 90,
      max_tokens: 120000,
      require_citations: true,
      require_verification: false,
    });
    expect(validateConstraints(undefined)).toEqual({});
    expect(validateConstraints({ max_cost_usd: 0 })).toEqual({ max_cost_usd: 0 });
  });

  it.each([
    [{ max_cost_usd: -1 }, 'constraints.max_cost_usd', 'constraints.max_cost_usd: expected a non-negative number, got -1'],
    [{ max_cost_usd: Number.NaN }, 'constraints.max_cost_usd', 'constraints.max_cost_usd: expected a non-negative number, got NaN'],
    [{ max_latency_seconds: Number.POSITIVE_INFINITY }, 'constraints.max_latency_seconds', 'constraints.max_latency_seconds: expected a non-negative number, got Infinity'],
    [{ max_latency_seconds: 'soon' }, 'constraints.max_latency_seconds', 'constraints.max_latency_seconds: expected a non-negative number, got "soon"'],
    [{ max_tokens: '1e999' }, 'constraints.max_tokens', 'constraints.max_tokens: expected a non-negative number, got "1e999"'],
    [{ max_tokens: 10.5 }, 'constraints.max_tokens', 'constraints.max_tokens: expected a whole number of tokens, got 10.5'],
    [{ max_tokens: null }, 'constraints.max_tokens', 'constraints.max_tokens: expected a non-negative number, got null'],
    [{ require_citations: 'yes' }, 'constraints.require_citations', 'constraints.require_citations: expected true or false, got "yes"'],
    [{ max_budget: 1 }, 'constraints.max_budget', 'constraints.max_budget: unknown constraint; expected one of max_cost_usd, max_latency_seconds, max_tokens, require_citations, require_verification'],
    ['cheap', 'constraints', 'constraints: expected an object, got "cheap"'],
    [[1], 'constraints', 'constraints: expected an object, got an array'],
  ])('rejects %j', (raw, field, message) => {
    const error = rejection(raw);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });
});

describe('mergeConstraints', () => {
  it('lets a request tighten a config budget but not loosen it', () => {
    expect(mergeConstraints({ max_cost_usd: 5, max_tokens: 120000 }, { max_cost_usd: 2, max_tokens: 500000, require_citations: true })).toEqual({
      max_cost_usd: 2,
      max_tokens: 120000,
      require_citations: true,
    });
    expect(mergeConstraints({ require_verification: true }, { require_verification: false })).toEqual({ require_verification: true });
  });
});
