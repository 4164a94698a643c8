/**
 * Scores one answered question of an answer-quality set (examples/<corpus>/questions.json):
 * is the key fact in the answer, do the citations come from the sources the question is about,
 * does a caveat name an entity the goal never mentioned. Pure functions, so the figures in
 * bench/answers/RESULTS.md are computed from the runs, never typed in.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const relevantSchema = z.object({
  source: z.string().min(1),
  /** A substring of the chunk's uri (a file name, "commit 7c98f34"); absent = any chunk of the source. */
  uri: z.string().min(1).optional(),
});

const questionSchema = z.object({
  id: z.string().min(1),
  /** dev: a helper's own diagnosis questions (examples/freight-data-platform/dev-questions.json), kept out of tune and heldout. */
  split: z.enum(['tune', 'heldout', 'dev']),
  kind: z.string().min(1),
  question: z.string().min(3),
  entities: z.array(z.string().min(1)),
  /** Each inner list is one fact; it is present when any of its aliases is. */
  keyFacts: z.array(z.array(z.string().min(1)).min(1)).min(1),
  relevant: z.array(relevantSchema).min(1),
  /**
   * A request to act in production: stopping at a human approval gate is the right outcome (an
   * answer carrying the key fact also counts), and the approval is not counted as an unwanted one.
   */
  expectApproval: z.boolean().optional(),
});

export const questionSetSchema = z.object({
  description: z.string().optional(),
  sources: z.record(z.string(), z.string()),
  entityVocabulary: z.array(z.string().min(2)),
  questions: z.array(questionSchema).min(1),
});

export type QuestionSet = z.infer<typeof questionSetSchema>;
export type AnswerQuestion = z.infer<typeof questionSchema>;
export type RelevantSource = z.infer<typeof relevantSchema>;

export function readQuestionSet(path: string): QuestionSet {
  const parsed = questionSetSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path}: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** Lower case, typographic quotes/dashes/backticks folded, whitespace collapsed: "`lock_timeout`" matches "lock_timeout". */
export function normaliseText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u201c\u201d`"']/g, '')
    .replace(/[\u2010-\u2014]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface KeyFactScore {
  /** Per fact: the alias found, or undefined. */
  readonly matched: readonly (string | undefined)[];
  readonly allFound: boolean;
}

export function scoreKeyFacts(answer: string, keyFacts: readonly (readonly string[])[]): KeyFactScore {
  const text = normaliseText(answer);
  const matched = keyFacts.map((aliases) => aliases.find((alias) => text.includes(normaliseText(alias))));
  return { matched, allFound: matched.every((alias) => alias !== undefined) };
}

/** The key-fact score of a run: a question that expects approval is answered by the gate itself. */
export function scoreRunFacts(answer: string, question: Pick<AnswerQuestion, 'keyFacts' | 'expectApproval'>, sentToApproval: boolean): KeyFactScore {
  const score = scoreKeyFacts(answer, question.keyFacts);
  return question.expectApproval && sentToApproval ? { matched: score.matched, allFound: true } : score;
}

export interface ScoredCitation {
  readonly sourceName: string;
  readonly uri: string;
}

export function isRelevantCitation(citation: ScoredCitation, relevant: readonly RelevantSource[]): boolean {
  return relevant.some((entry) => entry.source === citation.sourceName && (entry.uri === undefined || citation.uri.includes(entry.uri)));
}

export interface CitationScore {
  readonly total: number;
  /** From a relevant source and, where the question lists one, its file or commit (the headline figure). */
  readonly relevant: number;
  /** From a relevant source, whatever the file or commit: the issue's wording ("citations from the relevant sources"). */
  readonly fromRelevantSource: number;
}

export function scoreCitations(citations: readonly ScoredCitation[], relevant: readonly RelevantSource[]): CitationScore {
  const sources = new Set(relevant.map((entry) => entry.source));
  return {
    total: citations.length,
    relevant: citations.filter((citation) => isRelevantCitation(citation, relevant)).length,
    fromRelevantSource: citations.filter((citation) => sources.has(citation.sourceName)).length,
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Vocabulary entities the text names as a whole word; a pod name ("checkout-api-7d9f8b6c5-x2") names its service too. */
export function entitiesNamed(text: string, vocabulary: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return vocabulary.filter((entity) => new RegExp(`(^|[^a-z0-9_])${escapeRegExp(entity.toLowerCase())}($|[^a-z0-9_])`).test(lower));
}

export interface OffGoalCaveat {
  readonly caveat: string;
  readonly entities: readonly string[];
}

/** Caveats that name a vocabulary entity neither the goal's text nor the question's entity list mentions. */
export function offGoalCaveats(caveats: readonly string[], goal: string, goalEntities: readonly string[], vocabulary: readonly string[]): OffGoalCaveat[] {
  const onGoal = new Set([...entitiesNamed(goal, vocabulary), ...goalEntities.map((entity) => entity.toLowerCase())]);
  return caveats
    .map((caveat) => ({ caveat, entities: entitiesNamed(caveat, vocabulary).filter((entity) => !onGoal.has(entity.toLowerCase())) }))
    .filter((entry) => entry.entities.length > 0);
}

export interface QuestionOutcome {
  readonly id: string;
  readonly split: 'tune' | 'heldout' | 'dev';
  readonly keyFact: KeyFactScore;
  readonly citations: CitationScore;
  readonly offGoalCaveats: readonly OffGoalCaveat[];
  readonly sentToApproval: boolean;
  /** "passed 0.90", "failed 0.40", "none", or the run's status when it did not complete. */
  readonly verification: string;
  /** Verification passed although no citation came from a relevant source. */
  readonly passedWithoutRelevantEvidence: boolean;
  /**
   * Every key fact is in the context the answer was read from (undefined for a question the gate
   * answers). With the key-fact figure it says which step lost a fact: a fact in the context and not
   * in the answer was lost by the reader; one missing from both, by retrieval or assembly (or it is
   * worked out, as "9 minutes" from two times, and no context states it).
   */
  readonly factInContext?: boolean;
}

export interface Totals {
  readonly questions: number;
  readonly keyFactPct: number;
  /** Of the questions scored for it (not those the gate answers). */
  readonly factInContextPct: number;
  readonly relevantCitationPct: number;
  readonly relevantSourcePct: number;
  readonly citations: number;
  readonly offGoalCaveats: number;
  readonly sentToApproval: number;
  readonly verificationPassed: number;
  readonly passedWithoutRelevantEvidence: number;
}

const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);

/** Citation share is pooled over all citations (a question with ten off-topic citations weighs ten). */
export function totals(outcomes: readonly QuestionOutcome[]): Totals {
  const citations = outcomes.reduce((sum, outcome) => sum + outcome.citations.total, 0);
  const relevant = outcomes.reduce((sum, outcome) => sum + outcome.citations.relevant, 0);
  const fromRelevantSource = outcomes.reduce((sum, outcome) => sum + outcome.citations.fromRelevantSource, 0);
  return {
    questions: outcomes.length,
    keyFactPct: pct(outcomes.filter((outcome) => outcome.keyFact.allFound).length, outcomes.length),
    factInContextPct: pct(outcomes.filter((outcome) => outcome.factInContext === true).length, outcomes.filter((outcome) => outcome.factInContext !== undefined).length),
    relevantCitationPct: pct(relevant, citations),
    relevantSourcePct: pct(fromRelevantSource, citations),
    citations,
    offGoalCaveats: outcomes.reduce((sum, outcome) => sum + outcome.offGoalCaveats.length, 0),
    sentToApproval: outcomes.filter((outcome) => outcome.sentToApproval).length,
    verificationPassed: outcomes.filter((outcome) => outcome.verification.startsWith('passed')).length,
    passedWithoutRelevantEvidence: outcomes.filter((outcome) => outcome.passedWithoutRelevantEvidence).length,
  };
}
