import { describe, expect, it } from 'vitest';
import { RETRIEVER_CONTRACT, type RetrieverPlugin } from '../contracts/retriever';
import { askedExtreme, asksExtreme } from '../text/reading-question';
import type { Hit, SourceKind } from '../types';
import { seriesSummariesFirst } from './series-summaries-first';
import { stratifiedRetrieveIds } from './testing/stratified-retrieve';

const hit = (chunkId: string, sourceName: string, sourceKind: SourceKind, score: number, locator: string): Hit => ({
  chunkId, sourceName, sourceKind, sourceVersionId: `${sourceName}-1`, title: `${sourceName} ${locator}`, text: `${chunkId} text`, score, rank: 1, method: 'bm25', tokens: 30, locator,
});

// A print team's metrics: raw row windows repeat the queue's name on every row; the spool disk's series summary says its peak.
const METRICS: readonly Hit[] = [
  hit('rows-1', 'print-metrics', 'metrics', 9.0, 'rows 1–6'),
  hit('rows-7', 'print-metrics', 'metrics', 8.9, 'rows 7–12'),
  hit('rows-13', 'print-metrics', 'metrics', 8.8, 'rows 13–18'),
  hit('rows-19', 'print-metrics', 'metrics', 8.7, 'rows 19–24'),
  hit('disk-series', 'print-metrics', 'metrics', 8.5, 'series prn-01/disk_used_pct'),
];
const DOCS: readonly Hit[] = [hit('runbook', 'print-docs', 'docs', 9.5, '§ Spool disk'), hit('overview', 'print-docs', 'docs', 6.0, '§ Overview')];

describe('series summaries first within their source', () => {
  it('reads which questions ask for an extreme over a series', () => {
    expect(asksExtreme('What was the highest reading of the spool disk over the weekend?')).toBe(true);
    expect(asksExtreme('Was prn-01 ever close to its alert level on Saturday?')).toBe(true);
    expect(asksExtreme('When did the queue depth peak?')).toBe(true);
    expect(asksExtreme('How full was the spool disk at 09:00 UTC?')).toBe(false);
    expect(asksExtreme('Which team owns spoolerd?')).toBe(false);
  });

  it("puts the summary of the series the goal names before the source's other summaries, a stats locator's field list aside", () => {
    const logs = [
      hit('lines-1', 'print-logs', 'logs', 9.0, 'lines 1–3'),
      hit('p50', 'print-logs', 'logs', 8.0, 'stats p50 of jobs p50 p99 jam_rate'),
      hit('jobs', 'print-logs', 'logs', 7.9, 'stats jobs of jobs p50 p99 jam_rate'),
      hit('jam', 'print-logs', 'logs', 7.5, 'stats jam_rate of jobs p50 p99 jam_rate'),
    ];
    expect(seriesSummariesFirst(logs, 'What was the highest jam rate spoolerd reported on Friday?').map((entry) => entry.chunkId)).toEqual(['jam', 'p50', 'jobs', 'lines-1']);
    expect(seriesSummariesFirst(logs).map((entry) => entry.chunkId)).toEqual(['p50', 'jobs', 'jam', 'lines-1']);
  });

  it('reads "how stale did it get" as asking for the highest reading, "how low did it go" for the lowest', () => {
    expect(askedExtreme('How stale did the spool_report table get on 24 March?')).toBe('highest');
    expect(askedExtreme('How high did the render queue go?')).toBe('highest');
    expect(askedExtreme('How low did free spool space drop on Friday?')).toBe('lowest');
    expect(askedExtreme('What was the minimum queue depth?')).toBe('lowest');
    // The verb must follow its subject: a later "sink" or "drop" in another clause asks for no extreme.
    expect(askedExtreme('How full did monitoring show the disk on Friday, just before the job would drop its files?')).toBeUndefined();
    // Nor does the asker's own wait, or an infinitive after the subject.
    expect(askedExtreme('How quickly do I get paged when the spooler stops?')).toBeUndefined();
    expect(askedExtreme('How long does it take to get a stuck queue drained?')).toBeUndefined();
  });

  it('moves a source summary to the first place its source holds, leaving other sources where they are', () => {
    const mixed = [DOCS[0], METRICS[0], DOCS[1], METRICS[1], METRICS[4]];
    expect(seriesSummariesFirst(mixed).map((entry) => entry.chunkId)).toEqual(['runbook', 'disk-series', 'overview', 'rows-1', 'rows-7']);
    expect(seriesSummariesFirst(DOCS).map((entry) => entry.chunkId)).toEqual(['runbook', 'overview']);
  });

  const run = (goal: string) => {
    const lists: Record<string, readonly Hit[]> = { 'print-metrics': METRICS, 'print-docs': DOCS };
    const retriever: RetrieverPlugin = {
      contract: RETRIEVER_CONTRACT,
      method: 'bm25',
      capabilities: () => ({ method: 'bm25', available: true, latencyMs: 5, requires: [], recallPrior: {}, sharedScoreScale: true }),
      search: async (query) => query.sources.flatMap((source) => lists[source] ?? []).slice(0, query.k),
    };
    return stratifiedRetrieveIds(retriever, goal, Object.keys(lists), 6);
  };

  it("lets a stratified retrieve reach past a source's first rows for its summary when the goal asks for an extreme", async () => {
    const extreme = await run('What was the highest reading of the spool disk over the weekend?');
    expect(extreme.filter((id) => !DOCS.some((entry) => entry.chunkId === id))[0]).toBe('disk-series');
    expect(extreme.filter((id) => id.startsWith('rows')).length).toBe(2);
    // Any other question keeps the source's own order and depth.
    expect(await run('How full was the spool disk at 09:00 UTC?')).not.toContain('disk-series');
  });
});
