import { describe, expect, it } from 'vitest';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverPlugin } from '../contracts/retriever';
import type { Hit } from '../types';
import { runTools } from './run-tools';

/** A retriever that ignores its source filter (the worst case) and records what it was asked. */
function leakyRetriever(method: string, hits: readonly Hit[]) {
  const queries: RetrievalQuery[] = [];
  const retriever: RetrieverPlugin = {
    contract: RETRIEVER_CONTRACT,
    method,
    capabilities: () => ({ method, available: true, requires: [], latencyMs: 1, recallPrior: {} }),
    async search(query) {
      queries.push(query);
      return hits;
    },
  };
  return { retriever, queries };
}

const hit = (chunkId: string, sourceName: string): Hit => ({ chunkId, sourceName, sourceKind: 'docs', sourceVersionId: 'v1', title: chunkId, text: chunkId, score: 1, rank: 1, method: 'bm25', tokens: 5 });
const HITS = [hit('ok', 'runbooks'), hit('secret', 'payroll-vault')];

function tools() {
  const bm25 = leakyRetriever('bm25', HITS);
  const exact = leakyRetriever('exact', HITS);
  const facts = async (entity: string) => [
    { subject: entity, attribute: 'limit', value: '256Mi', sourceName: 'runbooks' },
    { subject: entity, attribute: 'band', value: 'secret', sourceName: 'payroll-vault' },
  ];
  const built = runTools({ retrievers: new Map([['bm25', bm25.retriever], ['exact', exact.retriever]]), retrieveMethod: 'bm25', sources: ['runbooks', 'docs'], facts, localOnly: false, sensitiveSources: [] });
  return { built, bm25, exact };
}

describe('run tools', () => {
  it('search only the permitted sources, and drop any hit from another even if a retriever returned it', async () => {
    const { built, bm25 } = tools();
    const read = await built.search({ how: 'retrieve', text: 'memory', k: 4 });
    expect(bm25.queries[0]).toMatchObject({ text: 'memory', k: 4, sources: ['runbooks', 'docs'] });
    expect(read).toEqual({ items: [HITS[0]], unknownSources: [] });
  });

  it('name a source outside the run as unknown and read nothing at all when no asked source is permitted', async () => {
    const { built, bm25 } = tools();
    expect(await built.search({ how: 'retrieve', text: 'band', k: 4, sources: ['payroll-vault'] })).toEqual({ items: [], unknownSources: ['payroll-vault'] });
    expect(bm25.queries).toEqual([]);
    expect(await built.search({ how: 'retrieve', text: 'band', k: 4, sources: ['payroll-vault', 'runbooks'] })).toEqual({ items: [HITS[0]], unknownSources: ['payroll-vault'] });
    expect(bm25.queries[0].sources).toEqual(['runbooks']);
  });

  it('look identifiers up in the identifier index, and keep facts of permitted sources only', async () => {
    const { built, exact } = tools();
    await built.search({ how: 'exact', text: ' OOMKilled ', k: 4 });
    expect(exact.queries[0]).toMatchObject({ identifiers: ['OOMKilled'] });
    expect((await built.facts({ entity: 'checkout-api' })).items.map((fact) => fact.sourceName)).toEqual(['runbooks']);
    expect(await built.facts({ entity: 'checkout-api', sources: ['payroll-vault'] })).toEqual({ items: [], unknownSources: ['payroll-vault'] });
  });
});
