import { detectSensitive, redactSensitive } from './sensitive-content-detector';

/** Shorter pieces ("415" of a phone number) are left: they are no secret alone, and common elsewhere. */
const MIN_PIECE_CHARACTERS = 4;

/**
 * `excerpt` (a passage as compression left it) with the sensitive spans of `full` (the passage as
 * stored and marked) redacted. Re-detection on the excerpt alone misses a span the compressor cut
 * apart: sentence selection keeps a private key's body lines without its BEGIN line, which no
 * pattern matches on its own. So every span found in the full text is replaced wherever it occurs,
 * and so is each whitespace-separated piece of it; then the excerpt is scanned again.
 */
export function redactExcerpt(full: string, excerpt: string): string {
  let text = excerpt;
  for (const match of detectSensitive(full)) {
    const value = full.slice(match.start, match.end);
    const label = `[REDACTED ${match.kind}]`;
    text = text.replaceAll(value, label);
    for (const piece of value.split(/\s+/)) if (piece.length >= MIN_PIECE_CHARACTERS) text = text.replaceAll(piece, label);
  }
  return redactSensitive(text);
}
