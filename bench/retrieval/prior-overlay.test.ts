import { describe, expect, it } from 'vitest';
import { RETRIEVER_CONTRACT, type RetrieverPlugin } from '../../server/runtime/contracts/retriever';
import type { RuntimePlugins } from '../../server/runtime/facade/runtime-plugins';
import type { FittedPriors } from './prior-fitting';
import { pluginsWithFit } from './prior-overlay';

const retriever = (method: string, recallPrior: Record<string, number>): RetrieverPlugin => ({
  contract: RETRIEVER_CONTRACT,
  method,
  capabilities: () => ({ method, available: true, requires: [], latencyMs: 1, recallPrior }),
  search: async () => [{ chunkId: `${method}-hit` } as never],
});

const plugins = { retrievers: [retriever('bm25', { conceptual: 0.6, multi_hop: 0.45 }), retriever('graph', { conceptual: 0.5, multi_hop: 0.7 }), retriever('dense', { conceptual: 0.36 })] } as unknown as RuntimePlugins;

const fit: FittedPriors = { ratios: { rerank: {}, rm3: {}, graph: { conceptual: 0.5, multi_hop: 2 } }, fusion: {}, classSizes: {}, queries: 0 };

describe("a fold's fit over the bench runtime's plugins", () => {
  it("reports bm25's prior times the fold's ratio for fitted methods (capped at 1) and leaves the others alone", () => {
    const overlaid = pluginsWithFit(plugins, fit);
    const graph = overlaid.retrievers.find((entry) => entry.method === 'graph')!;
    expect(graph.capabilities().recallPrior).toEqual({ conceptual: 0.3, multi_hop: 0.9 });
    expect(overlaid.retrievers.find((entry) => entry.method === 'dense')!.capabilities().recallPrior).toEqual({ conceptual: 0.36 });
    expect(overlaid.retrievers.find((entry) => entry.method === 'bm25')!.capabilities().recallPrior).toEqual({ conceptual: 0.6, multi_hop: 0.45 });
    expect(pluginsWithFit(plugins, { ...fit, ratios: { ...fit.ratios, graph: { multi_hop: 3 } } }).retrievers[1].capabilities().recallPrior.multi_hop).toBe(1);
  });

  it("reports the fold's fusion ratios in place of the shipped ones, and none when the fold measured none", () => {
    const shipped = { ...retriever('graph', { multi_hop: 0.7 }), capabilities: () => ({ method: 'graph', available: true, requires: [], latencyMs: 1, recallPrior: {}, fusionRatios: { rm3: { multi_hop: 1.5 } } }) };
    const withShipped = { retrievers: [plugins.retrievers[0], shipped] } as unknown as RuntimePlugins;
    expect(pluginsWithFit(withShipped, { ...fit, fusion: { 'graph+rm3': { multi_hop: 0.9 } } }).retrievers[1].capabilities().fusionRatios).toEqual({ rm3: { multi_hop: 0.9 } });
    expect(pluginsWithFit(withShipped, fit).retrievers[1].capabilities().fusionRatios).toBeUndefined();
  });

  it('searches through the registered retriever', async () => {
    expect(await pluginsWithFit(plugins, fit).retrievers[1].search({ text: 'x', k: 1, sources: ['s'] })).toEqual([{ chunkId: 'graph-hit' }]);
  });
});
