/**
 * Splits an answer into text and citation markers ("[1]", "[2, 3]"). A bracketed number that
 * matches no citation (a year, an array index in quoted code) stays text.
 */
export type AnswerSegment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'cite'; readonly refs: readonly number[] };

const MARKER = /\[(\d+(?:\s*[,;]\s*\d+)*)\]/g;

export function splitCitationMarkers(answer: string, knownRefs: ReadonlySet<number>): readonly AnswerSegment[] {
  const segments: AnswerSegment[] = [];
  let textStart = 0;
  const pushText = (end: number) => {
    if (end > textStart) segments.push({ kind: 'text', text: answer.slice(textStart, end) });
  };
  for (const match of answer.matchAll(MARKER)) {
    const refs = match[1].split(/[,;]/).map((part) => Number(part.trim()));
    if (!refs.some((ref) => knownRefs.has(ref))) continue;
    pushText(match.index);
    segments.push({ kind: 'cite', refs });
    textStart = match.index + match[0].length;
  }
  pushText(answer.length);
  return segments;
}
