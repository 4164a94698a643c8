/**
 * A scripted model for the loopback OpenAI server (tests and bench:answers --section verification):
 * it answers a context prompt with a correct, a wrong or an ungrounded answer on purpose, and plays
 * a strict judge — a cited sentence is supported only when it stands verbatim in the passage it
 * cites. The wrong answers are built to pass lexical checks (the cited passage's own words with its
 * figures changed), so what catches them is the judge, not luck.
 */
import { JUDGE_SYSTEM_PROMPT } from '../runtime/verification/groundedness-judge';
import { parseContextPrompt, type ParsedContextBlock } from '../runtime/reasoner/context-prompt';
import { splitSentences } from '../runtime/text/sentence-splitter';
import { contentTerms } from '../runtime/text/text-terms';

export type ScriptedKind = 'correct' | 'wrong' | 'ungrounded';

interface ChatBody {
  readonly messages?: readonly { readonly role: string; readonly content: string }[];
}

const messagesOf = (body: Record<string, unknown>) => (body as ChatBody).messages ?? [];
const userText = (body: Record<string, unknown>) => messagesOf(body).find((message) => message.role === 'user')?.content ?? '';

/** A judge's reply that finds every claim supported: for loopback models whose tests are not about verification. */
export const SUPPORTED_VERDICT = 'SUPPORTED: the context states it.';

export const isJudgeCall = (body: Record<string, unknown>): boolean => messagesOf(body).some((message) => message.role === 'system' && message.content === JUDGE_SYSTEM_PROMPT);

/** A passage's first sentences that read as a claim (long enough, not a heading or a log prefix alone). */
function claims(block: ParsedContextBlock): string[] {
  return splitSentences(block.text)
    .map((sentence) => sentence.replace(/\s+/g, ' ').trim())
    .filter((sentence) => sentence.length >= 30 && /[a-z]/.test(sentence) && !/\[\d/.test(sentence));
}

/** Every figure changed (7 → 8, 512 → 513), or when it has none, a negation: the same words, a false claim. */
function falsify(sentence: string): string {
  const changed = sentence.replace(/\d+/g, (digits) => String(Number(digits) + 1));
  if (changed !== sentence) return changed;
  const negated = sentence.replace(/\b(is|was|were|are|has|had|did)\b/, '$1 not');
  return negated !== sentence ? negated : `It is not true that ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`;
}

export function scriptedAnswer(kind: ScriptedKind, body: Record<string, unknown>, variant: number): string {
  const prompt = parseContextPrompt(userText(body));
  const blocks = prompt?.blocks ?? [];
  // The claims about the question: the sentences sharing the most of its terms, one per passage (a correct answer answers it).
  const asked = new Set(contentTerms(prompt?.question ?? ''));
  const overlap = (sentence: string) => contentTerms(sentence).filter((term) => asked.has(term)).length;
  const cited = blocks
    .flatMap((block) => claims(block).map((sentence) => ({ ref: block.ref, sentence, score: overlap(sentence) })).sort((a, b) => b.score - a.score).slice(0, 1))
    .sort((a, b) => b.score - a.score)
    .slice(0, 2);
  if (kind === 'ungrounded') {
    // Half say something with no citation at all, half cite an item the context does not have.
    return variant % 2 === 0 ? 'The most likely cause is a configuration change that nobody reviewed. It should be rolled back.' : `The most likely cause is a configuration change that nobody reviewed [${blocks.length + 7}].`;
  }
  if (cited.length === 0) return 'I found no evidence for this in the context.';
  if (kind === 'correct') return cited.map(({ ref, sentence }) => `${sentence} [${ref}]`).join(' ');
  return cited.map(({ ref, sentence }, index) => `${index === 0 ? falsify(sentence) : sentence} [${ref}]`).join(' ');
}

const normalize = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').replace(/[\s.!?:;,]+$/, '').trim();

/** The strict judge: every cited sentence must stand verbatim in a passage it cites, and something must be cited. */
export function scriptedJudgement(body: Record<string, unknown>): string {
  const text = userText(body);
  const marker = '\n\nAnswer to check:\n';
  const split = text.lastIndexOf(marker);
  const blocks = new Map((parseContextPrompt(text.slice(0, split))?.blocks ?? []).map((block) => [block.ref, normalize(block.text)]));
  const answer = text.slice(split + marker.length).split('\n').filter((line) => !/^`{3,}/.test(line)).join(' ');
  const sentences = answer.split(/(?<=\])\s+|(?<=[.!?])\s+(?=[A-Z])/).map((sentence) => sentence.trim()).filter(Boolean);
  let cited = 0;
  for (const sentence of sentences) {
    const refs = [...sentence.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
    if (refs.length === 0) continue;
    cited += 1;
    const claim = normalize(sentence.replace(/\[\d+\]/g, ''));
    if (!refs.some((ref) => blocks.get(ref)?.includes(claim))) return `UNSUPPORTED: "${claim.slice(0, 80)}" is not what the cited item says`;
  }
  return cited > 0 ? 'SUPPORTED: every cited sentence is stated by its item' : 'UNSUPPORTED: nothing is cited';
}
