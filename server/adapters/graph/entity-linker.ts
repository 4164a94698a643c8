import { GOAL_VERBS } from '../../runtime/planner/intent-lexicon';
import { REQUEST_STOPWORDS } from '../../runtime/text/english-stopwords';
import { extractEntities } from './entity-extractor';
import { contentWords, MAX_ENTITY_WORDS, normalizeEntity, surfaceWords } from './entity-normalizer';

const CAPITALISED = /^\p{Lu}/u;
import { type PassageGraph, passageCountOf } from './passage-graph';

/**
 * Query entities → graph nodes. HippoRAG links each query named entity to its nearest phrase node
 * by embedding similarity; without an encoder this does it lexically, in two passes:
 * 1. exact: the longest word n-grams of the normalised query that are entity names (greedy,
 *    non-overlapping), so "Journal of Psychotherapy Integration" wins over "psychotherapy";
 * 2. fuzzy: every extracted query mention (capitalised span, quoted string, identifier) with no
 *    exact node goes to the entities sharing its content words, scored by Dice overlap.
 * Each link is weighted by its similarity × node specificity 1/|P_i| (HippoRAG §3.2), so a name
 * found in one passage outweighs one found in two hundred.
 */
export interface EntityLink {
  readonly entity: number;
  readonly name: string;
  readonly similarity: number;
  readonly weight: number;
}

export interface LinkingOptions {
  /** Minimum Dice overlap of content words for a fuzzy link. */
  readonly minSimilarity: number;
  /** Fuzzy candidates kept per mention. */
  readonly perMention: number;
  /** Entities in more passages than this are hubs ("american", "united states"), not evidence of a topic. */
  readonly maxPassages: number;
}

export const DEFAULT_LINKING: LinkingOptions = Object.freeze({ minSimilarity: 0.5, perMention: 2, maxPassages: 200 });

export function linkQueryEntities(graph: PassageGraph, text: string, identifiers: readonly string[] = [], options: LinkingOptions = DEFAULT_LINKING): readonly EntityLink[] {
  const links = new Map<number, EntityLink>();
  const add = (entity: number, similarity: number) => {
    const passages = passageCountOf(graph, entity);
    if (passages === 0 || passages > options.maxPassages) return;
    const weight = similarity / passages;
    const existing = links.get(entity);
    if (!existing || existing.weight < weight) links.set(entity, Object.freeze({ entity, name: graph.entityNames[entity], similarity, weight }));
  };
  const surface = surfaceWords(text);
  const words = surface.map((word) => word.toLowerCase());
  // A lower-case single word ("state", "published") is a common noun, not a name, even where some
  // passage capitalised it; an n-gram links when it holds a capitalised word or two content words.
  const named = surface.map((word, index) => CAPITALISED.test(word) && !(index === 0 && (REQUEST_STOPWORDS.has(words[index]) || GOAL_VERBS.has(words[index]))));
  const covered = new Uint8Array(words.length);
  for (let start = 0; start < words.length; start++) {
    for (let length = Math.min(MAX_ENTITY_WORDS, words.length - start); length >= 1; length--) {
      if (length === 1 && REQUEST_STOPWORDS.has(words[start])) break;
      const entity = graph.entityIndex.get(words.slice(start, start + length).join(' '));
      if (entity === undefined || covered.subarray(start, start + length).every((flag) => flag === 1)) continue;
      const isNamed = named.slice(start, start + length).some(Boolean) || contentWords(graph.entityNames[entity]).length >= 2;
      if (!isNamed) continue;
      add(entity, 1);
      covered.fill(1, start, start + length);
      break;
    }
  }
  const mentions = new Set([...extractEntities('', text).map((mention) => mention.name), ...identifiers.map(normalizeEntity)]);
  for (const mention of mentions) {
    if (!mention || graph.entityIndex.has(mention)) continue;
    for (const [entity, similarity] of fuzzyCandidates(graph, mention, options)) add(entity, similarity);
  }
  return Object.freeze([...links.values()]);
}

function fuzzyCandidates(graph: PassageGraph, mention: string, options: LinkingOptions): readonly (readonly [number, number])[] {
  const mentionWords = new Set(contentWords(mention));
  if (mentionWords.size === 0) return [];
  const shared = new Map<number, number>();
  for (const word of mentionWords) for (const entity of graph.wordIndex.get(word) ?? []) shared.set(entity, (shared.get(entity) ?? 0) + 1);
  const scored: [number, number][] = [];
  for (const [entity, overlap] of shared) {
    const size = new Set(contentWords(graph.entityNames[entity])).size;
    const dice = (2 * overlap) / (mentionWords.size + size);
    if (dice >= options.minSimilarity) scored.push([entity, dice]);
  }
  scored.sort((left, right) => right[1] - left[1] || left[0] - right[0]);
  return scored.slice(0, options.perMention);
}
