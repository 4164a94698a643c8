import type { Hit } from '../../runtime/types';

/** One entry of a reranked head: the hit, the reranker's score, and its first-stage position. */
export interface RerankedEntry {
  readonly hit: Hit;
  readonly score: number;
  readonly order: number;
}

/** "kafka-2-server.log lines 93–96" → "kafka-2-server.log": the file a window was cut from. */
function fileOf(hit: Hit): string {
  const { title, locator } = hit;
  return locator && title.endsWith(locator) ? title.slice(0, -locator.length).trim() : title;
}

/**
 * Among the windows of one log file, the first stage's order, in the places the reranker gave that
 * file. The linear model was fitted on prose abstracts: its title match, best-window proximity and
 * cosine features barely separate windows that share a file name, a line template and a vocabulary,
 * so its order among them is noise over bm25's. The kafka-2 window holding "retention.ms 86400000 ->
 * 259200000" was 5th under bm25 and 21st after reranking, behind eleven windows of the same file
 * bm25 had ranked below it (freight dev d42). Where the file ranks against prose stays the reranker's
 * choice. Rearranges `head` in place, which must already be in reranked order; scores stay with places.
 */
export function keepFirstStageOrderWithinLogs(head: RerankedEntry[]): void {
  const placesByFile = new Map<string, number[]>();
  head.forEach((entry, place) => {
    if (entry.hit.sourceKind !== 'logs') return;
    const file = `${entry.hit.sourceName}\u0000${fileOf(entry.hit)}`;
    const places = placesByFile.get(file);
    if (places) places.push(place);
    else placesByFile.set(file, [place]);
  });
  for (const places of placesByFile.values()) {
    const entries = places.map((place) => head[place]).sort((a, b) => a.order - b.order);
    const scores = places.map((place) => head[place].score);
    places.forEach((place, index) => {
      head[place] = { ...entries[index], score: scores[index] };
    });
  }
}
