import { describe, expect, it } from 'vitest';
import { createNode } from '../ir/graph';
import type { Hit, SourceKind } from '../types';
import { namesEveryGoalName, namesSection, withSearchLeaders } from './fusion-leaders';

const hit = (chunkId: string, sourceKind: SourceKind, rank: number): Hit => ({ chunkId, sourceName: `print-${sourceKind}`, sourceKind, sourceVersionId: '1', title: chunkId, text: chunkId, score: 10 - rank, rank, method: 'bm25', tokens: 30 });
const search = (id: string, feedback = false) =>
  createNode('retrieve', { id, inputs: [], method: 'bm25', sources: ['print-docs', 'print-logs'], sourceKinds: 'all', k: 10, retry: { maxAttempts: 1, backoffMs: 0 }, timeoutMs: 1000, estimate: { tokens: 0, costUsd: 0, latencySeconds: 0 }, ...(feedback ? { feedback: { fromNode: 'first', documents: 3, terms: 3 } } : {}) });

describe('the leaders a fusion keeps in its first places', () => {
  // The goal's own search ranks the handbook's alert table first among the docs; the feedback search
  // repeats the log lines and "where to look first", so RRF puts the alert table tenth.
  const logs = Array.from({ length: 8 }, (_, index) => hit(`log-${index + 1}`, 'logs', index + 1));
  const goalsOwn = [logs[0], hit('handbook-alert-table', 'docs', 2), ...logs.slice(1, 4)];
  const feedback = [...logs, hit('handbook-where-to-look', 'docs', 9)];
  const fused = [...logs, hit('handbook-where-to-look', 'docs', 9), hit('handbook-alert-table', 'docs', 10)];
  const order = (hits: readonly Hit[]) => hits.map((entry) => entry.chunkId);

  it("raises the goal's own best item of a kind the goal names into the first eight", () => {
    const led = withSearchLeaders(fused, [goalsOwn, feedback], [search('first'), search('feedback', true)], ['docs']);
    expect(order(led).indexOf('handbook-alert-table')).toBe(7);
    expect(order(led).indexOf('handbook-where-to-look')).toBe(9);
  });

  it('raises the leader of each source of the kind, a second corpus leading the list or not', () => {
    const otherCorpus = { ...hit('other-service-observability', 'docs', 2), sourceName: 'shop-docs' };
    const twoCorpora = [logs[0], otherCorpus, hit('handbook-alert-table', 'docs', 3)];
    const led = order(withSearchLeaders([...fused, otherCorpus], [twoCorpora, feedback], [search('first'), search('feedback', true)], ['docs']));
    expect(led.slice(7, 9)).toEqual(['other-service-observability', 'handbook-alert-table']);
  });

  it('changes nothing for a goal that names no kind', () => {
    expect(order(withSearchLeaders(fused, [goalsOwn, feedback], [search('first'), search('feedback', true)]))).toEqual(order(fused));
  });

  it('raises a section the goal names by its heading into the first four (fresh f115)', () => {
    const freeze = { ...hit('handbook-change-freeze', 'docs', 9), locator: '§ Change freeze' };
    const ownList = [...logs.slice(0, 8), freeze];
    const fusedWithFreeze = [...logs, hit('handbook-where-to-look', 'docs', 9), freeze];
    const goal = 'Was the printer change merged during the Friday change freeze?';
    expect(order(withSearchLeaders(fusedWithFreeze, [ownList, feedback], [search('first'), search('feedback', true)], [], goal)).indexOf('handbook-change-freeze')).toBe(3);
    expect(namesSection(goal, freeze)).toBe(true);
    expect(namesSection('Is the change frozen?', freeze)).toBe(false);
    expect(namesSection(goal, { ...freeze, locator: '§ 3. Change' })).toBe(false);
    expect(namesSection(goal, { ...freeze, sourceKind: 'logs' })).toBe(false);
    // A one-word heading names what a what/which question asks for (fresh f129), not any word of it.
    const severity = { ...freeze, locator: '§ Severity' };
    expect(namesSection('The label run failed and is a clean re-run. What severity should I open it as?', severity)).toBe(true);
    expect(namesSection('How bad is the severity of the spooler outage?', severity)).toBe(false);
    expect(namesSection('What changed in the freeze?', { ...freeze, locator: '§ Freeze' })).toBe(false);
  });

  it('raises a named section found by a second search of the goal, or kept by the fusion a hop fuses again (dev d41)', () => {
    const freeze = { ...hit('handbook-change-freeze', 'docs', 9), locator: '§ Change freeze' };
    const goal = 'Was the printer change merged during the Friday change freeze?';
    const fusedWithFreeze = [...logs, hit('handbook-where-to-look', 'docs', 9), freeze];
    // The graph search, listed first, did not find it; the bm25 search did.
    const led = withSearchLeaders(fusedWithFreeze, [logs, [...logs.slice(0, 3), freeze]], [search('graph'), search('bm25')], [], goal);
    expect(order(led).indexOf('handbook-change-freeze')).toBe(3);
    // A hop's fusion: the earlier fusion (no search node of its own) and the bridge search.
    const bridge = createNode('retrieve', { ...search('retrieve-hop1'), bridgeFrom: 'reason-hop1' });
    const hopLed = withSearchLeaders(fusedWithFreeze, [[...logs.slice(0, 3), freeze], logs], [undefined, bridge], [], goal);
    expect(order(hopLed).indexOf('handbook-change-freeze')).toBe(3);
  });

  it("raises the goal's own best hit naming every name the goal gives into the first four (fresh f92)", () => {
    const goal = 'The PRN-INC-007 postmortem says SpoolJobFailed only looked at the label-jobs queue. What does that alert rule match today?';
    const commit = { ...hit('commit-alert-every-queue', 'git', 3), text: 'Alert on failed jobs of every queue. SpoolJobFailed only matched label-jobs, so nothing paged (PRN-INC-007).' };
    const ownList = [logs[0], hit('postmortem-summary', 'docs', 2), commit];
    const fusedWithCommit = [...logs.slice(0, 6), commit, hit('postmortem-summary', 'docs', 8)];
    expect(order(withSearchLeaders(fusedWithCommit, [ownList, feedback], [search('first'), search('feedback', true)], [], goal)).indexOf('commit-alert-every-queue')).toBe(3);
    expect(namesEveryGoalName(goal, commit.text)).toBe(true);
    expect(namesEveryGoalName(goal, 'SpoolJobFailed fires for label-jobs.')).toBe(false);
    // One name is what every hit of the search shares: it singles nothing out.
    expect(namesEveryGoalName('Why did label-jobs stop?', 'label-jobs stopped at 09:14.')).toBe(false);
  });
});
