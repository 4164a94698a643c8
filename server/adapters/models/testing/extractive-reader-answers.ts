/**
 * Test helpers for the extractive reader: a question answered through the same prompt the runtime
 * builds (so the reader parses what it would parse in a run), and a context item from a few fields.
 */
import { buildContextPrompt, parseContextPrompt } from '../../../runtime/reasoner/context-prompt';
import type { ContextItem } from '../../../runtime/types';
import { selectEvidence } from '../extractive-reader';
import { composeAnswer } from '../extractive-answer-text';

export function answerFromContext(question: string, items: readonly ContextItem[]): string {
  const [, user] = buildContextPrompt(question, items);
  const parsed = parseContextPrompt(user.content);
  if (!parsed) throw new Error('prompt did not parse');
  return composeAnswer(parsed.question, selectEvidence(parsed));
}

/** A bm25 hit of a docs source as the assembled context holds it; `locator` defaults to the section title. */
export const contextItem = (ref: number, title: string, sourceName: string, text: string, locator = `§ ${title}`): ContextItem => ({
  ref, text, tokens: 0, compressed: false,
  hit: { chunkId: `c${ref}`, sourceName, sourceKind: 'docs', sourceVersionId: 'v1', title, text, score: 1, rank: ref, method: 'bm25', tokens: 0, locator },
});

/** An initial import's part creating one file, as a setting lookup places it in the context (item `ref`). */
export function importedFileItem(ref: number, shortSha: string, path: string, lines: readonly string[]): ContextItem {
  const diff = [`commit ${shortSha}${'0'.repeat(33)}`, '', '    Initial import of print-infra', '', `diff --git a/${path} b/${path}`, 'new file mode 100644', '--- /dev/null', `+++ b/${path}`, `@@ -0,0 +1,${lines.length} @@`, ...lines.map((line) => `+${line}`)];
  return contextItem(ref, `commit ${shortSha}: Initial import of print-infra`, 'ops-git', diff.join('\n'), `commit ${shortSha} · ${path}`);
}
