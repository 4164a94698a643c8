/**
 * SQuAD-style answer scoring for the multi-hop sets (Rajpurkar et al. 2016, as HotpotQA and MuSiQue
 * report it): exact match and token F1 of the normalised answer against each gold alias, best alias
 * kept. The offline reader answers in cited sentences, so EM is near zero by construction; "gold in
 * answer" (a gold alias occurs in the answer on word boundaries) says whether the answer holds it.
 */
import { answerInContext, normalizeAnswer } from '../retrieval/metrics';

const CITATION = /\[\d+(?:\s*[,;–-]\s*\d+)*\]/g;

/** The offline reader's lead-in quotes the question back ('Evidence on "<question>" from 4 context items:'): not words of the answer. */
const QUESTION_ECHO = /^Evidence on ".*?" from \d+ context items?:/s;

/** The answer without its [n] markers (provenance) and without a lead-in that echoes the question. */
export const answerText = (answer: string): string => answer.replace(QUESTION_ECHO, ' ').replace(CITATION, ' ');

function tokenF1(prediction: string, gold: string): number {
  const predicted = normalizeAnswer(prediction).split(' ').filter(Boolean);
  const expected = normalizeAnswer(gold).split(' ').filter(Boolean);
  if (predicted.length === 0 || expected.length === 0) return Number(predicted.length === expected.length);
  const remaining = new Map<string, number>();
  for (const token of expected) remaining.set(token, (remaining.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of predicted) {
    const left = remaining.get(token) ?? 0;
    if (left > 0) {
      common += 1;
      remaining.set(token, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / predicted.length;
  const recall = common / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

export interface ShortAnswerScore {
  readonly exactMatch: number;
  readonly f1: number;
  readonly goldInAnswer: number;
}

export function scoreShortAnswer(answer: string, golds: readonly string[]): ShortAnswerScore {
  const text = answerText(answer);
  return {
    exactMatch: Number(golds.some((gold) => normalizeAnswer(gold) === normalizeAnswer(text))),
    f1: Math.max(0, ...golds.map((gold) => tokenF1(text, gold))),
    goldInAnswer: Number(answerInContext(golds, text)),
  };
}
