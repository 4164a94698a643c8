import { describe, expect, it } from 'vitest';
import type { RetrieverCapabilities, RetrieverPlugin } from '../contracts/retriever';
import type { ExecutionGraph } from '../ir/graph';
import type { Hit } from '../types';
import { byKeyedQueryTerms, changesWhatGoalNames, lookupParts, setsAskedSetting, settingChanges, settingLookupHop, settingLookupRank, withSettingChange, withSettingLookup } from './setting-lookup';

const capability = (method: string, lookupOnly: boolean): RetrieverCapabilities => ({ method, available: true, requires: [], latencyMs: 1, recallPrior: {}, ...(lookupOnly ? { lookupOnly } : {}) }) as RetrieverCapabilities;
const hopInput = { retry: { maxAttempts: 1, backoffMs: 0 }, timeoutMs: 1000, sourceKinds: ['docs', 'git'] as const, estimateOf: () => ({ tokens: 1, costUsd: 0, latencySeconds: 0.001 }) };
const hit = (chunkId: string, text = chunkId): Hit => ({ chunkId, sourceName: 'kdp-git', sourceKind: 'git', sourceVersionId: 'v', title: chunkId, text, score: 1, rank: 1, method: 'bm25', tokens: 10, sensitive: false });

describe('settingLookupHop', () => {
  it('searches the git sources in scope with a retriever that can read lookup-only passages', () => {
    const node = settingLookupHop({ ...hopInput, sources: ['kdp-git'], retrievers: [capability('rerank', false), capability('bm25', true)] });
    expect(node).toMatchObject({ kind: 'retrieve', id: 'retrieve-bm25-settings', method: 'bm25', sources: ['kdp-git'], lookupOnly: true, k: 3, inputs: [] });
    expect(node?.note).toContain('configured value');
  });

  it('is not planned without a git source in scope or a retriever that can search such passages', () => {
    expect(settingLookupHop({ ...hopInput, sources: [], retrievers: [capability('bm25', true)] })).toBeUndefined();
    expect(settingLookupHop({ ...hopInput, sources: ['kdp-git'], retrievers: [capability('fulltext', false)] })).toBeUndefined();
  });

  it('adds the setting words the goal describes to its query, shown as the node\'s expansion', () => {
    const node = settingLookupHop({ ...hopInput, sources: ['kdp-git'], terms: ['timeout'], retrievers: [capability('bm25', true)] });
    expect(node?.queryExpansion).toEqual(['timeout']);
    expect(settingLookupHop({ ...hopInput, sources: ['kdp-git'], terms: [], retrievers: [capability('bm25', true)] })).not.toHaveProperty('queryExpansion');
  });
});

describe('withSettingLookup', () => {
  const ranked = ['a', 'b', 'c', 'd'].map((id) => hit(id));

  it('adds the best part at the given rank, the general order otherwise unchanged', () => {
    const placed = withSettingLookup(ranked, [[hit('part-1'), hit('part-2')]], 3);
    expect(placed.map((entry) => entry.chunkId)).toEqual(['a', 'b', 'part-1', 'c', 'd']);
    expect(placed.map((entry) => entry.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(placed.map((entry) => entry.lookupPlaced === true)).toEqual([false, false, true, false, false]);
  });

  it('marks it when it alone names a name of the goal among the items before its place, as a whole name (fresh f214)', () => {
    const topics = hit('topics-part', 'label-jobs-audit:\n  partitions: 6');
    const subjects = hit('subjects', 'label-jobs-audit-value: BACKWARD');
    const names = new Set(['label-jobs-audit']);
    expect(withSettingLookup([subjects, ...ranked], [[topics]], 3, names).find((entry) => entry.chunkId === 'topics-part')?.lookupNamesGoalAlone).toBe(true);
    const naming = hit('runbook', 'Retention of label-jobs-audit is 3 days.');
    expect(withSettingLookup([naming, ...ranked], [[topics]], 3, names).find((entry) => entry.chunkId === 'topics-part')).not.toHaveProperty('lookupNamesGoalAlone');
    expect(withSettingLookup(ranked, [[topics]], 3).find((entry) => entry.chunkId === 'topics-part')).not.toHaveProperty('lookupNamesGoalAlone');
  });

  it('appends it after a shorter list, keeps it where it already ranks higher, and changes nothing without a part', () => {
    expect(withSettingLookup(ranked.slice(0, 1), [[hit('part-1')]], 9).map((entry) => entry.chunkId)).toEqual(['a', 'part-1']);
    expect(withSettingLookup(ranked, [[hit('b')]], 3)).toBe(ranked);
    expect(withSettingLookup(ranked, [[]], 3)).toBe(ranked);
  });

  it('takes the rank from the context the plan made one item longer', () => {
    const graph = { nodes: [{ kind: 'assemble', id: 'assemble', inputs: [], finalK: 9, tokenBudget: 3000 }] } as unknown as ExecutionGraph;
    expect(settingLookupRank(graph)).toBe(9);
  });
});

describe('lookupParts', () => {
  const node = settingLookupHop({ ...hopInput, sources: ['kdp-git', 'demo-git'], retrievers: [capability('bm25', true)] })!;
  const query = { text: 'memory limit of eta-api', k: 3, sources: ['kdp-git', 'demo-git'], identifiers: [] };

  it('keeps only parts about what the goal names', async () => {
    const retriever = { searchLookupOnly: async () => [hit('checkout', 'checkout-api limits memory 512Mi'), hit('eta', 'eta-api limits memory 3Gi')] } as unknown as RetrieverPlugin;
    const parts = await lookupParts(retriever, node, query, () => ['eta-api']);
    expect(parts.map((part) => part.chunkId)).toEqual(['eta']);
  });

  it('fails the node when the retriever cannot search lookup-only passages', async () => {
    await expect(lookupParts({} as RetrieverPlugin, node, query, () => [])).rejects.toThrow(/cannot search lookup-only passages/);
  });
});

describe('settingChanges', () => {
  const commit = (sha: string, subject: string, path: string, added: string) =>
    `commit ${sha}\nAuthor: Ana Lima <ana@print.example>\nDate:   2026-02-19T14:10:00+01:00\n\n    ${subject}\n\ndiff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -14,1 +14,1 @@\n-    old line\n+    ${added}\n`;
  const retryChange = commit('06f94e1', 'render_hourly: 3 retries instead of 1', 'dags/render_hourly.py', 'default_args={"retries": 3, "retry_delay": timedelta(minutes=5)},');
  const replicasChange = commit('2c7f3a8', 'print-gw: 6 replicas', 'helm/print-gw/values.yaml', 'replicaCount: 6');
  const otherMemory = commit('9d1e2f3', 'Lower the memory limit', 'k8s/label-api/deployment.yaml', 'limits: {memory: 256Mi}');
  const goal = 'The hourly render DAG failed. How long does the scheduler wait before it retries?';
  const terms = ['retry', 'delay', 'interval'];

  it('keeps a commit whose added lines set an asked setting of what the goal names (fresh f62)', () => {
    expect(setsAskedSetting(retryChange, terms)).toBe(true);
    expect(setsAskedSetting(replicasChange, terms)).toBe(false);
    expect(setsAskedSetting(retryChange, [])).toBe(false);
    expect(changesWhatGoalNames(retryChange, goal, terms)).toBe(true);
    // The same setting words on another system's file, the goal naming nothing the anchors could scope by (fresh f63).
    expect(changesWhatGoalNames(otherMemory, 'how much memory is the render pod allowed to use before it is killed?', ['memory', 'limit'])).toBe(false);
  });

  it('searches the ordinary chunks of the git sources and keeps only such commits', async () => {
    const retriever = { search: async () => [hit('replicas', replicasChange), hit('retry', retryChange)] } as unknown as RetrieverPlugin;
    const query = { text: goal, k: 3, sources: ['print-git'], identifiers: [] };
    expect((await settingChanges(retriever, query, goal, terms, () => [])).map((found) => found.chunkId)).toEqual(['retry']);
    expect(await settingChanges(retriever, query, goal, [], () => [])).toEqual([]);
  });

  it('places the best change the context does not hold before the lookup part, both kept by assembly', () => {
    const ranked = ['a', 'b', 'c'].map((id) => hit(id));
    const withPart = withSettingLookup(ranked, [[hit('part-1')]], 3);
    const placed = withSettingChange(withPart, [[hit('a'), hit('change-1')]], 3);
    expect(placed.map((entry) => entry.chunkId)).toEqual(['a', 'b', 'change-1', 'part-1', 'c']);
    expect(placed.filter((entry) => entry.lookupPlaced).map((entry) => entry.chunkId)).toEqual(['change-1', 'part-1']);
    expect(withSettingChange(withPart, [[hit('a')]], 3)).toBe(withPart);
  });
});

describe('byKeyedQueryTerms', () => {
  it('puts first the part whose setting key holds the most query words, the search order among equals (fresh f66)', () => {
    const policy = hit('policy', '@@ -0,0 +1,3 @@\n+  resources = [\n+    "arn:aws:s3:::print-lake-raw/labels/*",\n+    "arn:aws:s3:::print-lake-raw/jobs/*",');
    const connector = hit('connector', '@@ -0,0 +1,3 @@\n+    "s3.bucket.name": "print-lake-raw",\n+    "parquet.codec": "snappy",');
    const topics = hit('topics', '@@ -0,0 +1,2 @@\n+    compression.type: zstd');
    const query = 'What compression codec are the Parquet files that land in print-lake-raw written with?';
    expect(byKeyedQueryTerms([policy, topics, connector], query).map((part) => part.chunkId)).toEqual(['connector', 'topics', 'policy']);
    expect(byKeyedQueryTerms([policy, topics], 'Who owns the lake?').map((part) => part.chunkId)).toEqual(['policy', 'topics']);
  });
});
