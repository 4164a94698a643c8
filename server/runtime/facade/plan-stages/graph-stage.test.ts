import { describe, expect, it } from 'vitest';
import { tokenAllowance } from './graph-stage';

describe('tokenAllowance', () => {
  it('keeps the configured context budget and the full answer allowance without a cap', () => {
    expect(tokenAllowance(3000, undefined)).toEqual({ tokenBudget: 3000, maxOutputTokens: 600 });
  });

  it('leaves room under max_tokens for the answer and the prompt around the evidence', () => {
    const { tokenBudget, maxOutputTokens } = tokenAllowance(3000, 2000);
    expect(maxOutputTokens).toBe(500);
    // The run budget admits a call only if prompt + output allowance fit the cap.
    expect(tokenBudget + maxOutputTokens).toBeLessThan(2000);
    expect(tokenBudget).toBeGreaterThan(800);
  });

  it('never gives the evidence more than the configured budget, nor a negative one', () => {
    expect(tokenAllowance(800, 100_000).tokenBudget).toBe(800);
    expect(tokenAllowance(800, 50)).toEqual({ tokenBudget: 0, maxOutputTokens: 64 });
  });
});
