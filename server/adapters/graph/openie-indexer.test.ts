import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestChunk } from '../../runtime/contracts/store';
import { listenOnLoopback, readBody, writeJson } from '../../testing/loopback-http';
import { CorpusStats } from '../db/corpus-stats';
import { openStores, type Stores } from '../db/open-stores';
import { createModelPlugin } from '../models/ai-sdk-model';
import { preloadTokenEncoder } from '../models/token-counter';
import { GraphRetriever } from '../retrievers/graph-retriever';
import { buildGraphForVersion, buildPendingDerivedIndexes } from './graph-builder';
import { GraphCache } from './graph-cache';
import { indexOpenIePending } from './openie-indexer';
import { NER_INSTRUCTION } from './openie-prompts';

const passage = (title: string, text: string): IngestChunk => ({ uri: title, ordinal: 0, title, text, tokens: text.split(/\s+/).length });

/**
 * The gateway's passage and the sharding passage share no name the rules see: "ledger sharding
 * scheme" is lower case. Only OpenIE's triples make it a node both passages link to.
 */
const NOTES = [
  passage('Orion Gateway', 'The Orion Gateway routes payment traffic and was rewritten on top of the ledger sharding scheme in spring.'),
  passage('Rebalancing notes', 'the ledger sharding scheme splits accounts across eight databases and needs weekly rebalancing.'),
  passage('Kestrel Dashboard', 'Kestrel Dashboard shows queue depth for the payment team.'),
];
const PAYROLL = [passage('Payroll run', 'The payroll run for the Orion Gateway team is on the ledger sharding scheme too.')];

/** What the model "extracts" per passage title; Kestrel's replies are prose, not JSON. */
const EXTRACTIONS: Readonly<Record<string, { entities: string[]; triples: string[][] } | 'malformed'>> = {
  'Orion Gateway': { entities: ['Orion Gateway', 'ledger sharding scheme'], triples: [['Orion Gateway', 'routes', 'payment traffic'], ['Orion Gateway', 'rewritten on top of', 'ledger sharding scheme']] },
  'Rebalancing notes': { entities: ['ledger sharding scheme'], triples: [['ledger sharding scheme', 'splits accounts across', 'eight databases'], ['the ledger sharding scheme', 'needs', '']] },
  'Kestrel Dashboard': 'malformed',
};

interface Sent { readonly system: string; readonly passage: string }

/** A loopback chat-completions server that answers by the prompt (NER or triples) and the passage in it. */
async function startOpenIeServer() {
  const sent: Sent[] = [];
  const server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as { model: string; messages: { role: string; content: string }[] };
    const system = body.messages[0].content;
    const last = body.messages.at(-1)!.content;
    sent.push({ system, passage: last });
    const title = Object.keys(EXTRACTIONS).find((name) => last.includes(name)) ?? '';
    const extraction = EXTRACTIONS[title];
    const text =
      extraction === undefined || extraction === 'malformed'
        ? 'I am sorry, I cannot extract anything from this.'
        : system === NER_INSTRUCTION
          ? `\`\`\`json\n${JSON.stringify({ named_entities: extraction.entities })}\n\`\`\``
          : JSON.stringify({ named_entities: extraction.entities, triples: extraction.triples });
    writeJson(response, 200, {
      id: `chatcmpl-${sent.length}`, object: 'chat.completion', created: 1_715_650_000, model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 700, completion_tokens: 60, total_tokens: 760 },
    });
  });
  return { ...(await listenOnLoopback(server)), sent };
}

const root = mkdtempSync(path.join(tmpdir(), 'cr-openie-'));
let stores: Stores;
let server: Awaited<ReturnType<typeof startOpenIeServer>>;
let graph: GraphRetriever;
const QUESTION = 'What does the Orion Gateway depend on?';

beforeAll(async () => {
  preloadTokenEncoder();
  server = await startOpenIeServer();
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
  await stores.store.ingest({ name: 'notes', kind: 'docs' }, NOTES, 'notes-1');
  await stores.store.ingest({ name: 'payroll', kind: 'docs' }, PAYROLL, 'payroll-1');
  await buildPendingDerivedIndexes(stores.database);
  const corpus = new CorpusStats(stores.database);
  await corpus.refresh();
  graph = new GraphRetriever(stores.database, corpus, new GraphCache(stores.database, { recheckMs: 0 }));
});

afterAll(async () => {
  await stores?.close();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('OpenIE at ingest', () => {
  it('without OpenIE the rule-based graph does not reach the passage linked only by a lower-case name', async () => {
    const titles = (await graph.search({ text: QUESTION, k: 10, sources: ['notes'] })).map((hit) => hit.title);
    expect(titles).toContain('Orion Gateway');
    expect(titles).not.toContain('Rebalancing notes');
  });

  it('adds triple entities as nodes and passage edges, bounded per run, skipping failed passages, never sending sensitive sources', async () => {
    const model = createModelPlugin({ name: 'cheap', provider: 'openai', model: 'gpt-4.1-mini', base_url: server.baseURL, api_key_env: 'LOOPBACK_KEY' }, { LOOPBACK_KEY: 'sk-loopback' });
    const logged: string[] = [];
    const options = { maxPassagesPerRun: 2, concurrency: 2, sensitiveSources: ['payroll'], log: (message: string) => logged.push(message) };
    // A tier that cannot be reached is an outage: nothing is marked, the version stays pending.
    const keyless = createModelPlugin({ name: 'cheap', provider: 'openai', model: 'gpt-4.1-mini', base_url: server.baseURL, api_key_env: 'NO_SUCH_KEY' }, {});
    const outage = await indexOpenIePending(stores.database, keyless, { ...options, log: () => undefined });
    expect(outage).toMatchObject({ links: 0, versions: [{ complete: false, failed: 2 }] });
    expect(outage.stopped).toMatch(/tier cheap unreachable: .*NO_SUCH_KEY is not set/);
    const first = await indexOpenIePending(stores.database, model, options);
    expect(first.versions).toEqual([expect.objectContaining({ passages: 2, complete: false })]);
    const second = await indexOpenIePending(stores.database, model, options);
    expect(second.versions[0]).toMatchObject({ complete: true });
    // Three passages attempted over two runs; Kestrel's prose reply is skipped (and retried once, while the version was unfinished).
    expect(first.passages + second.passages).toBeGreaterThanOrEqual(3);
    expect(first.failed + second.failed).toBeGreaterThanOrEqual(1);
    expect(logged.some((line) => /Kestrel|skipped: the reply holds no JSON object/.test(line))).toBe(true);
    expect(first.costUsd + second.costUsd).toBeGreaterThan(0);
    expect(server.sent.some((request) => request.passage.includes('Payroll'))).toBe(false);
    // NER first, then triples with the NER list.
    expect(server.sent[0].system).toBe(NER_INSTRUCTION);
    expect(server.sent.some((request) => request.passage.includes('"named_entities":["Orion Gateway","ledger sharding scheme"]'))).toBe(true);

    const rows = await stores.database.query<{ title: string; name: string; role: string; weight: number }>(sql`
      select chunks.title, entities.name, links.role, links.weight from graph_passage_entities links
      join graph_entities entities on entities.id = links.entity_id join chunks on chunks.id = links.chunk_id
      where links.role = 'openie' order by 1, 2`);
    expect(rows.map((row) => `${row.title}|${row.name}|${row.weight}`)).toEqual([
      'Orion Gateway|ledger sharding scheme|1',
      'Orion Gateway|payment traffic|1',
      'Rebalancing notes|eight databases|1',
      'Rebalancing notes|ledger sharding scheme|1',
    ]);
    const relations = await stores.database.query<{ title: string; subject: string; relation: string; object: string }>(sql`
      select chunks.title, subjects.name as subject, relations.relation, objects.name as object from graph_entity_relations relations
      join graph_entities subjects on subjects.id = relations.subject_id join graph_entities objects on objects.id = relations.object_id
      join chunks on chunks.id = relations.chunk_id order by 1, 2, 4`);
    expect(relations.map((row) => `${row.title}|${row.subject}|${row.relation}|${row.object}`)).toEqual([
      'Orion Gateway|orion gateway|rewritten on top of|ledger sharding scheme',
      'Orion Gateway|orion gateway|routes|payment traffic',
      'Rebalancing notes|ledger sharding scheme|splits accounts across|eight databases',
    ]);
    expect(first.relations + second.relations).toBe(3);
    expect(await indexOpenIePending(stores.database, model, options)).toMatchObject({ passages: 0, versions: [] });
  });

  it('lets PPR reach the passage linked only through an OpenIE entity', async () => {
    const hits = await graph.search({ text: QUESTION, k: 10, sources: ['notes'] });
    expect(hits.map((hit) => hit.title).slice(0, 2)).toEqual(['Orion Gateway', 'Rebalancing notes']);
  });

  it('re-extracts after a graph rebuild, and a local model may read the sensitive source', async () => {
    const [notes] = (await stores.store.listSources()).filter((source) => source.name === 'notes');
    await buildGraphForVersion(stores.database, notes.versionId!);
    const [left] = await stores.database.query<{ count: number }>(sql`select count(*)::int as count from graph_entity_relations where version_id = ${notes.versionId}`);
    expect(left.count).toBe(0);
    expect((await graph.search({ text: QUESTION, k: 10, sources: ['notes'] })).map((hit) => hit.title)).not.toContain('Rebalancing notes');
    // A loopback openai-compatible tier is local: sensitive passages may go to it.
    const local = createModelPlugin({ name: 'ollama', provider: 'openai-compatible', model: 'qwen', base_url: server.baseURL }, {});
    expect(local.capabilities().local).toBe(true);
    const report = await indexOpenIePending(stores.database, local, { sensitiveSources: ['payroll'], log: () => undefined });
    // notes: all three again (Kestrel fails again); payroll: its one passage.
    expect(report.versions.map((version) => `${version.passages}/${version.failed}/${version.complete}`).sort()).toEqual(['1/0/true', '3/1/true']);
    expect(server.sent.some((request) => request.passage.includes('Payroll'))).toBe(true);
    expect((await graph.search({ text: QUESTION, k: 10, sources: ['notes'] })).map((hit) => hit.title)).toContain('Rebalancing notes');
  });
});
