import { describe, expect, it } from 'vitest';
import { ruleIntentAnalyzer } from '../../server/runtime/planner/intent-analyzer';
import type { BeirDataset } from './beir-dataset';
import { type QueryRecord, reclassified } from './query-records';

const dataset = {
  name: 'claims',
  queries: [
    { id: 'q1', text: 'Incidence of 10/66 dementia is higher than the incidence of DSM-IV dementia.' },
    { id: 'q2', text: 'Who directed the film that won Best Picture in 1998?' },
  ],
} as unknown as BeirDataset;
const record = (id: string, intent: string): QueryRecord => ({ set: 'claims', id, intent, metric: 'ndcg@10', gold: ['d1'], scores: { bm25: 1 } });

describe('reused records read with the current analyzer', () => {
  it("re-reads each record's class from its query's text, keeping the rest of the record", () => {
    const [claim, question] = reclassified([record('q1', 'multi_hop'), record('q2', 'multi_hop')], dataset, ruleIntentAnalyzer);
    expect(claim).toEqual({ ...record('q1', 'multi_hop'), intent: 'conceptual' });
    expect(question.intent).toBe('multi_hop');
  });

  it('keeps the recorded class of a query the dataset does not hold', () => {
    expect(reclassified([record('elsewhere', 'incident')], dataset, ruleIntentAnalyzer)).toEqual([record('elsewhere', 'incident')]);
  });
});
