import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyTunedValues } from './tuned-config-writer';

const ORIGINAL = `# operator's notes: keep me
retrieval:
  # depth of each retriever
  top_k: 20
  final_k: 8
costmodel:
  weights: # PlanScore
    acc: 1.0
    cost: 0.6
    lat: 0.3
    risk: 0.8
    hall: 0.9
    loss: 0.4
    cache: 0.2
    vrf: 0.5
plan_cache:
  enabled: false # on purpose
`;

describe('applyTunedValues', () => {
  it('changes only the tuned keys and keeps every comment', () => {
    const text = applyTunedValues(ORIGINAL, [
      [['retrieval', 'top_k'], 50],
      [['costmodel', 'weights', 'cost'], 0.25],
    ]);
    for (const comment of ["# operator's notes: keep me", '# depth of each retriever', '# PlanScore', '# on purpose']) expect(text).toContain(comment);
    expect(parse(text)).toEqual({ retrieval: { top_k: 50, final_k: 8 }, costmodel: { weights: { acc: 1, cost: 0.25, lat: 0.3, risk: 0.8, hall: 0.9, loss: 0.4, cache: 0.2, vrf: 0.5 } }, plan_cache: { enabled: false } });
  });

  it('creates missing sections in an empty file', () => {
    expect(parse(applyTunedValues('', [[['retrieval', 'top_k'], 30]]))).toEqual({ retrieval: { top_k: 30 } });
  });

  it('refuses values the config schema rejects, and broken YAML', () => {
    expect(() => applyTunedValues(ORIGINAL, [[['retrieval', 'top_k'], -1]])).toThrow(/retrieval\.top_k/);
    expect(() => applyTunedValues('retrieval: [unclosed', [[['retrieval', 'top_k'], 30]])).toThrow();
  });
});
