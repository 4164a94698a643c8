import { describe, expect, it } from 'vitest';
import type { CompressedOutput } from '../ir/node-outputs';
import type { CandidateEstimates, ContextItem, Estimate, SourceKind } from '../types';
import { assembleContext } from './assemble-context';
import { buildExecutionGraph, type GraphBuildInput } from './graph-builder';
import { kindsNamedByWord } from '../planner/named-source-kinds';

const item = (ref: number, sourceName: string, sourceKind: SourceKind): ContextItem => ({
  ref,
  text: `${sourceName} item ${ref}`,
  tokens: 50,
  compressed: false,
  hit: { chunkId: `c${ref}`, sourceName, sourceKind, sourceVersionId: 'v1', title: sourceName, text: `${sourceName} item ${ref}`, score: 1 / ref, rank: ref, method: 'rerank', tokens: 50 },
});
// A reranker that prefers prose: ten runbook sections first, the spool log's lines 11th and 12th.
const RANKED = [...Array.from({ length: 10 }, (_, index) => item(index + 1, 'runbooks', 'docs')), item(11, 'spool-logs', 'logs'), item(12, 'spool-logs', 'logs')];
const compressed = (items: readonly ContextItem[]): CompressedOutput => ({ items, tokensBefore: 600, tokensAfter: 600, omitted: [] });
const sourcesOf = (assembled: ReturnType<typeof assembleContext>) => assembled.items.map((entry) => `${entry.hit.sourceName}#${entry.hit.rank}`);

describe('assembling the context when the goal names a kind of source', () => {
  it('gives the named kind its best two items in place of the last items of a kind not named, in rank order', () => {
    const plain = assembleContext(compressed(RANKED), 3000, 8);
    expect(sourcesOf(plain).every((entry) => entry.startsWith('runbooks'))).toBe(true);
    const covered = assembleContext(compressed(RANKED), 3000, 8, false, ['logs']);
    expect(sourcesOf(covered)).toEqual(['runbooks#1', 'runbooks#2', 'runbooks#3', 'runbooks#4', 'runbooks#5', 'runbooks#6', 'spool-logs#11', 'spool-logs#12']);
    expect(covered.items.map((entry) => entry.ref)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(covered.dropped.map((entry) => entry.chunkId)).toEqual(['c7', 'c8', 'c9', 'c10']);
    expect(covered.dropped[0].why).toBe('gave its place to the best logs item, a kind the goal names');
    expect(covered.dropped[1].why).toBe('gave its place to the best logs item, a kind the goal names');
    expect(covered.dropped[2].why).toBe('below the top 8');
  });

  it('weighs a raised item of the named kind as the first when the budget binds, so a general item goes instead', () => {
    // Eight items of 50 tokens and a budget of 390: one must go. Unraised, the last (the second log) would.
    const covered = assembleContext(compressed(RANKED), 390, 8, false, ['logs']);
    expect(sourcesOf(covered)).toEqual(['runbooks#1', 'runbooks#2', 'runbooks#3', 'runbooks#4', 'runbooks#5', 'spool-logs#11', 'spool-logs#12']);
    expect(covered.dropped[0]).toMatchObject({ chunkId: 'c6', why: 'over the 390-token budget' });
  });

  it('tops up a named kind that has one item in the head, and changes nothing when it has two or none was retrieved', () => {
    const oneLog = [item(1, 'spool-logs', 'logs'), ...RANKED.slice(0, 10).map((entry, index) => ({ ...entry, ref: index + 2 })), item(12, 'spool-logs', 'logs')];
    expect(sourcesOf(assembleContext(compressed(oneLog), 3000, 8, false, ['logs']))).toEqual(['spool-logs#1', 'runbooks#1', 'runbooks#2', 'runbooks#3', 'runbooks#4', 'runbooks#5', 'runbooks#6', 'spool-logs#12']);
    const logFirst = [item(1, 'spool-logs', 'logs'), item(2, 'spool-logs', 'logs'), ...RANKED.slice(0, 10).map((entry, index) => ({ ...entry, ref: index + 3 }))];
    expect(sourcesOf(assembleContext(compressed(logFirst), 3000, 8, false, ['logs']))).toEqual(sourcesOf(assembleContext(compressed(logFirst), 3000, 8)));
    const docsOnly = RANKED.slice(0, 10);
    expect(sourcesOf(assembleContext(compressed(docsOnly), 3000, 8, false, ['git']))).toEqual(sourcesOf(assembleContext(compressed(docsOnly), 3000, 8)));
  });
});

const point = (value: number): Estimate => ({ value, low: value, high: value });
const estimates: CandidateEstimates = {
  accuracy: point(0.8), costUsd: point(0.002), latencySeconds: point(1), tokens: point(2400), risk: point(0.1),
  hallucination: point(0.1), contextLoss: point(0), cacheHit: point(0), verificationConfidence: point(0.5),
};
const graphInput = (goal: string): GraphBuildInput => ({
  candidate: { id: 'c1', retrieval: ['rerank'], sourceKinds: 'all', topK: 20, modelTier: 'local', reasoning: 'single_shot', compression: 'none', verification: 'citation', shape: 'sequential', approval: false },
  estimates, sources: ['runbooks', 'spool-logs'], retrievers: [{ method: 'rerank', available: true, requires: [], latencyMs: 2, recallPrior: { default: 0.7 } }],
  tokenBudget: 3000, finalK: 8, meanChunkTokens: 40, localOnly: true, requireCitations: true, approvalReason: '', maxOutputTokens: 400,
  retry: { maxAttempts: 1, backoffMs: 0 }, nodeTimeoutMs: 1000, intentClasses: ['conceptual'], observationSources: ['spool-logs'], coverKinds: kindsNamedByWord(goal),
});

describe('the assemble node of a plan', () => {
  it('carries the kinds the goal names by word, and none for a goal that names none', () => {
    const assembleOf = (goal: string) => buildExecutionGraph(graphInput(goal)).nodes.find((node) => node.kind === 'assemble');
    expect(assembleOf('How many jobs had the spooler dropped by noon, going by the queue line the spool log prints?')).toMatchObject({ coverKinds: ['logs'], note: expect.stringContaining('(logs)') });
    expect(assembleOf('How many jobs may the spool queue hold?')).not.toHaveProperty('coverKinds');
  });
});

describe('a setting lookup\'s part in the place the plan added for it', () => {
  it('keeps it when covering each source would push the last item out, and the budget still weighs it as the last', () => {
    const general = [...RANKED.slice(0, 7), item(8, 'spool-git', 'git')];
    const part: ContextItem = { ...item(9, 'spool-git', 'git'), hit: { ...item(9, 'spool-git', 'git').hit, lookupPlaced: true } };
    const placed = [...general, part, item(10, 'spool-logs', 'logs')];
    expect(sourcesOf(assembleContext(compressed(placed), 3000, 9, true))).toEqual(['runbooks#1', 'runbooks#2', 'runbooks#3', 'runbooks#4', 'runbooks#5', 'runbooks#6', 'spool-git#8', 'spool-git#9', 'spool-logs#10']);
    const unplaced = [...general, item(9, 'spool-git', 'git'), item(10, 'spool-logs', 'logs')];
    expect(sourcesOf(assembleContext(compressed(unplaced), 3000, 9, true))).not.toContain('spool-git#9');
    expect(sourcesOf(assembleContext(compressed(placed), 8 * 50, 9, true))).not.toContain('spool-git#9');
  });

  it('weighs it as the first when it alone names what the goal names (fresh f214)', () => {
    const general = [...RANKED.slice(0, 7), item(8, 'spool-git', 'git')];
    const part = item(9, 'spool-git', 'git');
    const alone: ContextItem = { ...part, hit: { ...part.hit, lookupPlaced: true, lookupNamesGoalAlone: true } };
    expect(sourcesOf(assembleContext(compressed([...general, alone]), 8 * 50, 9, true))).toContain('spool-git#9');
  });
});
