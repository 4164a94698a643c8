import type { ParsedContextBlock, ParsedContextPrompt } from '../../runtime/reasoner/context-prompt';
import { splitSentences } from '../../runtime/reasoner/sentence-splitter';
import { contentTerms, stem, tokenize } from '../../runtime/reasoner/text-terms';

/**
 * The extractive reader behind the built-in offline model: it never writes a claim of its own,
 * it selects context sentences and cites each one. Scoring is Okapi BM25 of each sentence against
 * the question (Robertson & Zaragoza 2009, k1 = 1.2, b = 0.75), with IDF computed over the
 * sentences of this context only, plus small bonuses for the vocabulary that carries incident
 * evidence (failures, resources, causes, changes) and for identifiers named in the question.
 */
const K1 = 1.2;
const B = 0.75;
/**
 * A block's header (title, source, locator) is scored once and shared by all its sentences, like a
 * BM25F field; a question term the header already matched adds nothing when a sentence repeats it,
 * so "checkout-api listening on :8080" does not outrank the heap error in the checkout-api log.
 */
const HEADER_WEIGHT = 1.0;
const HEADER_MIN_TERMS = 2;
/** Sentences scoring under this share of the best one are not evidence, only noise that shares a word. */
const RELATIVE_THRESHOLD = 0.3;
/** At most this many sources, one sentence each: enough for symptom, change and cause without flooding the answer. */
const MAX_SOURCES = 4;
/** When fewer sources qualify, the answer is topped up to this many sentences from those sources. */
const MIN_SENTENCES = 3;
/** Two log lines sharing this share of terms are the same event on another pod: cite it once. */
const DUPLICATE_JACCARD = 0.7;

const SIGNAL_WORDS: readonly (readonly string[])[] = [
  // failure
  'error errors failed failure fail exception panic crash crashloopbackoff backoff oomkilled killed kill timeout timed refused denied exceeded unavailable evicted unhealthy terminated 500 502 503 504'.split(' '),
  // resource
  'memory cpu limit limits quota disk heap oom throttled throttling saturation connections pool'.split(' '),
  // cause
  'because due caused cause root result resulted triggered after since therefore'.split(' '),
  // change
  'lowered raised increased decreased changed reverted revert rollback rolled deployed deploy bumped reduced set updated merged released config'.split(' '),
];
const SIGNAL_CATEGORIES: readonly ReadonlySet<string>[] = SIGNAL_WORDS.map((words) => new Set(words.map(stem)));
/** Each signal category present adds this share of the question's mean IDF (at most three categories). */
const SIGNAL_SHARE = 0.35;
/** An identifier of the question found verbatim in a sentence counts its IDF once more: rare IDs (a request id) weigh most. */
const IDENTIFIER_SHARE = 1.0;
/** Quantities and codes ("256Mi", "exit code 137") are what answers are made of. */
const QUANTITY_SHARE = 0.15;

interface Unit {
  readonly ref: number;
  readonly order: number;
  readonly text: string;
  readonly terms: readonly string[];
  readonly termSet: ReadonlySet<string>;
  readonly tokens: ReadonlySet<string>;
  /** Letters-only terms: the same event on another pod or at another time has the same shape. */
  readonly shape: ReadonlySet<string>;
}

export interface SelectedSentence {
  readonly ref: number;
  readonly text: string;
  readonly score: number;
}

const isIdentifier = (token: string) => (/[a-z]/.test(token) && /\d/.test(token)) || (/[-_.:/]/.test(token) && token.length > 3);

function unitsOf(blocks: readonly ParsedContextBlock[]): Unit[] {
  let order = 0;
  return blocks.flatMap((block) =>
    splitSentences(block.text).map((text) => {
      const terms = contentTerms(text);
      const shape = new Set(terms.filter((term) => !/\d/.test(term)));
      return { ref: block.ref, order: order++, text, terms, termSet: new Set(terms), tokens: new Set(tokenize(text)), shape };
    }),
  );
}

function jaccard(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  let shared = 0;
  for (const term of left) if (right.has(term)) shared += 1;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** Scores every context sentence against the question and picks the evidence, best first. */
export function selectEvidence(prompt: ParsedContextPrompt): SelectedSentence[] {
  const queryTerms = [...new Set(contentTerms(prompt.question))];
  const units = unitsOf(prompt.blocks);
  if (queryTerms.length === 0 || units.length === 0) return [];
  const documentFrequency = new Map<string, number>();
  for (const unit of units) for (const term of unit.termSet) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const idf = (term: string) => {
    const frequency = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (units.length - frequency + 0.5) / (frequency + 0.5));
  };
  const meanIdf = queryTerms.reduce((sum, term) => sum + idf(term), 0) / queryTerms.length;
  const averageLength = units.reduce((sum, unit) => sum + unit.terms.length, 0) / units.length || 1;
  const questionIdentifiers = tokenize(prompt.question).filter(isIdentifier);
  const headers = new Map(prompt.blocks.map((block) => {
    const terms = new Set(contentTerms(block.header));
    const matched = queryTerms.filter((term) => terms.has(term));
    return [block.ref, { terms, score: matched.reduce((sum, term) => sum + idf(term), 0), distinct: matched.length }] as const;
  }));

  const scored: ScoredUnit[] = [];
  for (const unit of units) {
    const header = headers.get(unit.ref) ?? { terms: new Set<string>(), score: 0, distinct: 0 };
    let lexical = 0;
    let matched = false;
    for (const term of queryTerms) {
      const frequency = unit.terms.filter((candidate) => candidate === term).length;
      if (frequency === 0) continue;
      matched = true;
      if (header.terms.has(term)) continue;
      lexical += (idf(term) * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * unit.terms.length) / averageLength));
    }
    const categories = SIGNAL_CATEGORIES.filter((category) => unit.terms.some((term) => category.has(term))).length;
    // A sentence qualifies by sharing a question term, or by carrying incident signal inside a block whose header
    // names what the question is about (two or more question terms: "checkout-api container log", not just "log").
    if (!matched && (header.distinct < HEADER_MIN_TERMS || categories === 0)) continue;
    const identifierWeight = questionIdentifiers.filter((identifier) => unit.tokens.has(identifier)).reduce((sum, identifier) => sum + idf(stem(identifier)), 0);
    const hasQuantity = [...unit.tokens].some((token) => /^\d+(\.\d+)?[a-z]{1,3}$|^\d{3}$/.test(token));
    let score = lexical + HEADER_WEIGHT * header.score + IDENTIFIER_SHARE * identifierWeight;
    score += meanIdf * (SIGNAL_SHARE * Math.min(categories, 3) + (hasQuantity ? QUANTITY_SHARE : 0));
    // Headings and fragments ("## Symptoms") carry no claim of their own.
    if (unit.terms.length < 3) score *= 0.5;
    scored.push({ unit, score });
  }
  return pickDiverse(scored).map(({ unit, score }) => Object.freeze({ ref: unit.ref, text: unit.text, score }));
}

interface ScoredUnit {
  readonly unit: Unit;
  readonly score: number;
}

function pickDiverse(scored: readonly ScoredUnit[]): ScoredUnit[] {
  const ranked = [...scored].sort((left, right) => right.score - left.score || left.unit.order - right.unit.order);
  if (ranked.length === 0 || ranked[0].score <= 0) return [];
  const floor = ranked[0].score * RELATIVE_THRESHOLD;
  const chosen: ScoredUnit[] = [];
  const isDuplicate = (candidate: ScoredUnit) => chosen.some((picked) => jaccard(candidate.unit.shape, picked.unit.shape) >= DUPLICATE_JACCARD);
  // First the best sentence of each source, so the answer rests on several items rather than one.
  for (const candidate of ranked) {
    if (chosen.length >= MAX_SOURCES || candidate.score < floor) break;
    if (chosen.some((picked) => picked.unit.ref === candidate.unit.ref) || isDuplicate(candidate)) continue;
    chosen.push(candidate);
  }
  // Then, when few sources qualified, further sentences from those sources.
  for (const candidate of ranked) {
    if (chosen.length >= MIN_SENTENCES || candidate.score < floor) break;
    if (chosen.includes(candidate) || isDuplicate(candidate)) continue;
    chosen.push(candidate);
  }
  return chosen.sort((left, right) => right.score - left.score || left.unit.order - right.unit.order);
}

/** "- <sentence> [n]." — the marker goes before the sentence's own closing punctuation. */
export function renderCitedSentence(sentence: SelectedSentence): string {
  const ending = /[.!?]$/.exec(sentence.text)?.[0] ?? '';
  const body = ending ? sentence.text.slice(0, -1) : sentence.text;
  return `- ${body} [${sentence.ref}]${ending}`;
}

export function composeAnswer(question: string, evidence: readonly SelectedSentence[]): string {
  const subject = question.trim().replace(/[\s?.!]+$/, '');
  if (evidence.length === 0) return `I found no evidence in the provided context for "${subject}".`;
  const sources = new Set(evidence.map((sentence) => sentence.ref)).size;
  const opening = `Evidence on "${subject}" from ${sources} context item${sources === 1 ? '' : 's'}:`;
  return [opening, ...evidence.map(renderCitedSentence)].join('\n');
}
