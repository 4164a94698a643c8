/**
 * Reader-facing citation numbers. The runtime's refs are positions in the assembled context
 * (what the model was shown), so an answer citing items 5, 7, 8 and 3 read "[5] [7] [8] [3]",
 * and two quotes from one chunk listed "2." twice. The console numbers citations 1..n in the
 * order the answer first cites them (uncited ones after), one entry per cited chunk.
 */
import type { Citation } from '@/server/runtime/types';
import { splitCitationMarkers } from './split-citation-markers';

export interface NumberedCitation {
  /** 1..n as the reader sees it. */
  readonly number: number;
  /** The runtime's ref (the context item), for the evidence lookup. */
  readonly ref: number;
  readonly sourceName: string;
  readonly locator?: string;
  readonly chunkId: string;
  /** Every distinct quote the answer took from this item. */
  readonly quotes: readonly string[];
  /** The first citation of the item: what "Open chunk" opens. */
  readonly citation: Citation;
}

export interface CitationNumbering {
  readonly entries: readonly NumberedCitation[];
  /** Runtime ref → reader number. */
  readonly numberOfRef: ReadonlyMap<number, number>;
}

export function numberCitations(answer: string, citations: readonly Citation[]): CitationNumbering {
  const byRef = new Map<number, Citation[]>();
  for (const citation of citations) byRef.set(citation.ref, [...(byRef.get(citation.ref) ?? []), citation]);
  const order: number[] = [];
  for (const segment of splitCitationMarkers(answer, new Set(byRef.keys()))) {
    if (segment.kind !== 'cite') continue;
    for (const ref of segment.refs) if (byRef.has(ref) && !order.includes(ref)) order.push(ref);
  }
  for (const ref of byRef.keys()) if (!order.includes(ref)) order.push(ref);
  const entries = order.map((ref, index): NumberedCitation => {
    const group = byRef.get(ref)!;
    const first = group[0];
    return { number: index + 1, ref, sourceName: first.sourceName, locator: first.locator, chunkId: first.chunkId, quotes: [...new Set(group.map((citation) => citation.quote))], citation: first };
  });
  return { entries, numberOfRef: new Map(entries.map((entry) => [entry.ref, entry.number])) };
}
