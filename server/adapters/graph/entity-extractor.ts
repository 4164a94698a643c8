import { STOPWORDS } from '../../runtime/text/english-stopwords';
import { quotedSpans } from '../../runtime/planner/goal-tokens';
import { MAX_ENTITY_WORDS, normalizeEntity, titleAliases } from './entity-normalizer';
import { scanIdentifiers } from './identifier-scan';

/**
 * Entities of a passage without a language model, for the HippoRAG-style graph: the title (and
 * the aliases it is written as), capitalised multi-word spans ("Journal of Mathematical
 * Physics"), capitalised words inside a sentence ("Copenhagen"), quoted strings and identifiers.
 * HippoRAG gets its nodes from LLM OpenIE; proper-noun spans recover most named entities of
 * Wikipedia prose, which is where its multi-hop questions bridge.
 */
export type EntityRole = 'title' | 'span' | 'quoted' | 'identifier';

export interface EntityMention {
  readonly name: string;
  readonly role: EntityRole;
  /** Occurrences in the passage (a title counts once). */
  readonly count: number;
}

/** Words or single punctuation marks; "Men's", "U.S." and "Jean-Luc" stay one word. */
const WORDS = /[\p{L}\p{N}]+(?:['’.&-][\p{L}\p{N}]+)*\.?|[^\s\p{L}\p{N}]/gu;
const CAPITALISED = /^\p{Lu}/u;
const ABBREVIATION = /^(?:\p{Lu}\.|.*\.\p{L}+\.)$/u;
const SPACED_HYPHEN = /(?<=[\p{L}\p{N}]) - (?=[\p{L}\p{N}])/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const SENTENCE_END = new Set(['.', '!', '?', '…']);
/** Lower-case words allowed inside a name when a capitalised word follows: "Bank of America", "Lord of the Rings". */
const CONNECTORS = new Set(['of', 'the', 'de', 'du', 'des', 'la', 'le', 'von', 'van', 'der', 'den', 'da', 'di', 'del', 'y', 'for', 'on', 'upon']);
/** Capitalised at a sentence start only because of the position: "Its", "However", "During". */
const OPENERS = new Set(['however', 'although', 'though', 'after', 'before', 'during', 'since', 'following', 'despite', 'today', 'later', 'many', 'several', 'both', 'according', 'unlike', 'like', 'in', 'on', 'at', 'as', 'by']);
/** Capitalised by convention, not names a question bridges through: as nodes they would be hubs that spread PPR mass thin. */
const CALENDAR = new Set('january,february,march,april,may,june,july,august,september,october,november,december,monday,tuesday,wednesday,thursday,friday,saturday,sunday'.split(','));
export const MAX_MENTIONS = 512;

const isOpener = (word: string): boolean => STOPWORDS.has(word.toLowerCase()) || OPENERS.has(word.toLowerCase());

export function extractEntities(title: string, text: string): readonly EntityMention[] {
  const counts = new Map<string, { role: EntityRole; count: number }>();
  const add = (name: string, role: EntityRole) => {
    if (!name) return;
    const existing = counts.get(name);
    if (existing) existing.count += existing.role === 'title' ? 0 : 1;
    else if (counts.size < MAX_MENTIONS) counts.set(name, { role, count: 1 });
  };
  for (const alias of titleAliases(title)) add(alias, 'title');
  for (const span of capitalisedSpans(text)) add(normalizeEntity(span), 'span');
  for (const quoted of quotedSpans(text)) if (quoted.split(/\s+/).length <= MAX_ENTITY_WORDS) add(normalizeEntity(quoted), 'quoted');
  for (const identifier of scanIdentifiers(text, 64)) add(normalizeEntity(identifier.value), 'identifier');
  return [...counts].map(([name, { role, count }]) => Object.freeze({ name, role, count }));
}

/**
 * Maximal runs of capitalised words (connectors allowed between two of them). A single
 * capitalised word that opens a sentence is capitalised by position, not necessarily by being a
 * name ("Published in 1963, …"): it is kept only when the passage also capitalises it
 * mid-sentence. Measured on MuSiQue train100, keeping them all made "published", "first" and
 * "president" graph nodes that the linker then matched in ordinary questions.
 */
export function capitalisedSpans(text: string): readonly string[] {
  const spans: { readonly words: readonly string[]; readonly atSentenceStart: boolean }[] = [];
  const midSentence = new Set<string>();
  let span: string[] = [];
  let spanAtSentenceStart = false;
  let sentenceStart = true;
  const close = () => {
    while (span.length > 0 && CONNECTORS.has(span[span.length - 1].toLowerCase())) span.pop();
    if (spanAtSentenceStart && span.length > 0 && isOpener(span[0])) span.shift();
    while (span.length > 0 && CALENDAR.has(span[0].toLowerCase())) span.shift();
    if (span.length > 0 && !(span.length === 1 && CALENDAR.has(span[0].toLowerCase()))) spans.push({ words: span, atSentenceStart: spanAtSentenceStart });
    span = [];
  };
  // MuSiQue's Wikipedia dump spaces hyphens ("Person - centered therapy"); rejoin them.
  const words = text.replace(SPACED_HYPHEN, '-').match(WORDS) ?? [];
  for (let index = 0; index < words.length; index++) {
    const raw = words[index];
    // "Mathematics." ends a sentence; "U.S." and the initial in "George T. Solomon" do not.
    const endsSentence = raw.length > 1 && raw.endsWith('.') && !ABBREVIATION.test(raw);
    const word = endsSentence ? raw.slice(0, -1) : raw;
    if (!LETTER_OR_DIGIT.test(word)) {
      close();
      if (SENTENCE_END.has(word)) sentenceStart = true;
      continue;
    }
    if (CAPITALISED.test(word)) {
      if (span.length === 0) spanAtSentenceStart = sentenceStart;
      if (!sentenceStart) midSentence.add(word);
      span.push(word);
      if (endsSentence) close();
    } else if (span.length > 0 && CONNECTORS.has(word) && CAPITALISED.test(words[index + 1] ?? '')) {
      span.push(word);
    } else close();
    sentenceStart = endsSentence;
  }
  close();
  return spans.filter((found) => found.words.length > 1 || !found.atSentenceStart || midSentence.has(found.words[0])).map((found) => found.words.join(' '));
}
