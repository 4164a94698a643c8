/**
 * Issue 12, finding 5 — "sensitive data reaches non-local models". A loopback "remote provider"
 * (chat completions and embeddings, real HTTP on 127.0.0.1, configured `local: false`) records
 * every byte it receives while the runtime ingests a corpus with planted personal data and
 * secrets (embedding and OpenIE at ingest), runs a goal over it on the remote tier, and reranks
 * through the LLM reranker. Not one planted string may arrive; clean text from the same documents
 * must (or the test would pass by sending nothing).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackEmbeddingsServer, startLoopbackEmbeddingsServer } from '../testing/loopback-embeddings-server';
import { type LoopbackOpenAIServer, startLoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

/** One of each kind the detector knows, each inside a passage that is otherwise about the goal. */
const PLANTED = {
  email: 'ledger.owner@planted-example.com',
  phone: '+1 415 555 0199',
  iban: 'GB82 WEST 1234 5698 7654 32',
  awsKey: 'AKIAPLANTED7Q4M2X9ZA',
  openAiKey: 'sk-proj-PlantedKey7f3a9c2e1b4d8f6a0',
  githubToken: 'ghp_Planted0123456789abcdefABCDEF012345',
  slackToken: 'xoxb-2048-planted-slack-token',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.c2lnbmF0dXJlLXBsYW50ZWQ',
  privateKey: 'b3BlbnNzaC1rZXktdjEAAAAAPLANTEDKEYBODY',
  card: '5555 5555 5555 4444',
  generic: 'Zq8r2Lx0Vn4Tb7Wk1YpPlanted',
} as const;
/** Clean words of the same documents: proof the provider was really called with this corpus. */
const CLEAN = 'rotation window';
const GOAL = 'How is the billing-worker rotation window scheduled for the ledger deploy?';

const CORPUS: Record<string, string> = {
  'rotation.md': `# Billing-worker rotation\n\nThe billing-worker rotation window opens at 02:00 UTC before the ledger deploy. Page ${PLANTED.email} or call ${PLANTED.phone} if the rotation window slips.\n`,
  'keys.md': `# Ledger deploy keys\n\nThe ledger deploy in the rotation window reads AWS key ${PLANTED.awsKey}, the model key ${PLANTED.openAiKey} and the CI token ${PLANTED.githubToken}.\n`,
  'alerts.md': `# Rotation alerts\n\nBilling-worker rotation alerts post with ${PLANTED.slackToken}; the dashboard session is ${PLANTED.jwt} during the rotation window.\n`,
  'payouts.md': `# Ledger payouts\n\nAfter the rotation window the billing-worker pays refunds to ${PLANTED.iban} and charges the test card ${PLANTED.card}.\n`,
  'config.md': `# Billing-worker config\n\nThe rotation window config sets DB_PASSWORD=${PLANTED.generic} for the ledger deploy.\n\n-----BEGIN OPENSSH PRIVATE KEY-----\n${PLANTED.privateKey}\n-----END OPENSSH PRIVATE KEY-----\n`,
  'schedule.md': '# Rotation window schedule\n\nThe billing-worker rotation window is scheduled weekly, on Tuesdays, by the ledger deploy pipeline.\n',
  'handover.md': '# Rotation window handover\n\nThe on-call engineer hands the billing-worker rotation window notes over after the ledger deploy.\n',
};

let chat: LoopbackOpenAIServer;
let embeddings: LoopbackEmbeddingsServer;
let fixture: RuntimeFixture;

/** Every byte each provider received, request bodies as sent. */
const received = () => [...chat.requests.map((request) => request.raw), ...embeddings.requests.map((request) => request.raw)].join('\n');
const leaked = (bytes: string) => Object.entries(PLANTED).filter(([, planted]) => bytes.includes(planted)).map(([kind]) => kind);

beforeAll(async () => {
  chat = await startLoopbackOpenAIServer({ text: 'The rotation window opens at 02:00 UTC [1].' });
  embeddings = await startLoopbackEmbeddingsServer({ dimensions: 16 });
  fixture = await openRuntimeFixture({
    config: {
      demo: { load_on_start: false },
      models: {
        tiers: [
          // A loopback URL counts as local unless the config says otherwise: here it stands in for a hosted provider.
          { name: 'remote', provider: 'openai-compatible', base_url: chat.baseURL, model: 'remote-1', local: false, quality_prior: 0.95, input_usd_per_million: 0.1, output_usd_per_million: 0.2 },
          { name: 'local', provider: 'extractive' },
        ],
      },
      embeddings: { provider: 'openai-compatible', name: 'remote', model: 'embed-remote', base_url: embeddings.baseURL, local: false },
      scheduler: { backoff_ms: 0 },
    },
  });
  const folder = join(fixture.root, 'vault');
  mkdirSync(folder);
  for (const [name, text] of Object.entries(CORPUS)) writeFileSync(join(folder, name), text);
  await fixture.runtime.ingest(folder, { source: 'vault' });
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  await chat?.close();
  await embeddings?.close();
});

describe('a non-local provider never receives a planted sensitive string', () => {
  it('at ingest: embeddings and OpenIE', () => {
    expect(embeddings.requests.length).toBeGreaterThan(0);
    expect(embeddings.requests.map((request) => request.raw).join('\n')).toContain(CLEAN);
    expect(chat.requests.length).toBeGreaterThan(0); // OpenIE extraction
    expect(leaked(received())).toEqual([]);
  });

  it('in a run planned on the remote tier (reasoner)', async () => {
    const explain = await fixture.runtime.explain({ goal: GOAL });
    // Preconditions: the goal itself is not sensitive, so the remote tier is eligible and chosen.
    expect(explain.intent.classes).not.toContain('sensitive');
    expect(explain.chosen.choice.modelTier).toBe('remote');
    const before = chat.requests.length;
    await fixture.runtime.run({ goal: GOAL });
    const sent = chat.requests.slice(before).map((request) => request.raw).join('\n');
    expect(sent).toContain(CLEAN);
    expect(leaked(received())).toEqual([]);
  });

  it('through the LLM reranker, as a retriever and as a rerank plugin', async () => {
    const before = chat.requests.length;
    const llmRerank = fixture.plugins.retrievers.find((retriever) => retriever.method === 'llm-rerank')!;
    const hits = await llmRerank.search({ text: GOAL, k: 8, sources: ['vault'] });
    expect(hits.length).toBeGreaterThan(1);
    const reranker = (fixture.plugins.rerankers ?? []).find((plugin) => plugin.method === 'llm')!;
    await reranker.rerank({ text: GOAL, hits, topN: hits.length });
    expect(chat.requests.slice(before).map((request) => request.raw).join('\n')).toContain(CLEAN);
    expect(leaked(received())).toEqual([]);
  });

  it('in a dense query whose text holds a planted string', async () => {
    const dense = fixture.plugins.retrievers.find((retriever) => retriever.method === 'dense')!;
    const before = embeddings.requests.length;
    await dense.search({ text: `${GOAL} Ask ${PLANTED.email}.`, k: 4, sources: ['vault'] });
    expect(embeddings.requests.length).toBeGreaterThan(before);
    expect(leaked(received())).toEqual([]);
  });

  it('refuses a non-local reranker for a local-only plan (typed error, nothing sent)', async () => {
    const before = chat.requests.length;
    const reranker = (fixture.plugins.rerankers ?? []).find((plugin) => plugin.method === 'llm')!;
    const hits = await fixture.plugins.retrievers.find((retriever) => retriever.method === 'bm25')!.search({ text: GOAL, k: 4, sources: ['vault'] });
    await expect(reranker.rerank({ text: GOAL, hits, topN: hits.length, localOnly: true })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(chat.requests.length).toBe(before);
  });
});
