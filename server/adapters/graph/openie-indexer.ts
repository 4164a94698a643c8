import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { ModelPlugin } from '../../runtime/contracts/model';
import { isContextRuntimeError } from '../../runtime/errors';
import { containsSensitive, redactSensitive, type SensitiveContentMode } from '../../runtime/policy/sensitive-content-detector';
import { entityIdOf, GRAPH_INDEX, OPENIE_INDEX, OPENIE_PARTIAL_INDEX } from './graph-builder';
import { DEFAULT_OPENIE_OPTIONS, extractOpenIe, type OpenIeExtraction, type OpenIeOptions } from './openie-extractor';

export interface OpenIeIndexOptions extends OpenIeOptions {
  /** Passages sent to the model per run (one ingest, or start-up): two calls each, so this bounds an ingest's model spend. */
  readonly maxPassagesPerRun: number;
  /** Passages in flight at once. */
  readonly concurrency: number;
  /** Source names whose passages may not leave the machine (besides sources flagged sensitive): skipped unless the model is local. */
  readonly sensitiveSources: readonly string[];
  /** A passage holding personal data or secrets, for a non-local model: skipped (local_only) or sent redacted (redact). */
  readonly sensitiveContent: SensitiveContentMode;
  readonly log: (message: string) => void;
}

/**
 * 100 passages × 2 calls at 4 in flight is ~50 sequential round trips, a minute or so on a hosted
 * tier at ~1 s a call, and about $0.04 on gpt-4.1-mini at HippoRAG's ~700 prompt tokens a call.
 */
export const DEFAULT_OPENIE_INDEX_OPTIONS: OpenIeIndexOptions = Object.freeze({
  ...DEFAULT_OPENIE_OPTIONS,
  maxPassagesPerRun: 100,
  concurrency: 4,
  sensitiveSources: Object.freeze([]),
  sensitiveContent: 'local_only',
  log: (message: string) => console.warn(message),
});

/** One indexing run's own: `signal` aborts it (an ingest cancelled or past its time), its model calls in flight too. */
export interface OpenIeRun {
  readonly signal?: AbortSignal;
}

export interface OpenIeIndexReport {
  readonly versions: readonly { readonly versionId: string; readonly passages: number; readonly failed: number; readonly links: number; readonly relations: number; readonly complete: boolean }[];
  readonly passages: number;
  readonly failed: number;
  readonly links: number;
  readonly relations: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  readonly milliseconds: number;
  /** Set when every call of a version failed to reach the model: the run stopped and the version stays pending. */
  readonly stopped?: string;
}

interface PendingVersion extends Record<string, unknown> {
  readonly version_id: string;
  readonly name: string;
  readonly sensitive: boolean;
}

interface PassageRow extends Record<string, unknown> {
  readonly id: string;
  readonly title: string;
  readonly body: string;
  /** Marked at ingest (null: written before the marking, not yet scanned — counts as sensitive). */
  readonly sensitive: boolean | null;
}

/** Current versions whose graph is built but whose OpenIE links are missing or older than it (a rebuild drops them). */
const pendingVersions = (database: Database) =>
  database.query<PendingVersion>(sql`
    select sources.current_version_id as version_id, sources.name, sources.sensitive
    from sources
    join derived_index_builds graph on graph.version_id = sources.current_version_id and graph.index_name = ${GRAPH_INDEX}
    left join derived_index_builds openie on openie.version_id = sources.current_version_id and openie.index_name = ${OPENIE_INDEX}
    where openie.version_id is null or openie.built_at < graph.built_at
    order by 1`);

/** Passages of a version without an OpenIE link yet; one more than wanted, to tell whether the version is finished. */
const passagesWithoutLinks = (database: Database, versionId: string, limit: number) =>
  database.query<PassageRow>(sql`
    select chunks.id, chunks.title, chunks.body, chunks.sensitive from chunks
    where chunks.version_id = ${versionId} and not chunks.lookup_only
      and not exists (select 1 from graph_passage_entities links where links.chunk_id = chunks.id and links.role = 'openie')
    order by chunks.id limit ${limit + 1}`);

/** Runs `work` over `items` with at most `concurrency` in flight, in order of start. */
async function pool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

/** What of a passage may go to the model: all of it when local; else without its sensitive spans, or nothing. */
function outgoing<Passage extends { readonly title: string; readonly body: string; readonly sensitive: boolean | null }>(passage: Passage, local: boolean, mode: SensitiveContentMode): Passage[] {
  // The mark stored at ingest decides; the scan stays for a detector that learned a pattern since.
  if (local || (passage.sensitive === false && !containsSensitive(`${passage.title}\n${passage.body}`))) return [passage];
  return mode === 'redact' ? [{ ...passage, title: redactSensitive(passage.title), body: redactSensitive(passage.body) }] : [];
}

/**
 * HippoRAG-style OpenIE over every current version whose graph lacks it: the passage–entity
 * edges of the triples' names join the rule-based ones in graph_passage_entities (role 'openie'),
 * so the graph retriever's PPR walks through them. A passage whose extraction fails is logged and
 * skipped; a version larger than the run's budget is finished by later runs.
 */
export async function indexOpenIePending(database: Database, model: ModelPlugin, options: Partial<OpenIeIndexOptions> = {}, run: OpenIeRun = {}): Promise<OpenIeIndexReport> {
  const settings = { ...DEFAULT_OPENIE_INDEX_OPTIONS, ...options };
  const started = performance.now();
  const local = model.capabilities().local;
  const sensitive = new Set(settings.sensitiveSources);
  const spend = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const versions: OpenIeIndexReport['versions'][number][] = [];
  let budget = settings.maxPassagesPerRun;
  let stopped: string | undefined;
  for (const version of await pendingVersions(database)) {
    if (budget <= 0) break;
    run.signal?.throwIfAborted();
    if (!local && (version.sensitive || sensitive.has(version.name))) continue;
    const rows = await passagesWithoutLinks(database, version.version_id, budget);
    const passages = rows.slice(0, budget).flatMap((passage) => outgoing(passage, local, settings.sensitiveContent));
    const complete = rows.length <= budget;
    budget -= passages.length;
    const extractions = new Map<string, OpenIeExtraction>();
    let failed = 0;
    let unreachable = 0;
    let lastError = '';
    await pool(passages, settings.concurrency, async (passage) => {
      // Aborted: no next passage starts, and the calls in flight end with the signal's reason.
      run.signal?.throwIfAborted();
      try {
        const extraction = await extractOpenIe(model, passage, settings, run.signal);
        extractions.set(passage.id, extraction);
        spend.inputTokens += extraction.inputTokens;
        spend.outputTokens += extraction.outputTokens;
        spend.costUsd += extraction.costUsd;
      } catch (error) {
        // Not the passage's fault: the version stays pending (nothing stored) for the next ingest.
        if (run.signal?.aborted) throw error;
        failed++;
        if (isContextRuntimeError(error) && (error.code === 'MODEL_UNAVAILABLE' || error.code === 'TIMEOUT')) unreachable++;
        lastError = error instanceof Error ? error.message : String(error);
        settings.log(`openie: passage ${passage.id} of version ${version.version_id} skipped: ${lastError}`);
      }
    });
    // An outage, not bad passages: marking the version done would lose its OpenIE for good.
    if (passages.length > 0 && unreachable === passages.length) {
      versions.push(Object.freeze({ versionId: version.version_id, passages: passages.length, failed, links: 0, relations: 0, complete: false }));
      stopped = `model tier ${model.tier} unreachable: ${lastError}`;
      settings.log(`openie: run stopped, pending versions wait for the next ingest: ${stopped}`);
      break;
    }
    const stored = await storeExtractions(database, version.version_id, extractions, complete);
    versions.push(Object.freeze({ versionId: version.version_id, passages: passages.length, failed, ...stored, complete }));
  }
  const sum = (field: 'passages' | 'failed' | 'links' | 'relations') => versions.reduce((total, version) => total + version[field], 0);
  return Object.freeze({
    versions: Object.freeze(versions),
    passages: sum('passages'),
    failed: sum('failed'),
    links: sum('links'),
    relations: sum('relations'),
    ...spend,
    milliseconds: performance.now() - started,
    ...(stopped ? { stopped } : {}),
  });
}

/**
 * Entities, links and relations of one version in one transaction, with the build mark the graph cache keys
 * on: `openie` when the version is finished, `openie-partial` (re-stamped each run) before, so
 * every run's links reach the next search either way.
 */
async function storeExtractions(database: Database, versionId: string, extractions: ReadonlyMap<string, OpenIeExtraction>, complete: boolean): Promise<{ links: number; relations: number }> {
  const links = [...extractions].flatMap(([chunkId, extraction]) =>
    extraction.mentions.map((mention) => ({ chunk_id: chunkId, entity_id: entityIdOf(mention.name), name: mention.name, weight: mention.count })),
  );
  const relations = [...extractions].flatMap(([chunkId, extraction]) =>
    extraction.relations.map((relation) => ({ chunk_id: chunkId, subject_id: entityIdOf(relation.subject), object_id: entityIdOf(relation.object), relation: relation.relation, weight: relation.count })),
  );
  const entities = JSON.stringify([...new Map(links.map((link) => [link.entity_id, { id: link.entity_id, name: link.name }])).values()]);
  const payload = JSON.stringify(links);
  const mark = complete ? OPENIE_INDEX : OPENIE_PARTIAL_INDEX;
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into graph_entities (id, name)
      select id, name from jsonb_to_recordset(${entities}::jsonb) as row_set(id text, name text)
      on conflict do nothing`);
    // A name the rules already linked keeps its role (a title edge is weighted as one).
    await tx.execute(sql`
      insert into graph_passage_entities (chunk_id, entity_id, version_id, role, weight)
      select chunk_id, entity_id, ${versionId}, 'openie', weight
      from jsonb_to_recordset(${payload}::jsonb) as row_set(chunk_id text, entity_id text, weight real)
      on conflict do nothing`);
    await tx.execute(sql`
      insert into graph_entity_relations (chunk_id, subject_id, object_id, version_id, relation, weight)
      select chunk_id, subject_id, object_id, ${versionId}, relation, weight
      from jsonb_to_recordset(${JSON.stringify(relations)}::jsonb) as row_set(chunk_id text, subject_id text, object_id text, relation text, weight real)
      on conflict do nothing`);
    await tx.execute(sql`
      insert into derived_index_builds (version_id, index_name, items)
      select ${versionId}, ${mark}, count(*) from graph_passage_entities where version_id = ${versionId} and role = 'openie'
      on conflict (version_id, index_name) do update set items = excluded.items, built_at = now()`);
    if (complete) await tx.execute(sql`delete from derived_index_builds where version_id = ${versionId} and index_name = ${OPENIE_PARTIAL_INDEX}`);
  });
  return { links: links.length, relations: relations.length };
}

/** indexOpenIePending with runs queued, so an ingest and start-up never extract the same passages twice at once. */
export function createOpenIeIndexing(database: Database, model: ModelPlugin, options: Partial<OpenIeIndexOptions> = {}): (run?: OpenIeRun) => Promise<OpenIeIndexReport> {
  let queue: Promise<unknown> = Promise.resolve();
  return (runOptions = {}) => {
    const run = () => indexOpenIePending(database, model, options, runOptions);
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
}
