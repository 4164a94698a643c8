import { describe, expect, it } from 'vitest';
import { checkCaps, describeFit, fitOf, formatQuoteUsd } from './quote-fit';

const estimate = (low: number, value: number, high: number) => ({ low, value, high });

describe('formatQuoteUsd', () => {
  it('never prints exponent notation', () => {
    expect(formatQuoteUsd(2.4e-7)).toBe('< $0.000001');
    expect(formatQuoteUsd(2.4e-6)).toBe('$0.0000024');
    expect(formatQuoteUsd(0.000123)).toBe('$0.00012');
    expect(formatQuoteUsd(0.05)).toBe('$0.05');
    expect(formatQuoteUsd(0.5)).toBe('$0.5');
    expect(formatQuoteUsd(0)).toBe('$0');
    expect(formatQuoteUsd(12.345)).toBe('$12.35');
    for (const value of [1e-9, 3.3e-7, 7e-5, 0.0042]) expect(formatQuoteUsd(value)).not.toMatch(/e/i);
  });
});

describe('fitOf and checkCaps', () => {
  it('says fits, may exceed or exceeds from the interval against the cap', () => {
    expect(fitOf(estimate(0, 0.01, 0.02), 0.05)).toBe('fits');
    expect(fitOf(estimate(0.01, 0.04, 0.08), 0.05)).toBe('may_exceed');
    expect(fitOf(estimate(0.06, 0.07, 0.08), 0.05)).toBe('exceeds');
  });

  it('checks only the caps that are set, naming the cap', () => {
    const expected = { costUsd: estimate(0, 0, 2.4e-7), latencySeconds: estimate(0.02, 0.1, 0.9), tokens: estimate(500, 2000, 9000) };
    const checks = checkCaps(expected, { max_cost_usd: 0.05, max_latency_seconds: 0.5 });
    expect(checks.map(describeFit)).toEqual(['Cost fits the $0.05 cap', 'Latency may exceed the 0.5 s cap']);
    expect(checkCaps(expected, {})).toEqual([]);
  });
});
