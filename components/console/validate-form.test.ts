import { describe, expect, it } from 'vitest';
import { DEFAULT_CONSTRAINTS } from './build-request';
import { canSubmit, describeServerMessage, validateConsoleForm } from './validate-form';

const form = { goal: 'why did checkout-api fail', sources: null, constraints: DEFAULT_CONSTRAINTS };

describe('validateConsoleForm', () => {
  it('accepts the untouched form', () => {
    expect(validateConsoleForm(form)).toEqual({});
    expect(canSubmit(form, {})).toBe(true);
  });

  it('names each bad number by its label, in words', () => {
    const errors = validateConsoleForm({ ...form, constraints: { ...DEFAULT_CONSTRAINTS, maxCostUsd: 'abc', maxLatencySeconds: '0', maxTokens: '12.5' } });
    expect(errors).toEqual({
      maxCostUsd: 'Max cost (USD) must be a number of dollars, 0 or more (for example 0.05)',
      maxLatencySeconds: 'Max latency (seconds) must be a positive number',
      maxTokens: 'Max tokens must be a whole number greater than 0',
    });
    expect(canSubmit(form, errors)).toBe(false);
  });

  it('refuses an empty source selection and an empty goal', () => {
    expect(validateConsoleForm({ ...form, sources: [] })).toEqual({ sources: 'Pick at least one source.' });
    expect(canSubmit({ ...form, goal: '  \n ' }, {})).toBe(false);
  });

  it('allows a 15,000-character goal and refuses one over 16,000', () => {
    expect(validateConsoleForm({ ...form, goal: 'x'.repeat(15_000) })).toEqual({});
    expect(validateConsoleForm({ ...form, goal: 'x'.repeat(16_001) }).goal).toBe('Goal must be at most 16,000 characters (it has 16,001)');
  });
});

describe('describeServerMessage', () => {
  it('puts the label where the runtime put the field path', () => {
    expect(describeServerMessage('constraints.max_latency_seconds: expected a non-negative number, got "x"', 'constraints.max_latency_seconds')).toBe('Max latency (seconds): expected a non-negative number, got "x"');
  });

  it('rewrites constraint names inside a message', () => {
    const text = describeServerMessage('No candidate plan satisfies max_latency_seconds ≤ 0.001 (40 scored); nearest plan fails: max_latency_seconds: estimated 0.1', null);
    expect(text).not.toMatch(/max_latency_seconds/);
    expect(text).toContain('“Max latency (seconds)” ≤ 0.001');
  });
});
