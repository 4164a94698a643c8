import { describe, expect, it } from 'vitest';
import { describeCandidate, formatMisestimate, formatUsd, misestimateSeverity } from './format';

describe('misestimateSeverity', () => {
  it('colours at 10×, 100× and 1000× in either direction', () => {
    expect(misestimateSeverity(1.5)).toBe('fine');
    expect(misestimateSeverity(12)).toBe('x10');
    expect(misestimateSeverity(1 / 150)).toBe('x100');
    expect(misestimateSeverity(2500)).toBe('x1000');
    expect(misestimateSeverity(0)).toBe('x1000');
  });
});

describe('formatMisestimate', () => {
  it('shows direction and magnitude', () => {
    expect(formatMisestimate({ factor: 3.25, direction: 'under' })).toBe('↑ ×3.3');
    expect(formatMisestimate({ factor: 0.02, direction: 'over' })).toBe('↓ ×50');
    expect(formatMisestimate({ factor: 1, direction: 'exact' })).toBe('×1');
  });
});

describe('formatUsd', () => {
  it('keeps two significant digits for sub-cent costs', () => {
    expect(formatUsd(0.000123)).toBe('$0.00012');
    expect(formatUsd(0.5)).toBe('$0.500');
  });
});

describe('describeCandidate', () => {
  it('summarises a plan without a description', () => {
    const plan = { id: 'c1', retrieval: ['bm25', 'exact'], sourceKinds: ['logs', 'git'], topK: 8, modelTier: 'local', reasoning: 'single_shot', compression: 'clip', verification: 'citation', shape: 'parallel', approval: false } as const;
    expect(describeCandidate(plan)).toBe('bm25+exact over logs+git → local/single_shot, clip, citation');
    expect(describeCandidate({ description: 'every dense plan' })).toBe('every dense plan');
  });
});
