import type { ParsedContextPrompt } from '../../runtime/reasoner/context-prompt';
import { headerParts } from './extractive-units';

/**
 * A question about what a document says ("Why does the runbook say not to?", "What does the handbook
 * recommend …?") is answered by the document's sentences: a log line or a commit sharing its words
 * records what happened, not what the document says (freight dev d74 quoted a Connect log line in
 * place of the runbook's "Never" rule).
 */
const DOCUMENT_NAMED = /\b(?:runbooks?|handbooks?|documentation|docs|postmortems?|polic(?:y|ies)|guides?|wiki|readme|playbooks?)\b/i;
const SAYING = /\b(?:says?|said|recommends?|tells?|states?|suggests?|advises?|warns?|according to)\b/i;
/** A block of a document: a section ("§ Never") or lines of a prose file ("architecture.md lines 38–52"). */
const DOCUMENT_FILE = /\.(?:md|markdown|mdx|rst|adoc|txt)\b/i;

const isDocumentBlock = (header: string) => {
  const parts = headerParts(header);
  return parts.locator.startsWith('§') || DOCUMENT_FILE.test(parts.title);
};

/** The refs of the context's document blocks when the question asks what a document says and some block is one; otherwise undefined. */
export function documentAskedFor(prompt: ParsedContextPrompt): ReadonlySet<number> | undefined {
  if (!DOCUMENT_NAMED.test(prompt.question) || !SAYING.test(prompt.question)) return undefined;
  const refs = new Set(prompt.blocks.filter((block) => isDocumentBlock(block.header)).map((block) => block.ref));
  return refs.size > 0 ? refs : undefined;
}
