import { contentTerms } from './text-terms';

/** A section heading as a document chunk's locator writes it ("§ Change freeze", "§ 3. Relieve"). */
const SECTION_LOCATOR = /^§\s*(?:\d+\.\s*)?(.+)$/;

/** A heading shaped as a question: "Who to ask", "What to do if the sink lags", "When to page". */
const WH_HEADING = /^(who|what|when|where|how|which)\s+to\b/i;
/** "What severity should I open it as?": the noun a what/which question asks for. */
const WH_HEAD = /\b(?:what|which)\s+([a-z]{4,})\b/gi;
const askedHeads = (goal: string): ReadonlySet<string> => new Set([...goal.matchAll(WH_HEAD)].flatMap(([, head]) => contentTerms(head)));

/**
 * Whether the goal says every word of a section's heading (two words or more), or asks for what a
 * one-word heading names ("What severity should I open?" → "§ Severity"; freight fresh f129): "was it
 * merged during the Friday change freeze?" names the handbook's "§ Change freeze" (fresh f115).
 */
export function headingNamedBy(goal: string, locator: string | undefined): boolean {
  const heading = SECTION_LOCATOR.exec(locator ?? '')?.[1];
  if (heading === undefined) return false;
  const words = new Set(contentTerms(heading));
  const asked = new Set(contentTerms(goal));
  const saysEveryWord = [...words].every((word) => asked.has(word));
  // "§ Who to ask" is named by "Who should they ask …?": the same wh-word, asking with every word of the heading (fresh f158).
  const wh = WH_HEADING.exec(heading)?.[1];
  if (wh !== undefined && words.size > 0 && saysEveryWord && new RegExp(`\\b${wh}\\b`, 'i').test(goal)) return true;
  if (words.size === 1) return [...words].every((word) => askedHeads(goal).has(word));
  return words.size >= 2 && saysEveryWord;
}
