import type { ModelPlugin } from '../../runtime/contracts/model';
import { normalizeEntity } from './entity-normalizer';
import { nerMessages, parseEntities, parseTriples, type Triple, tripleMessages } from './openie-prompts';

export interface OpenIeOptions {
  readonly timeoutMs: number;
  /** Output budget of each of the two calls: HippoRAG's example passage yields ~170 tokens of triples. */
  readonly maxOutputTokens: number;
  /** Characters of a passage sent (chunks are a few hundred tokens; this only stops a runaway row). */
  readonly maxPassageChars: number;
}

export const DEFAULT_OPENIE_OPTIONS: OpenIeOptions = Object.freeze({ timeoutMs: 30_000, maxOutputTokens: 1_024, maxPassageChars: 6_000 });

/** One normalised entity a passage names, with how many triples (at least 1, for an NER-only name) it is part of. */
export interface OpenIeMention {
  readonly name: string;
  readonly count: number;
}

/** An entity–entity edge of one passage: its triples joining the (normalised) pair, and the first relation phrase. */
export interface OpenIeRelation {
  readonly subject: string;
  readonly object: string;
  readonly relation: string;
  readonly count: number;
}

export interface OpenIeExtraction {
  readonly entities: readonly string[];
  readonly triples: readonly Triple[];
  readonly mentions: readonly OpenIeMention[];
  readonly relations: readonly OpenIeRelation[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
}

/** More names than this in one passage are list noise (tables, link farms): as nodes they would be hubs. */
export const MAX_OPENIE_MENTIONS = 64;

/**
 * Graph nodes of one passage from its NER list and its triples' subjects and objects, spelled as
 * the rule-based extractor spells them (entity-normalizer.ts), so an OpenIE name and the same
 * name found by the rules, or named in a query, meet on one node.
 */
export function mentionsOf(entities: readonly string[], triples: readonly Triple[]): readonly OpenIeMention[] {
  const counts = new Map<string, number>();
  for (const [subject, , object] of triples) {
    for (const name of new Set([normalizeEntity(subject), normalizeEntity(object)])) if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  for (const entity of entities) {
    const name = normalizeEntity(entity);
    if (name && !counts.has(name)) counts.set(name, 1);
  }
  return Object.freeze(
    [...counts]
      .sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]))
      .slice(0, MAX_OPENIE_MENTIONS)
      .map(([name, count]) => Object.freeze({ name, count })),
  );
}

/** Relation edges of a passage's triples between two different nodes among `mentions` (the cap may have dropped some). */
export function relationsOf(triples: readonly Triple[], mentions: readonly OpenIeMention[]): readonly OpenIeRelation[] {
  const nodes = new Set(mentions.map((mention) => mention.name));
  const pairs = new Map<string, { subject: string; object: string; relation: string; count: number }>();
  for (const [subjectText, relation, objectText] of triples) {
    const subject = normalizeEntity(subjectText);
    const object = normalizeEntity(objectText);
    if (subject === object || !nodes.has(subject) || !nodes.has(object)) continue;
    const key = `${subject}\u0000${object}`;
    const pair = pairs.get(key);
    if (pair) pair.count++;
    else pairs.set(key, { subject, object, relation, count: 1 });
  }
  return Object.freeze([...pairs.values()].map((pair) => Object.freeze(pair)));
}

/**
 * NER, then triples given the NER list: two calls through the tier's AI SDK model. Throws on a
 * failed call or an unusable reply. `signal` (an ingest cancelled or past its time) aborts the call in flight.
 */
export async function extractOpenIe(model: ModelPlugin, passage: { readonly title: string; readonly body: string }, options: OpenIeOptions = DEFAULT_OPENIE_OPTIONS, signal?: AbortSignal): Promise<OpenIeExtraction> {
  const text = `${passage.title}\n${passage.body}`.slice(0, options.maxPassageChars);
  const request = { maxOutputTokens: options.maxOutputTokens, timeoutMs: options.timeoutMs, ...(signal ? { signal } : {}) };
  const ner = await model.complete({ ...request, messages: nerMessages(text) });
  const entities = parseEntities(ner.text);
  const extracted = await model.complete({ ...request, messages: tripleMessages(text, entities) });
  const triples = parseTriples(extracted.text);
  const mentions = mentionsOf(entities, triples);
  return Object.freeze({
    entities,
    triples,
    mentions,
    relations: relationsOf(triples, mentions),
    inputTokens: ner.usage.inputTokens + extracted.usage.inputTokens,
    outputTokens: ner.usage.outputTokens + extracted.usage.outputTokens,
    costUsd: ner.costUsd + extracted.costUsd,
  });
}
