/**
 * In-tree verifiers (the RAGAS-style checks of the reference, without a judge model):
 * citation coverage — share of answer sentences carrying a valid [n];
 * groundedness — share of a cited sentence's content terms found in the cited context item;
 * goal entities — share of the goal's named things (namedEntities) that the cited items mention.
 * All are deterministic, so a failed check is reproducible from the trace.
 */
import { VERIFIER_CONTRACT, type VerificationCheck, type VerifierPlugin } from '../contracts/verifier';
import type { Citation, ContextItem, VerificationMethod } from '../types';
import { splitSentences } from '../text/sentence-splitter';
import { mentions, namedEntities } from '../text/named-entities';
import { contentTerms } from '../text/text-terms';

/** Below this share of cited sentences an answer is treated as uncited (headline lines are allowed). */
const MIN_COVERAGE = 0.5;
/** Below this term overlap a cited sentence is not supported by its source. */
const MIN_GROUNDING = 0.5;

const CITATION_MARK = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

function citedRefs(sentence: string): number[] {
  return [...sentence.matchAll(CITATION_MARK)].flatMap((match) => match[1].split(',').map((ref) => Number(ref.trim())));
}

/**
 * A bracketed number that is no context ref but stands verbatim in the context is quoted content,
 * not a citation: a PostgreSQL or syslog line carries its process id as "[51234]", and an answer
 * quoting that line is not citing item 51234. Removing it first keeps such answers from failing.
 */
function withoutQuotedBrackets(answer: string, context: readonly ContextItem[]): string {
  const known = new Set(context.map((item) => item.ref));
  return answer.replace(CITATION_MARK, (marker, refs: string) => {
    const numbers = refs.split(',').map((ref) => Number(ref.trim()));
    return numbers.some((ref) => known.has(ref)) || !context.some((item) => item.text.includes(marker)) ? marker : ' ';
  });
}

function coverageCheck(answer: string, context: readonly ContextItem[]): VerificationCheck {
  const known = new Set(context.map((item) => item.ref));
  const sentences = splitSentences(answer);
  const cited = sentences.filter((sentence) => citedRefs(sentence).some((ref) => known.has(ref)));
  const unknown = sentences.flatMap(citedRefs).filter((ref) => !known.has(ref));
  const score = sentences.length === 0 ? 0 : cited.length / sentences.length;
  const passed = cited.length > 0 && score >= MIN_COVERAGE && unknown.length === 0;
  const detail = unknown.length > 0 ? `cites [${unknown.join(', ')}] which is not in the context` : `${cited.length} of ${sentences.length} sentences cite the context`;
  return { name: 'citation_coverage', passed, score, detail };
}

function groundingCheck(answer: string, context: readonly ContextItem[]): VerificationCheck {
  const byRef = new Map(context.map((item) => [item.ref, new Set(contentTerms(item.text))]));
  const scores: number[] = [];
  for (const sentence of splitSentences(answer)) {
    const refs = citedRefs(sentence).filter((ref) => byRef.has(ref));
    if (refs.length === 0) continue;
    const terms = contentTerms(sentence.replace(CITATION_MARK, ''));
    if (terms.length === 0) continue;
    const supported = terms.filter((term) => refs.some((ref) => byRef.get(ref)!.has(term))).length;
    scores.push(supported / terms.length);
  }
  const score = scores.length === 0 ? 0 : scores.reduce((sum, value) => sum + value, 0) / scores.length;
  const weak = scores.filter((value) => value < MIN_GROUNDING).length;
  return { name: 'groundedness', passed: scores.length > 0 && weak === 0, score, detail: `${scores.length - weak} of ${scores.length} cited sentences supported by their source` };
}

/** Below this share of the goal's named things found in the cited items, the evidence is about something else. */
const MIN_ENTITY_COVERAGE = 0.5;

/**
 * Cited and grounded is not enough: an answer to "Why did billing-worker stop?" citing only
 * checkout-api OOMKilled lines passes both checks above while saying nothing about billing-worker
 * (issue 10). A goal that names no system or identifier has nothing to check and passes.
 */
function goalEntityCheck(goal: string, answer: string, context: readonly ContextItem[]): VerificationCheck | undefined {
  const entities = namedEntities(goal);
  if (entities.length === 0) return undefined;
  const refs = new Set(splitSentences(answer).flatMap(citedRefs));
  const cited = context.filter((item) => refs.has(item.ref)).map((item) => `${item.hit.title}\n${item.text}`);
  const found = entities.filter((entity) => cited.some((text) => mentions(text, entity)));
  const score = found.length / entities.length;
  const missing = entities.filter((entity) => !found.includes(entity));
  const detail = missing.length === 0 ? `the cited items mention ${found.join(', ')}` : `no cited item mentions ${missing.join(', ')}`;
  return { name: 'goal_entities', passed: cited.length > 0 && score >= MIN_ENTITY_COVERAGE, score, detail };
}

function makeVerifier(method: VerificationMethod, confidencePrior: number, checks: (answer: string, context: readonly ContextItem[]) => VerificationCheck[]): VerifierPlugin {
  return {
    contract: VERIFIER_CONTRACT,
    method,
    confidencePrior,
    verify({ goal, answer: written, context }: { goal: string; answer: string; citations: readonly Citation[]; context: readonly ContextItem[] }) {
      const answer = withoutQuotedBrackets(written, context);
      const entityCheck = goalEntityCheck(goal, answer, context);
      const results = [...checks(answer, context), ...(entityCheck ? [entityCheck] : [])];
      const passed = results.every((check) => check.passed);
      const confidence = results.length === 0 ? 0 : results.reduce((sum, check) => sum + check.score, 0) / results.length;
      return { method, passed, confidence, checks: results };
    },
  };
}

export const citationVerifier = makeVerifier('citation', 0.7, (answer, context) => [coverageCheck(answer, context)]);
export const groundedCitationVerifier = makeVerifier('citation_grounded', 0.85, (answer, context) => [coverageCheck(answer, context), groundingCheck(answer, context)]);
export const BUILTIN_VERIFIERS: readonly VerifierPlugin[] = [citationVerifier, groundedCitationVerifier];
