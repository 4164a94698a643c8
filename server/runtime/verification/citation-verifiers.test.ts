import { describe, expect, it } from 'vitest';
import type { ContextItem } from '../types';
import { mentions, namedEntities } from '../text/named-entities';
import { groundedCitationVerifier } from './citation-verifiers';

const item = (ref: number, title: string, text: string): ContextItem => ({
  ref,
  text,
  tokens: 40,
  compressed: false,
  hit: { chunkId: `c${ref}`, sourceName: 'logs', sourceKind: 'logs', sourceVersionId: 'v1', title, text, score: 1, rank: ref, method: 'bm25', tokens: 40 },
});

const postgresLine = '2025-11-30 23:41:09.671 UTC [51234] billing_worker@billing billing-worker LOG:  process 51234 still waiting for AccessExclusiveLock on relation 16433';
const oomLine = 'Warning OOMKilled pod/checkout-api-7d9f8b6c5-q8m2n (shop): Container checkout-api was OOMKilled: memory usage reached the limit of 256Mi';

describe('groundedCitationVerifier', () => {
  it('reads a bracketed process id quoted from a log line as content, not as a citation of item 51234', () => {
    const context = [item(1, 'billing-db-postgresql.log lines 1-20', postgresLine)];
    const answer = `Evidence:\n- ${postgresLine} [1]`;
    const verdict = groundedCitationVerifier.verify({ goal: 'Why did billing-worker stop producing invoices?', answer, citations: [], context });
    expect(verdict.checks.map((check) => [check.name, check.passed])).toEqual([['citation_coverage', true], ['groundedness', true], ['goal_entities', true]]);
    expect(verdict.passed).toBe(true);
  });

  it('still fails a citation of an item that is not in the context', () => {
    const context = [item(1, 'billing-worker.log', 'billing-worker timed out')];
    const verdict = groundedCitationVerifier.verify({ goal: 'Why did billing-worker fail?', answer: '- billing-worker timed out [7]', citations: [], context });
    expect(verdict.checks.find((check) => check.name === 'citation_coverage')).toMatchObject({ passed: false, detail: 'cites [7] which is not in the context' });
  });

  it('fails when the cited evidence is about another system than the one the goal names', () => {
    const context = [item(1, 'checkout-api-events.json', oomLine), item(2, 'billing-worker.log', 'billing-worker@1 start operation timed out')];
    const offGoal = groundedCitationVerifier.verify({ goal: 'Why did billing-worker stop producing invoices on 2025-11-30?', answer: `- ${oomLine} [1]`, citations: [], context });
    expect(offGoal.passed).toBe(false);
    expect(offGoal.checks.find((check) => check.name === 'goal_entities')).toMatchObject({ passed: false, score: 0, detail: 'no cited item mentions billing-worker' });
    const onGoal = groundedCitationVerifier.verify({ goal: 'Why did billing-worker stop producing invoices on 2025-11-30?', answer: '- billing-worker@1 start operation timed out [2]', citations: [], context });
    expect(onGoal.passed).toBe(true);
  });

  it('has no entity check for a goal that names no system', () => {
    const context = [item(1, 'runbook', 'Restart dunning-service after the key is rotated.')];
    const verdict = groundedCitationVerifier.verify({ goal: 'What has to be done after the payment provider key is rotated?', answer: '- Restart dunning-service after the key is rotated [1].', citations: [], context });
    expect(verdict.checks.map((check) => check.name)).toEqual(['citation_coverage', 'groundedness']);
  });
});

describe('namedEntities', () => {
  it('keeps identifier-shaped names and drops dates, numbers and common compounds', () => {
    expect(namedEntities('Why did billing-worker stop on 2025-11-30 at 23:41, and what did on-call do at start-up?')).toEqual(['billing-worker']);
    expect(namedEntities('What did commit 744c0b5 change for PS-4291 on invoice.generate?')).toEqual(['744c0b5', 'ps-4291', 'invoice.generate']);
  });

  it('matches a name as a whole token, a pod as its workload, a short SHA as its commit', () => {
    expect(mentions('pod/checkout-api-7d9f8b6c5-q8m2n was killed', 'checkout-api')).toBe(true);
    expect(mentions('the checkout-apis were fine', 'checkout-api')).toBe(false);
    expect(mentions('commit 744c0b5af741bca35c6798724bf3f683aa423715', '744c0b5')).toBe(true);
  });
});
