/**
 * Node outcomes keep their passages as chunk references, not as text. A run's retrieve, fuse,
 * compress and assemble outputs each carry the same passages again: on the demo incident 8 saved
 * outcomes held 274 KB, nearly all of it passage text, written on every run to serve a resume that
 * few runs ever need (bench:loc --queries: ~32 ms of a run's statements). A chunk's text never
 * changes under its id (changed text is a new chunk, and old versions' chunks are kept), so the
 * record keeps the id and the text is read back from the chunk store when a record is loaded
 * (PgRunStore does both: every reader of a run, resume and the evidence view included, sees text).
 *
 * Only text the store confirms is dropped: a hit whose text differs from its chunk's (redacted, or
 * from a store without that chunk) keeps it, and so does a compressed item, whose text is its own.
 * Stored, a hit without `text` takes its chunk's; an item without `text` takes its hit's.
 */
import type { NodeOutcome } from '../../runtime/contracts/scheduler';

/** What the chunk store holds under a chunk id: its text and what every hit of it repeats. */
export interface StoredChunk {
  readonly text: string;
  readonly sourceName: string;
  readonly sourceKind: string;
  readonly sourceVersionId: string;
  readonly title: string;
  readonly locator?: string;
  readonly tokens: number;
}

/** The stored chunk of each chunk id that exists. */
export type StoredChunks = (chunkIds: readonly string[]) => Promise<ReadonlyMap<string, StoredChunk>>;

/**
 * A hit's fields that repeat its chunk's. Left out together, and only when every one equals the
 * chunk's (bench:loc: ~300 of a saved hit's ~400 bytes, ~50 KB of JSON a run); a stored hit without
 * `sourceName` takes them all from its chunk.
 */
const CHUNK_FIELDS = ['sourceName', 'sourceKind', 'sourceVersionId', 'title', 'locator', 'tokens'] as const;

type Passage = Readonly<Record<string, unknown>> & { readonly chunkId: string; readonly text?: string };
type Item = Readonly<Record<string, unknown>> & { readonly hit: Passage; readonly text?: string };
type Output = Readonly<Record<string, unknown>> & { readonly hits?: readonly Passage[]; readonly items?: readonly Item[] };

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isPassage = (value: unknown): value is Passage => isRecord(value) && typeof value.chunkId === 'string';
const isItem = (value: unknown): value is Item => isRecord(value) && isPassage(value.hit);

/** The passages an output holds: retrieve, fuse and rerank outputs list `hits`; compress and assemble list `items`. */
function passagesOf(output: unknown): { readonly hits: readonly Passage[]; readonly items: readonly Item[] } | undefined {
  if (!isRecord(output)) return undefined;
  const hits = Array.isArray(output.hits) && output.hits.every(isPassage) ? (output.hits as readonly Passage[]) : [];
  const items = Array.isArray(output.items) && output.items.every(isItem) ? (output.items as readonly Item[]) : [];
  return hits.length > 0 || items.length > 0 ? { hits, items } : undefined;
}

function withoutKey<T extends Readonly<Record<string, unknown>>>(value: T, key: string): T {
  const { [key]: _dropped, ...rest } = value;
  return rest as T;
}

/** The outcome as stored: passage text the store holds under the same chunk id is left out. */
export async function compactOutcome(outcome: NodeOutcome, storedChunks: StoredChunks): Promise<NodeOutcome> {
  const passages = passagesOf(outcome.output);
  if (!passages) return outcome;
  const stored = await storedChunks([...passages.hits, ...passages.items.map((item) => item.hit)].map((hit) => hit.chunkId));
  const compactHit = (hit: Passage): Passage => {
    const chunk = stored.get(hit.chunkId);
    if (!chunk) return hit;
    const withoutText = typeof hit.text === 'string' && chunk.text === hit.text ? withoutKey(hit, 'text') : hit;
    if (!CHUNK_FIELDS.every((field) => hit[field] === chunk[field])) return withoutText;
    let compact = withoutText;
    for (const field of CHUNK_FIELDS) compact = withoutKey(compact, field);
    return compact;
  };
  const compactItem = (item: Item): Item => {
    const kept = item.text === item.hit.text ? withoutKey(item, 'text') : item;
    return { ...kept, hit: compactHit(item.hit) };
  };
  const output = outcome.output as Output;
  return {
    ...outcome,
    output: {
      ...output,
      ...(passages.hits.length > 0 ? { hits: passages.hits.map(compactHit) } : {}),
      ...(passages.items.length > 0 ? { items: passages.items.map(compactItem) } : {}),
    },
  };
}

/**
 * Saved outcomes with their passages' text back. A chunk that no longer exists (none is deleted
 * today) reads as empty text rather than making the whole record unreadable.
 */
export async function restoreOutcomes(outcomes: ReadonlyMap<string, NodeOutcome>, storedChunks: StoredChunks): Promise<ReadonlyMap<string, NodeOutcome>> {
  const missing = new Set<string>();
  const leftOut = (hit: Passage) => typeof hit.text !== 'string' || hit.sourceName === undefined;
  for (const outcome of outcomes.values()) {
    const passages = passagesOf(outcome.output);
    for (const hit of [...(passages?.hits ?? []), ...(passages?.items ?? []).map((item) => item.hit)]) if (leftOut(hit)) missing.add(hit.chunkId);
  }
  if (missing.size === 0) return outcomes;
  const stored = await storedChunks([...missing]);
  const restoreHit = (hit: Passage): Passage => {
    if (!leftOut(hit)) return hit;
    const chunk = stored.get(hit.chunkId);
    const text = typeof hit.text === 'string' ? hit.text : (chunk?.text ?? '');
    if (hit.sourceName !== undefined || !chunk) return { ...hit, text };
    const { text: _text, ...fields } = chunk;
    return { ...hit, ...fields, text };
  };
  const restoreItem = (item: Item): Item => {
    const hit = restoreHit(item.hit);
    return { ...item, hit, text: typeof item.text === 'string' ? item.text : hit.text };
  };
  const restored = new Map<string, NodeOutcome>();
  for (const [nodeId, outcome] of outcomes) {
    const passages = passagesOf(outcome.output);
    const output = outcome.output as Output;
    restored.set(nodeId, passages ? { ...outcome, output: { ...output, ...(passages.hits.length > 0 ? { hits: passages.hits.map(restoreHit) } : {}), ...(passages.items.length > 0 ? { items: passages.items.map(restoreItem) } : {}) } } : outcome);
  }
  return restored;
}
