import { describe, expect, it } from 'vitest';
import { buildConstraints, DEFAULT_CONSTRAINTS } from './build-request';

describe('buildConstraints', () => {
  it('starts with citations and verification on, as the runtime and CLI run by default', () => {
    expect(DEFAULT_CONSTRAINTS).toMatchObject({ requireCitations: true, requireVerification: true });
    expect(buildConstraints(DEFAULT_CONSTRAINTS)).toEqual({ require_verification: true });
  });

  it('sends typed numbers and unchecked boxes under their API names', () => {
    const constraints = buildConstraints({ maxCostUsd: ' 0.02 ', maxLatencySeconds: '8', maxTokens: '4000', requireCitations: false, requireVerification: false });
    expect(constraints).toEqual({ max_cost_usd: 0.02, max_latency_seconds: 8, max_tokens: 4000, require_citations: false, require_verification: false });
  });
});
