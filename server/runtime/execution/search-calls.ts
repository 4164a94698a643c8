/** How a retrieve node calls its retriever when one node makes several searches. */
import type { RetrievalQuery, RetrieverPlugin } from '../contracts/retriever';
import type { SourceSearch } from '../ir/node-outputs';
import type { Hit } from '../types';

/** One search after another: a model-calling retriever's calls are not all sent at once. */
export async function searchInTurn(texts: readonly string[], search: (text: string) => Promise<readonly Hit[]>): Promise<(readonly Hit[])[]> {
  const lists: (readonly Hit[])[] = [];
  for (const text of texts) lists.push(await search(text));
  return lists;
}

/** Every source searched in one call: each source's search is timed as the call (they ran together, as one statement). */
export async function searchEachTimed(searchEach: NonNullable<RetrieverPlugin['searchEach']>, query: RetrievalQuery): Promise<{ list: readonly Hit[]; search: SourceSearch }[]> {
  const startedAtMs = Date.now();
  const started = performance.now();
  const lists = await searchEach(query);
  const latencyMs = performance.now() - started;
  return query.sources.map((source) => {
    const list = lists.get(source) ?? [];
    return { list, search: { source, hits: list.length, startedAtMs, latencyMs } };
  });
}
