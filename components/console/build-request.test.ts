import { describe, expect, it } from 'vitest';
import { buildConstraints, EMPTY_CONSTRAINTS } from './build-request';

describe('buildConstraints', () => {
  it('sends nothing for an untouched form', () => {
    expect(buildConstraints(EMPTY_CONSTRAINTS)).toEqual({});
  });

  it('sends typed numbers and checked boxes under their API names', () => {
    const constraints = buildConstraints({ maxCostUsd: ' 0.02 ', maxLatencySeconds: '8', maxTokens: '4000', requireCitations: true, requireVerification: false });
    expect(constraints).toEqual({ max_cost_usd: 0.02, max_latency_seconds: 8, max_tokens: 4000, require_citations: true });
  });

  it('passes an invalid number on so the runtime can name the field', () => {
    expect(buildConstraints({ ...EMPTY_CONSTRAINTS, maxCostUsd: '-1' })).toEqual({ max_cost_usd: -1 });
  });
});
