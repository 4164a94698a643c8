/**
 * Issue 12, finding 5 — "sensitive data reaches non-local models". A loopback "remote provider"
 * (chat completions and embeddings, real HTTP on 127.0.0.1, configured `local: false`) records
 * every byte it receives while the runtime ingests a corpus with planted personal data and
 * secrets: ingest marks the chunks that hold them, then embedding and OpenIE at ingest, a run over
 * the corpus and the LLM reranker go through the remote provider, under both values of
 * policy.sensitive_content. Not one planted string may arrive; clean text from the same documents
 * must (or the test would pass by sending nothing). Under local_only a marked passage reaches the
 * provider in no form at all, redacted neither; under redact it arrives with its spans replaced.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SensitiveContentMode } from '../runtime/policy/sensitive-content-detector';
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

/** The documents holding a planted string; schedule.md and handover.md are clean. */
const PLANTED_IN = ['alerts.md', 'config.md', 'keys.md', 'payouts.md', 'rotation.md'];
const leaked = (bytes: string) => Object.entries(PLANTED).filter(([, planted]) => bytes.includes(planted)).map(([kind]) => kind);

function egressSuite(mode: SensitiveContentMode): void {
  describe(`a non-local provider never receives a planted sensitive string (policy.sensitive_content: ${mode})`, () => {
    let chat: LoopbackOpenAIServer;
    let embeddings: LoopbackEmbeddingsServer;
    let fixture: RuntimeFixture;
    /** Every byte each provider received, request bodies as sent. */
    const received = () => [...chat.requests.map((request) => request.raw), ...embeddings.requests.map((request) => request.raw)].join('\n');
    const embedded = () => embeddings.requests.map((request) => request.raw).join('\n');

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
          policy: { sensitive_content: mode },
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

    it('ingest marks exactly the chunks holding a planted string, with their kinds', async () => {
      const rows = await fixture.database.query<{ uri: string; text: string; sensitive: boolean; kinds: string[] }>(
        sql`select uri, search_text as text, sensitive, sensitive_kinds as kinds from chunks where is_current order by uri, ordinal`,
      );
      const holdsPlanted = (text: string) => Object.values(PLANTED).some((planted) => text.includes(planted));
      expect(rows.map((row) => [row.uri, row.sensitive])).toEqual(rows.map((row) => [row.uri, holdsPlanted(row.text)]));
      expect([...new Set(rows.filter((row) => row.sensitive).map((row) => row.uri))].sort()).toEqual(PLANTED_IN);
      expect([...new Set(rows.flatMap((row) => row.kinds))].sort()).toEqual(['api_key', 'card_number', 'email', 'iban', 'jwt', 'phone', 'private_key']);
      const [vault] = await fixture.plugins.store.listSources();
      expect(vault).toMatchObject({ name: 'vault', sensitiveChunks: rows.filter((row) => row.sensitive).length });
    });

    it('at ingest: embeddings and OpenIE', async () => {
      expect(embeddings.requests.length).toBeGreaterThan(0);
      expect(embedded()).toContain(CLEAN);
      expect(chat.requests.length).toBeGreaterThan(0); // OpenIE extraction
      expect(leaked(received())).toEqual([]);
      const [marked] = await fixture.database.query<{ total: number; embedded: number }>(sql`
        select count(*)::int as total, count(embedding.chunk_id)::int as embedded
        from chunks left join chunk_embeddings embedding on embedding.chunk_id = chunks.id
        where chunks.is_current and chunks.sensitive`);
      if (mode === 'local_only') {
        // Not even redacted: a marked passage is not sent to a non-local embedder at all.
        expect(embedded()).not.toContain('[REDACTED');
        expect(marked.embedded).toBe(0);
      } else {
        expect(embedded()).toContain('[REDACTED');
        expect(marked.embedded).toBe(marked.total);
      }
    });

    it('in a run over the marked source (reasoner)', async () => {
      const explain = await fixture.runtime.explain({ goal: GOAL });
      // The goal itself is not sensitive: what decides the tier is the marking of the passages.
      expect(explain.intent.classes).not.toContain('sensitive');
      const reason = explain.verificationPlan.reasons.find((text) => text.startsWith('sensitive passages (vault '));
      expect(reason).toContain(`(policy.sensitive_content: ${mode})`);
      const before = chat.requests.length;
      const result = await fixture.runtime.run({ goal: GOAL });
      const sent = chat.requests.slice(before).map((request) => request.raw).join('\n');
      if (mode === 'local_only') {
        expect(explain.chosen.choice.modelTier).toBe('local');
        expect(sent).toBe('');
      } else {
        expect(explain.chosen.choice.modelTier).toBe('remote');
        expect(sent).toContain(CLEAN);
        expect(sent).toContain('[REDACTED');
        // The answer says what its model did not see whole.
        expect(result.caveats.some((caveat) => /passage\(s\) went to the non-local model tier with personal data and secrets redacted/.test(caveat))).toBe(true);
      }
      expect(leaked(received())).toEqual([]);
    });

    it('through the LLM reranker, as a retriever and as a rerank plugin', async () => {
      const before = chat.requests.length;
      const llmRerank = fixture.plugins.retrievers.find((retriever) => retriever.method === 'llm-rerank')!;
      const hits = await llmRerank.search({ text: GOAL, k: 8, sources: ['vault'] });
      expect(hits.length).toBeGreaterThan(1);
      expect(hits.some((hit) => hit.sensitive)).toBe(true);
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
}

egressSuite('local_only');
egressSuite('redact');
