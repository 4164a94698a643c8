/**
 * In-tree verifiers (the RAGAS-style checks of the reference, without a judge model):
 * citation coverage — share of answer sentences carrying a valid [n];
 * groundedness — share of a cited sentence's content terms found in the cited context item.
 * Both are deterministic, so a failed check is reproducible from the trace.
 */
import { VERIFIER_CONTRACT, type VerificationCheck, type VerifierPlugin } from '../contracts/verifier';
import type { Citation, ContextItem, VerificationMethod } from '../types';
import { splitSentences } from '../text/sentence-splitter';
import { contentTerms } from '../text/text-terms';

/** Below this share of cited sentences an answer is treated as uncited (headline lines are allowed). */
const MIN_COVERAGE = 0.5;
/** Below this term overlap a cited sentence is not supported by its source. */
const MIN_GROUNDING = 0.5;

const CITATION_MARK = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

function citedRefs(sentence: string): number[] {
  return [...sentence.matchAll(CITATION_MARK)].flatMap((match) => match[1].split(',').map((ref) => Number(ref.trim())));
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

function makeVerifier(method: VerificationMethod, confidencePrior: number, checks: (answer: string, context: readonly ContextItem[]) => VerificationCheck[]): VerifierPlugin {
  return {
    contract: VERIFIER_CONTRACT,
    method,
    confidencePrior,
    verify({ answer, context }: { answer: string; citations: readonly Citation[]; context: readonly ContextItem[] }) {
      const results = checks(answer, context);
      const passed = results.every((check) => check.passed);
      const confidence = results.length === 0 ? 0 : results.reduce((sum, check) => sum + check.score, 0) / results.length;
      return { method, passed, confidence, checks: results };
    },
  };
}

export const citationVerifier = makeVerifier('citation', 0.7, (answer, context) => [coverageCheck(answer, context)]);
export const groundedCitationVerifier = makeVerifier('citation_grounded', 0.85, (answer, context) => [coverageCheck(answer, context), groundingCheck(answer, context)]);
export const BUILTIN_VERIFIERS: readonly VerifierPlugin[] = [citationVerifier, groundedCitationVerifier];
