import { describe, expect, it } from 'vitest';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../contracts/retriever';
import { createGraph, createNode, type RetrieveNode } from '../ir/graph';
import { validateGraph } from '../ir/validate-graph';
import type { CandidateEstimates, Estimate, Hit } from '../types';
import { buildExecutionGraph, type GraphBuildInput } from './graph-builder';
import { createNodeExecutor, type ExecutionDependencies, type RetrievedOutput } from './node-executors';
import { withLeaderAt } from './rrf-fusion';
import { CROSSING_OVERFETCH, EVENT_OVERFETCH } from './event-anchored-window';

const point = (value: number): Estimate => ({ value, low: value, high: value });
const GRAPH: RetrieverCapabilities = { method: 'graph', available: true, requires: [], latencyMs: 4, recallPrior: { default: 0.7 } };
const BM25: RetrieverCapabilities = { method: 'bm25', available: true, requires: [], latencyMs: 2, recallPrior: { default: 0.7 }, timeWindows: true };
const estimates: CandidateEstimates = {
  accuracy: point(0.8), costUsd: point(0.002), latencySeconds: point(1), tokens: point(2400), risk: point(0.1),
  hallucination: point(0.1), contextLoss: point(0), cacheHit: point(0), verificationConfidence: point(0.5),
};
const AT_NINE = [{ from: '2025-06-01T08:30', to: '2025-06-01T09:30' }];
const input = (retrievers: readonly RetrieverCapabilities[], timeWindows?: GraphBuildInput['timeWindows']): GraphBuildInput => ({
  candidate: { id: 'c1', retrieval: ['graph'], sourceKinds: 'all', topK: 10, modelTier: 'local', reasoning: 'single_shot', compression: 'none', verification: 'citation', shape: 'sequential', approval: false },
  estimates, sources: ['runbooks', 'spool-logs', 'queue-metrics'], retrievers, tokenBudget: 3000, finalK: 8, meanChunkTokens: 40, localOnly: true, requireCitations: true, approvalReason: '',
  maxOutputTokens: 400, retry: { maxAttempts: 1, backoffMs: 0 }, nodeTimeoutMs: 1000, intentClasses: ['conceptual'], observationSources: ['spool-logs'],
  ...(timeWindows ? { timeWindows } : {}),
});
const retrieveIds = (graph: ReturnType<typeof buildExecutionGraph>) => graph.nodes.filter((node) => node.kind === 'retrieve').map((node) => node.id);

describe('the time-window hop: the goal names an instant', () => {
  it('searches the stamped sources within its window by a retriever that can, fused beside the plan’s own retrieval', () => {
    const graph = buildExecutionGraph(input([GRAPH, BM25], { windows: AT_NINE, sources: ['spool-logs', 'queue-metrics'] }));
    validateGraph(graph);
    expect(retrieveIds(graph)).toEqual(['retrieve-graph', 'retrieve-bm25-moment']);
    expect(graph.nodes.find((node) => node.id === 'retrieve-bm25-moment')).toMatchObject({ method: 'bm25', sources: ['spool-logs', 'queue-metrics'], within: AT_NINE, k: 10, inputs: [] });
    expect(graph.nodes.find((node) => node.id === 'fuse')?.inputs).toEqual(['retrieve-graph', 'retrieve-bm25-moment']);
  });

  it('is left out without a window, without a stamped source in scope, or without a retriever that filters by time', () => {
    expect(retrieveIds(buildExecutionGraph(input([GRAPH, BM25], { windows: [], sources: ['spool-logs'] })))).toEqual(['retrieve-graph']);
    expect(retrieveIds(buildExecutionGraph(input([GRAPH, BM25], { windows: AT_NINE, sources: [] })))).toEqual(['retrieve-graph']);
    expect(retrieveIds(buildExecutionGraph(input([GRAPH, { ...BM25, timeWindows: undefined }], { windows: AT_NINE, sources: ['spool-logs'] })))).toEqual(['retrieve-graph']);
    expect(retrieveIds(buildExecutionGraph(input([GRAPH, { ...BM25, available: false }], { windows: AT_NINE, sources: ['spool-logs'] })))).toEqual(['retrieve-graph']);
  });
});

describe('the time-window hop executed', () => {
  it('hands its windows to the retriever with the goal, and a plain retrieval none', async () => {
    const queries: RetrievalQuery[] = [];
    const bm25: RetrieverPlugin = { contract: RETRIEVER_CONTRACT, method: 'bm25', capabilities: () => BM25, search: async (query) => { queries.push(query); return []; } };
    const dependencies: ExecutionDependencies = {
      goal: 'How deep was the spool queue at 09:00 on 1 June 2025?', identifiers: [], entities: [], retrievers: new Map([['bm25', bm25]]),
      router: undefined as never, reasoners: new Map(), compressions: new Map(), verifiers: new Map(), countTokens: (text) => text.length, modelTimeoutMs: 1000,
    };
    const graph = buildExecutionGraph(input([GRAPH, BM25], { windows: AT_NINE, sources: ['spool-logs'] }));
    const hop = graph.nodes.find((node): node is RetrieveNode => node.id === 'retrieve-bm25-moment')!;
    const execute = createNodeExecutor({ ...dependencies, graph });
    await execute(hop, { attempt: 1, inputs: new Map(), signal: new AbortController().signal });
    await execute({ ...hop, id: 'plain', within: undefined }, { attempt: 1, inputs: new Map(), signal: new AbortController().signal });
    expect(queries[0]).toMatchObject({ text: dependencies.goal, sources: ['spool-logs'], within: AT_NINE, k: 10 });
    expect(queries[1].within).toBeUndefined();
  });
});

describe('fusing the moment hop', () => {
  const hit = (chunkId: string, rank: number): Hit => ({ chunkId, sourceName: 'spool-logs', sourceKind: 'logs', sourceVersionId: '1', title: chunkId, text: chunkId, score: 10 - rank, rank, method: 'bm25', tokens: 30 });
  const retrieve = (id: string, within?: RetrieveNode['within']) =>
    createNode('retrieve', { id, inputs: [], method: 'bm25', sources: ['spool-logs'], sourceKinds: 'all', k: 10, retry: { maxAttempts: 1, backoffMs: 0 }, timeoutMs: 1000, estimate: { tokens: 0, costUsd: 0, latencySeconds: 0 }, ...(within ? { within } : {}) });
  const fuse = createNode('fuse', { id: 'fuse', inputs: ['first', 'causes', 'feedback', 'moment'], strategy: 'rrf', rrfK: 60, k: 10, estimate: { tokens: 0, costUsd: 0, latencySeconds: 0 } });
  // Three searches of the goal's words share eight lines; the moment hop's best line is in none of them.
  const shared = Array.from({ length: 8 }, (_, index) => hit(`l${index + 1}`, index + 1));
  const outputs = new Map<string, RetrievedOutput>([
    ['first', { hits: shared, expansion: [] }],
    ['causes', { hits: shared, expansion: [] }],
    ['feedback', { hits: shared, expansion: [] }],
    ['moment', { hits: [hit('at-nine', 1), hit('at-ten', 2)], expansion: [] }],
  ]);
  const fused = async (momentNode: RetrieveNode, lists: ReadonlyMap<string, RetrievedOutput> = outputs) => {
    const graph = createGraph([retrieve('first'), retrieve('causes'), retrieve('feedback'), momentNode, fuse]);
    const dependencies: ExecutionDependencies = {
      goal: 'How deep was the spool queue at 09:00 on 1 June 2025?', identifiers: [], entities: [], retrievers: new Map(), router: undefined as never,
      reasoners: new Map(), compressions: new Map(), verifiers: new Map(), countTokens: (text) => text.length, modelTimeoutMs: 1000, graph,
    };
    const output = (await createNodeExecutor(dependencies)(fuse, { attempt: 1, inputs: lists, signal: new AbortController().signal })).output as RetrievedOutput;
    return output.hits.map((entry) => `${entry.rank}:${entry.chunkId}`);
  };

  it("raises the moment hop's best line into the first six of the fusion, the others in their order", async () => {
    expect(await fused(retrieve('moment', AT_NINE))).toEqual(['1:l1', '2:l2', '3:l3', '4:l4', '5:l5', '6:at-nine', '7:l6', '8:l7', '9:l8', '10:at-ten']);
  });

  it('leaves an ordinary fourth search where RRF puts it', async () => {
    expect((await fused(retrieve('moment'))).slice(-2)).toEqual(['9:at-nine', '10:at-ten']);
  });

  it("raises the goal's own search's best hit into the first six when the other searches agree on other hits", async () => {
    // "Who raised eta-api's replicas at the end of January?": the commit the goal's words rank first is in
    // no cause or feedback list, and RRF put it twelfth, past the eight the context keeps (fresh f58).
    const lists = new Map<string, RetrievedOutput>([...outputs, ['first', { hits: [hit('the-commit', 1), ...shared.slice(0, 7)], expansion: [] }], ['moment', { hits: shared, expansion: [] }]]);
    expect((await fused(retrieve('moment'), lists)).slice(4, 7)).toEqual(['5:l5', '6:the-commit', '7:l6']);
  });
});

describe('withLeaderAt', () => {
  const hits = ['a', 'b', 'c', 'd'].map((chunkId, index): Hit => ({ chunkId, sourceName: 's', sourceKind: 'logs', sourceVersionId: '1', title: chunkId, text: chunkId, score: 1, rank: index + 1, method: 'bm25', tokens: 1 }));
  it('moves a lower leader up to the rank and keeps a higher one, or an absent one, where it is', () => {
    expect(withLeaderAt(hits, hits[3], 2).map((hit) => `${hit.rank}:${hit.chunkId}`)).toEqual(['1:a', '2:d', '3:b', '4:c']);
    expect(withLeaderAt(hits, hits[0], 2)).toBe(hits);
    expect(withLeaderAt(hits, undefined, 2)).toBe(hits);
    expect(withLeaderAt(hits, { ...hits[0], chunkId: 'elsewhere' }, 2)).toBe(hits);
  });
});

describe('the time-window hop anchored to an event the evidence dates', () => {
  const DAY = [{ from: '05-09T00:00', to: '05-09T23:59', anyYear: true as const }];
  const stamped = (id: string, score: number, text: string): Hit => ({ chunkId: id, sourceName: 'spool-logs', sourceKind: 'logs', sourceVersionId: 'v1', title: id, text, score, rank: 1, method: 'bm25', tokens: 10 });
  /** The moment hop of a plan for `goal`, executed against a bm25 that records its queries and returns `found`. */
  const momentHop = (goal: string, found: readonly Hit[], anchored?: boolean) => {
    const queries: RetrievalQuery[] = [];
    const bm25: RetrieverPlugin = { contract: RETRIEVER_CONTRACT, method: 'bm25', capabilities: () => BM25, search: async (query) => { queries.push(query); return [...found]; } };
    const dependencies: ExecutionDependencies = {
      goal, identifiers: [], entities: [], retrievers: new Map([['bm25', bm25]]),
      router: undefined as never, reasoners: new Map(), compressions: new Map(), verifiers: new Map(), countTokens: (text) => text.length, modelTimeoutMs: 1000,
    };
    const graph = buildExecutionGraph(input([GRAPH, BM25], { windows: DAY, sources: ['spool-logs'], ...(anchored ? { anchored } : {}) }));
    const hop = graph.nodes.find((node): node is RetrieveNode => node.id === 'retrieve-bm25-moment')!;
    const execute = createNodeExecutor({ ...dependencies, graph });
    const run = async (first?: RetrievedOutput) => (await execute(hop, { attempt: 1, inputs: new Map(first ? [['retrieve-graph', first]] : []), signal: new AbortController().signal })).output as RetrievedOutput;
    return { hop, queries, run };
  };

  it('waits for the first retrieval, whose hits date the event', () => {
    const graph = buildExecutionGraph(input([GRAPH, BM25], { windows: DAY, sources: ['spool-logs'], anchored: true }));
    validateGraph(graph);
    expect(graph.nodes.find((node) => node.id === 'retrieve-bm25-moment')).toMatchObject({ inputs: ['retrieve-graph'], anchoredOn: 'retrieve-graph', within: DAY });
  });

  it('searches the hours before the moment the first retrieval gives the event, nearest first among near-ties, and the planned day when none does', async () => {
    const found = [stamped('early', 10, '2026-05-09T06:10:00Z spoold INFO queued jobs=40 printers=6'), stamped('late', 7, '2026-05-09T08:02:00Z spoold INFO queued jobs=95 printers=6'), stamped('weak', 2, '2026-05-09T08:09:00Z spoold INFO tray 2 loaded')];
    const { queries, run } = momentHop('Right before the spooler was restarted on 9 May, how many jobs were queued?', found, true);
    const timeline: Hit = { ...stamped('timeline', 1, '- May 9 08:14 — spooler restarted by the on-call; queued jobs drain.'), sourceName: 'runbooks', sourceKind: 'docs' };
    const output = await run({ hits: [timeline] });
    expect(queries[0].within).toEqual([{ from: '05-09T02:14', to: '05-09T08:13', anyYear: true }]);
    expect(output.narrowedTo).toEqual(queries[0].within);
    expect(output.hits.map((hit) => hit.chunkId)).toEqual(['late', 'early', 'weak']);
    await run({ hits: [] });
    expect(queries[1].within).toEqual(DAY);
  });

  it("searches further for a day's first record and puts the day's near-ties earliest first", async () => {
    const found = [stamped('later', 10, '2026-05-09T08:05:04Z WARN spoold tray jammed on P-08'), stamped('first', 8, '2026-05-09T06:47:13Z WARN spoold tray jammed on P-19'), stamped('stats', 5, '2026-05-09T05:50:00Z INFO spoold stats trays=6')];
    const { hop, queries, run } = momentHop('At what time on 9 May did the spooler log its first warning about a jammed tray?', found);
    const output = await run();
    expect(queries[0]).toMatchObject({ within: DAY, k: hop.k * EVENT_OVERFETCH });
    expect(output.hits.map((hit) => hit.chunkId)).toEqual(['first', 'later', 'stats']);
  });

  it("searches further still for a field's first passing of a value, and puts the records passing it first, earliest first", async () => {
    const found = [
      stamped('early-low', 10, '2026-05-09T06:00:00Z INFO spoold stats: p99=120ms'),
      stamped('late-high', 9, '2026-05-09T09:30:00Z INFO spoold stats: p99=410ms'),
      stamped('first-high', 3, '2026-05-09T07:20:00Z INFO spoold stats: p99=265ms\n2026-05-09T07:25:00Z INFO spoold stats: p99=270ms'),
    ];
    const { hop, queries, run } = momentHop('At what time on 9 May did the p99 latency of spoold first exceed 250 ms?', found);
    const output = await run();
    expect(queries[0]).toMatchObject({ within: DAY, k: hop.k * CROSSING_OVERFETCH });
    expect(output.hits.map((hit) => hit.chunkId)).toEqual(['first-high', 'late-high', 'early-low']);
  });
});
