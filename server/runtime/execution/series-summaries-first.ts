import type { Hit } from '../types';
import { contentTerms } from '../text/text-terms';

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
export function seriesSummariesFirst(hits: readonly Hit[], goal?: string): Hit[] {
  const named = goal === undefined ? undefined : namedSeriesWeight(goal);
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
    const summaries = own.filter(isSeriesSummary);
    // The series the goal names first ("the highest share of static ETAs" → stats static_eta), in their order among equals.
    const byName = named ? summaries.map((hit, index) => ({ hit, index, weight: named(hit) })).sort((a, b) => b.weight - a.weight || a.index - b.index).map(({ hit }) => hit) : summaries;
    const summariesFirst = [...byName, ...own.filter((hit) => !isSeriesSummary(hit))];
    places.forEach((place, index) => {
      ordered[place] = summariesFirst[index];
    });
  }
  return ordered;
}

/**
 * How many of the goal's words the series a summary is of holds (its locator after "stats "/"series "):
 * every stats summary of a log repeats the log's header and field list, so bm25 ranked the p50 summary
 * over the static_eta one asked for (freight fresh f167).
 */
function namedSeriesWeight(goal: string): (hit: Hit) => number {
  const asked = new Set(contentTerms(goal));
  // A stats locator lists its log's fields after " of " ("stats p50 of requests p50 p99 static_eta"): only the series' own field names it.
  return (hit) => new Set(contentTerms((hit.locator ?? '').replace(SUMMARY_LOCATOR, '').replace(/ of .*$/, '')).filter((term) => asked.has(term))).size;
}
