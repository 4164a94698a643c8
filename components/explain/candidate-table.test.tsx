import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { scorePlan } from '@/server/runtime/costmodel/plan-score';
import type { ExplainedCandidate } from '@/server/runtime/explain/explain-types';
import type { CandidateEstimates, CandidatePlan, PlanScoreWeights } from '@/server/runtime/types';
import { CandidateTable } from './candidate-table';

const WEIGHTS: PlanScoreWeights = { acc: 1, cost: 0.6, lat: 0.3, risk: 0.8, hall: 0.9, loss: 0.4, cache: 0.2, vrf: 0.5 };
const at = (value: number) => ({ value, low: value, high: value });
const ESTIMATES: CandidateEstimates = {
  accuracy: at(0.8), costUsd: at(0.01), latencySeconds: at(4), tokens: at(3000), risk: at(0.1),
  hallucination: at(0.2), contextLoss: at(0.15), cacheHit: at(0.3), verificationConfidence: at(0.7),
};

function candidate(id: string, options: Partial<Pick<ExplainedCandidate, 'chosen' | 'feasible' | 'violations'>> = {}): ExplainedCandidate {
  return { id, description: `plan ${id}`, choice: {} as CandidatePlan, estimates: ESTIMATES, score: scorePlan(ESTIMATES, WEIGHTS), feasible: true, violations: [], chosen: false, ...options };
}

const rowsOf = (html: string) => html.split('<tbody>')[1].split('</tr>').filter((row) => row.includes('<td'));

describe('CandidateTable', () => {
  const tooDear = { constraint: 'max_cost_usd', limit: 0.001, estimated: 0.01, message: 'over the cost cap' };
  const list = [candidate('a'), candidate('b', { feasible: false, violations: [tooDear] }), candidate('c'), candidate('d', { chosen: true })];

  it('shows every candidate in the explorer, the chosen one marked and an infeasible one with its violation', () => {
    const html = renderToStaticMarkup(<CandidateTable candidates={list} weights={WEIGHTS} />);
    expect(html).toContain('aria-label="Candidate plans"');
    expect(rowsOf(html)).toHaveLength(4);
    expect(html).toContain('<tr class="chosen" data-chosen="true" data-feasible="true">');
    expect(html).toContain('<tr class="infeasible" data-feasible="false">');
    expect(html).toContain('<code>max_cost_usd</code>: over the cost cap');
    expect(html).toContain('<th scope="col" class="num">Tokens</th>');
  });

  it('cuts EXPLAIN at its limit but keeps the chosen plan', () => {
    const html = renderToStaticMarkup(<CandidateTable candidates={list} weights={WEIGHTS} limit={2} />);
    const rows = rowsOf(html);
    expect(rows).toHaveLength(3);
    expect(rows[2]).toContain('plan d');
    expect(html).not.toContain('plan c');
  });
});
