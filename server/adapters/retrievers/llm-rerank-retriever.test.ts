import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TierConfig } from '../../runtime/config/config-schema';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrievalSpend, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import { fencedPassage } from '../../runtime/reasoner/context-prompt';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { createModelPlugin } from '../models/ai-sdk-model';
import { countTokens, preloadTokenEncoder } from '../models/token-counter';
import { parseGrades, rerankMessages } from './llm-rerank-prompt';
import { type LlmRerankOutcome, LlmRerankRetriever } from './llm-rerank-retriever';
import { LlmReranker } from './llm-reranker';
import { createLlmReranker, createLlmRerankRetriever } from './llm-rerank-setup';
import { RunBudget } from '../../runtime/execution/run-budget';

const hit = (id: string, text: string, sourceName = 'docs'): Hit => ({
  chunkId: id, sourceName, sourceKind: 'docs', sourceVersionId: `${sourceName}-1`, title: id, text, score: 0, rank: 0, method: 'bm25', tokens: countTokens(text),
});

/** A fixed first stage (the contract, not a mock of the model): the order bm25 would give. */
function firstStage(hits: readonly Hit[]): RetrieverPlugin & { readonly queries: RetrievalQuery[] } {
  const queries: RetrievalQuery[] = [];
  return {
    contract: RETRIEVER_CONTRACT,
    method: 'bm25',
    queries,
    capabilities: () => ({ method: 'bm25', available: true, requires: ['pg_textsearch'], latencyMs: 5, recallPrior: { conceptual: 0.6, exact_id: 0.95 } }),
    search: async (query) => {
      queries.push(query);
      return hits.slice(0, query.k).map((entry, index) => ({ ...entry, rank: index + 1, score: 10 - index }));
    },
  };
}

const HEAD = [
  hit('a', 'Connection pools are sized per service.'),
  hit('b', 'The checkout service lowered its pool limit to 20 in release 4.2.'),
  hit('c', 'Checkout timeouts started when the pool limit dropped to 20 during the 4.2 rollout.'),
  hit('d', 'Pool exhaustion shows up as timeouts waiting for a connection.'),
];
const QUERY: RetrievalQuery = { text: 'why did checkout time out after 4.2?', k: 3, sources: ['docs'] };
const grades = (...values: number[]) => JSON.stringify({ grades: values.map((grade, index) => ({ id: index + 1, grade })) });

let server: LoopbackOpenAIServer;
const tier = (overrides: Partial<TierConfig> = {}): TierConfig => ({
  name: 'cheap', provider: 'openai', model: 'gpt-4.1-mini', base_url: server.baseURL, api_key_env: 'LOOPBACK_KEY', input_usd_per_million: 0.4, output_usd_per_million: 1.6, ...overrides,
});
const model = () => createModelPlugin(tier(), { LOOPBACK_KEY: 'sk-loopback' });

beforeAll(async () => {
  preloadTokenEncoder();
  server = await startLoopbackOpenAIServer();
});
afterAll(() => server.close());

describe('llm-rerank retriever', () => {
  it('asks the run budget before each batch: a refused batch is never sent and its passages keep their order', async () => {
    server.reply({ text: grades(0, 1, 3, 2), status: 200, delayMs: 0, usage: { prompt_tokens: 300, completion_tokens: 40 } });
    const before = server.requests.length;
    const budget = new RunBudget({ maxCostUsd: 1e-9 });
    const outcomes: LlmRerankOutcome[] = [];
    const reranker = new LlmRerankRetriever(firstStage(HEAD), model(), { topN: 4, onOutcome: (outcome) => outcomes.push(outcome) });
    const hits = await reranker.search({ ...QUERY, admit: budget.admission('retrieve') });
    expect(server.requests.length).toBe(before);
    expect(hits.map((entry) => entry.chunkId)).toEqual(['a', 'b', 'c']);
    expect(outcomes[0].failures).toEqual([expect.stringMatching(/^batch 1: max_cost_usd: the call to model tier "cheap" at node retrieve was refused before it started/)]);
    // With room for it, the same batch is admitted, sent, and booked at the usage the server reported.
    const roomy = new RunBudget({ maxCostUsd: 1 });
    await reranker.search({ ...QUERY, admit: roomy.admission('retrieve') });
    expect(server.requests.length).toBe(before + 1);
    expect(roomy.committed()).toEqual({ costUsd: expect.closeTo((300 * 0.4 + 40 * 1.6) / 1e6, 12), tokens: 340 });
  });

  it('asks the model through the AI SDK for graded labels and reorders the head by them', async () => {
    server.reply({ text: grades(0, 1, 3, 2), status: 200, delayMs: 0, usage: { prompt_tokens: 300, completion_tokens: 40 } });
    const before = server.requests.length;
    const outcomes: LlmRerankOutcome[] = [];
    const stage = firstStage(HEAD);
    const reranker = new LlmRerankRetriever(stage, model(), { topN: 4, onOutcome: (outcome) => outcomes.push(outcome) });
    const spends: RetrievalSpend[] = [];
    const hits = await reranker.search({ ...QUERY, onSpend: (spend) => spends.push(spend) });
    expect(hits.map((entry) => entry.chunkId)).toEqual(['c', 'd', 'b']);
    // What the retrieve node records as its actual cost: the usage the server billed, at the tier's price.
    expect(spends).toEqual([{ inputTokens: 300, outputTokens: 40, costUsd: expect.closeTo((300 * 0.4 + 40 * 1.6) / 1e6, 12) }]);
    expect(hits.map((entry) => [entry.rank, entry.method])).toEqual([[1, 'llm-rerank'], [2, 'llm-rerank'], [3, 'llm-rerank']]);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    expect(stage.queries[0].k).toBe(4);
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/v1/chat/completions');
    expect(sent[0].headers.authorization).toBe('Bearer sk-loopback');
    const messages = sent[0].body.messages as { role: string; content: string }[];
    expect(messages[0]).toMatchObject({ role: 'system' });
    expect(messages[1].content).toContain(`Query: ${QUERY.text}`);
    expect(messages[1].content).toContain(`[3] c\n${fencedPassage(HEAD[2].text)}`);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'reranked', candidates: 4, graded: 4, inputTokens: 300, outputTokens: 40, tier: 'cheap', failures: [] })]);
    expect(outcomes[0].costUsd).toBeCloseTo((300 * 0.4 + 40 * 1.6) / 1e6, 12);
  });

  it('grades batches in parallel and leaves the tail beyond top N in first-stage order', async () => {
    server.reply({ text: grades(0, 3), status: 200, delayMs: 0 });
    const before = server.requests.length;
    const reranker = new LlmRerankRetriever(firstStage([...HEAD, hit('e', 'Unrelated tail passage.')]), model(), { topN: 4, batchSize: 2 });
    const hits = await reranker.search({ ...QUERY, k: 5 });
    // Each batch of two hears "second is 3, first is 0": the grades are absolute, so the two 3s
    // (b, d) lead in first-stage order, then the 0s (a, c); the tail stays last.
    expect(hits.map((entry) => entry.chunkId)).toEqual(['b', 'd', 'a', 'c', 'e']);
    expect(server.requests.length - before).toBe(2);
  });

  it('falls back to the first-stage order on a malformed reply and on an HTTP error, never throwing', async () => {
    const outcomes: LlmRerankOutcome[] = [];
    const reranker = new LlmRerankRetriever(firstStage(HEAD), model(), { topN: 4, onOutcome: (outcome) => outcomes.push(outcome) });
    const spends: RetrievalSpend[] = [];
    server.reply({ text: 'Sure! Passage three looks most relevant, then four.', status: 200, usage: { prompt_tokens: 280, completion_tokens: 12 } });
    expect((await reranker.search({ ...QUERY, onSpend: (spend) => spends.push(spend) })).map((entry) => entry.chunkId)).toEqual(['a', 'b', 'c']);
    // An unusable reply was billed all the same; a refused request (HTTP 500 below) was not.
    expect(spends).toMatchObject([{ inputTokens: 280, outputTokens: 12 }]);
    server.reply({ text: '{"grades": [{"id": 1, "grade": "high"}, {"id": 2, "grade": 3}', status: 200 });
    expect((await reranker.search(QUERY)).map((entry) => entry.chunkId)).toEqual(['a', 'b', 'c']);
    server.reply({ status: 500 });
    expect((await reranker.search({ ...QUERY, onSpend: (spend) => spends.push(spend) })).map((entry) => entry.chunkId)).toEqual(['a', 'b', 'c']);
    expect(spends).toHaveLength(1);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fallback', 'fallback', 'fallback']);
    expect(outcomes[0].failures[0]).toMatch(/unusable reply \(the reply holds no JSON\)/);
    expect(outcomes[1].failures[0]).toMatch(/not valid JSON/);
    expect(outcomes[2].failures[0]).toMatch(/HTTP 500/);
  });

  it('falls back when the model is slower than the rerank deadline', async () => {
    const outcomes: LlmRerankOutcome[] = [];
    const reranker = new LlmRerankRetriever(firstStage(HEAD), model(), { topN: 4, timeoutMs: 300, onOutcome: (outcome) => outcomes.push(outcome) });
    server.reply({ text: grades(0, 1, 3, 2), status: 200, delayMs: 5_000 });
    const started = performance.now();
    expect((await reranker.search(QUERY)).map((entry) => entry.chunkId)).toEqual(['a', 'b', 'c']);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(outcomes[0]).toMatchObject({ status: 'fallback', costUsd: 0 });
    expect(outcomes[0].failures[0]).toMatch(/did not answer within 300 ms/);
    server.reply({ delayMs: 0 });
  });

  it('keeps ungraded candidates in their slots: invalid grades (partial) and sensitive sources (never sent)', async () => {
    const outcomes: LlmRerankOutcome[] = [];
    const head = [HEAD[0], hit('secret', 'Payroll of the checkout team.', 'payroll'), HEAD[2], HEAD[3]];
    const before = server.requests.length;
    const reranker = new LlmRerankRetriever(firstStage(head), model(), { topN: 4, sensitiveSources: ['payroll'], onOutcome: (outcome) => outcomes.push(outcome) });
    // Sent: a, c, d as ids 1–3; id 2 (c) gets an out-of-scale grade.
    server.reply({ text: '```json\n{"grades":[{"id":1,"grade":1},{"id":2,"grade":7},{"id":3,"grade":3}]}\n```', status: 200 });
    const hits = await reranker.search({ ...QUERY, k: 4 });
    expect(hits.map((entry) => entry.chunkId)).toEqual(['d', 'secret', 'c', 'a']);
    expect(JSON.stringify(server.requests.slice(before))).not.toContain('Payroll');
    expect(outcomes[0]).toMatchObject({ status: 'partial', graded: 2, withheld: 1 });
  });

  it('withholds a passage holding a secret from a non-local tier, or sends it redacted under redact', async () => {
    const head = [HEAD[0], hit('keyed', 'Checkout reads AWS key AKIAIOSFODNN7EXAMPLE at start.'), HEAD[2], HEAD[3]];
    server.reply({ text: grades(1, 2, 3), status: 200 });
    let before = server.requests.length;
    const outcomes: LlmRerankOutcome[] = [];
    await new LlmRerankRetriever(firstStage(head), model(), { topN: 4, onOutcome: (outcome) => outcomes.push(outcome) }).search({ ...QUERY, k: 4 });
    expect(server.requests.length).toBeGreaterThan(before);
    expect(server.requests.slice(before).map((request) => request.raw).join('')).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(outcomes[0]).toMatchObject({ withheld: 1 });
    before = server.requests.length;
    server.reply({ text: grades(1, 2, 3, 0) });
    await new LlmRerankRetriever(firstStage(head), model(), { topN: 4, sensitiveContent: 'redact' }).search({ ...QUERY, k: 4 });
    const sent = server.requests.slice(before).map((request) => request.raw).join('');
    expect(sent).toContain('[REDACTED api_key]');
    expect(sent).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it('refuses a non-local tier for a local-only query and withholds the sources the query names sensitive', async () => {
    const before = server.requests.length;
    const reranker = new LlmRerankRetriever(firstStage(HEAD), model(), { topN: 4 });
    await expect(reranker.search({ ...QUERY, localOnly: true })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(server.requests.length).toBe(before);
    const outcomes: LlmRerankOutcome[] = [];
    server.reply({ text: grades(1, 2, 3), status: 200 });
    const head = [HEAD[0], hit('pay', 'Payroll of the checkout team.', 'payroll'), HEAD[2], HEAD[3]];
    await new LlmRerankRetriever(firstStage(head), model(), { topN: 4, onOutcome: (outcome) => outcomes.push(outcome) }).search({ ...QUERY, k: 4, sensitiveSources: ['payroll'] });
    expect(server.requests.slice(before).map((request) => request.raw).join('')).not.toContain('Payroll');
    expect(outcomes[0]).toMatchObject({ withheld: 1 });
  });

  it('reports a cost profile from the tier price, and picks a hosted tier, else a self-hosted model, never the extractive reader', () => {
    const reranker = new LlmRerankRetriever(firstStage(HEAD), model(), { topN: 20, batchSize: 10, maxPassageTokens: 256 });
    const profile = reranker.costProfile();
    expect(profile).toMatchObject({ tier: 'cheap', modelId: 'gpt-4.1-mini', candidates: 20 });
    expect(profile.costUsdPerQuery).toBeCloseTo((20 * (profile.inputTokensPerCandidate * 0.4 + profile.outputTokensPerCandidate * 1.6)) / 1e6, 12);
    expect(profile.inputTokensPerCandidate).toBeGreaterThan(256);
    const capabilities = reranker.capabilities();
    expect(capabilities).toMatchObject({ method: 'llm-rerank', available: true, requires: ['pg_textsearch'], composedOf: ['bm25'], modelTier: 'cheap', costUsdPerQuery: profile.costUsdPerQuery });
    expect(capabilities.latencyMs).toBeGreaterThan(5 + 600);
    expect(capabilities.recallPrior).toEqual({ conceptual: 0.6 * 1.1, exact_id: 1 });
    expect(capabilities.sendsPassagesOffMachine).toBe(true);
    const local = createModelPlugin({ name: 'local', provider: 'extractive' }, {});
    const selfHosted = createModelPlugin({ name: 'ollama', provider: 'openai-compatible', model: 'qwen', base_url: server.baseURL }, {});
    expect(createLlmRerankRetriever(firstStage(HEAD), [local])).toBeUndefined();
    // A self-hosted model grades when no hosted tier is reachable; nothing leaves the machine then.
    const onMachine = createLlmRerankRetriever(firstStage(HEAD), [local, selfHosted])!;
    expect(onMachine.capabilities()).toMatchObject({ available: true, modelTier: 'ollama', sendsPassagesOffMachine: false });
    const keyless = createModelPlugin(tier(), {});
    const unreachable = createLlmRerankRetriever(firstStage(HEAD), [local, keyless])!;
    expect(unreachable.capabilities()).toMatchObject({ available: false, unavailableReason: 'model tier cheap unavailable: LOOPBACK_KEY is not set' });
    expect(createLlmRerankRetriever(firstStage(HEAD), [local, keyless, model()])!.capabilities()).toMatchObject({ available: true });
  });

  it('measures the fixed prompt the cost profile assumes', () => {
    const [system, user] = rerankMessages('', []);
    expect(countTokens(system.content) + countTokens(user.content)).toBe(144);
    expect(parseGrades('[{"id":2,"grade":2},{"id":2,"grade":0},{"id":9,"grade":3}]', [1, 2])).toEqual(new Map([[2, 2]]));
  });
});

describe('llm reranker (the Reranker plugin inside llm-rerank)', () => {
  it('reorders the head of the hits it is given by the graded labels and reports the billed spend', async () => {
    server.reply({ text: grades(1, 0, 3, 2), status: 200, delayMs: 0, usage: { prompt_tokens: 410, completion_tokens: 36 } });
    const before = server.requests.length;
    const reranker = new LlmReranker(model(), { topN: 20 });
    const spends: RetrievalSpend[] = [];
    const tail = hit('e', 'A tail passage below the head.');
    const hits = await reranker.rerank({ text: QUERY.text, hits: [...HEAD, tail], topN: 4, onSpend: (spend) => spends.push(spend) });
    expect(hits.map((entry) => entry.chunkId)).toEqual(['c', 'd', 'a', 'b', 'e']);
    expect(hits.map((entry) => [entry.rank, entry.method])).toEqual([[1, 'llm'], [2, 'llm'], [3, 'llm'], [4, 'llm'], [5, 'llm']]);
    expect(hits[0].score).toBeGreaterThan(hits[4].score);
    expect(spends).toEqual([{ inputTokens: 410, outputTokens: 36, costUsd: expect.closeTo((410 * 0.4 + 36 * 1.6) / 1e6, 12) }]);
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    // Only the head of 4 is graded: the tail passage never reaches the model.
    expect(JSON.stringify(sent[0].body)).not.toContain('A tail passage');
  });

  it('reports its tier, cost and availability, and is the instance the llm-rerank retriever grades with', () => {
    const reranker = createLlmReranker([createModelPlugin({ name: 'local', provider: 'extractive' }, {}), model()])!;
    const capabilities = reranker.capabilities();
    expect(capabilities).toMatchObject({ method: 'llm', available: true, modelTier: 'cheap', sendsPassagesOffMachine: true, costUsdPerQuery: reranker.costProfile(20).costUsdPerQuery });
    expect(capabilities.tokensPerQuery).toBeGreaterThan(20 * 256);
    expect(capabilities).not.toHaveProperty('trainedOn');
    const retriever = createLlmRerankRetriever(firstStage(HEAD), [], {}, reranker)!;
    expect(retriever.reranker).toBe(reranker);
    expect(retriever.capabilities().costUsdPerQuery).toBe(capabilities.costUsdPerQuery);
    const keyless = createLlmReranker([createModelPlugin(tier(), {})])!;
    expect(keyless.capabilities()).toMatchObject({ available: false, unavailableReason: 'model tier cheap unavailable: LOOPBACK_KEY is not set' });
    expect(createLlmReranker([createModelPlugin({ name: 'local', provider: 'extractive' }, {})])).toBeUndefined();
  });
});
