import type { Hit } from '../types';

/**
 * Ingest writes one summary chunk per metric series and per log stats series beside the raw rows
 * and lines (csv-metrics-parser.ts, log-stat-series.ts): its locator says so.
 */
const SUMMARY_LOCATOR = /^(?:series|stats) /;
const isSeriesSummary = (hit: Hit) => SUMMARY_LOCATOR.test(hit.locator ?? '');

/**
 * Within each source, its series summaries take the first places its hits hold, in their own order;
 * every other hit keeps its order in the places left. Asked for the highest reading of kafka-2's disk
 * over a weekend, BM25 ranked two windows of raw rows (which repeat the connector's name on every
 * row) over the disk's series summary, and only the source's leader reached the context (freight dev
 * d82). Where a source ranks against the others does not change.
 */
export function seriesSummariesFirst(hits: readonly Hit[]): Hit[] {
  const placesBySource = new Map<string, number[]>();
  hits.forEach((hit, place) => {
    const places = placesBySource.get(hit.sourceName);
    if (places) places.push(place);
    else placesBySource.set(hit.sourceName, [place]);
  });
  const ordered = [...hits];
  for (const places of placesBySource.values()) {
    const own = places.map((place) => hits[place]);
    if (!own.some(isSeriesSummary)) continue;
    const summariesFirst = [...own.filter(isSeriesSummary), ...own.filter((hit) => !isSeriesSummary(hit))];
    places.forEach((place, index) => {
      ordered[place] = summariesFirst[index];
    });
  }
  return ordered;
}
