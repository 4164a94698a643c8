import { withoutIntermediateAnswer } from '../../runtime/reasoner/intermediate-answer';

/** A context sentence the extractive reader quotes, with the item it cites (extractive-reader.ts). */
export interface SelectedSentence {
  readonly ref: number;
  readonly text: string;
  readonly score: number;
}

/** "- <sentence> [n]." — the marker goes before the sentence's own closing punctuation (an ellipsis stays in place). */
export function renderCitedSentence(sentence: SelectedSentence): string {
  const ending = /(?<!\.)[.!?]$/.exec(sentence.text)?.[0] ?? '';
  const body = ending ? sentence.text.slice(0, -1) : sentence.text;
  return `- ${body} [${sentence.ref}]${ending}`;
}

export function composeAnswer(question: string, evidence: readonly SelectedSentence[]): string {
  const subject = withoutIntermediateAnswer(question).trim().replace(/[\s?.!]+$/, '');
  if (evidence.length === 0) return `I found no evidence in the provided context for "${subject}".`;
  const sources = new Set(evidence.map((sentence) => sentence.ref)).size;
  const opening = `Evidence on "${subject}" from ${sources} context item${sources === 1 ? '' : 's'}:`;
  return [opening, ...evidence.map(renderCitedSentence)].join('\n');
}
