import type { ParsedContextBlock } from '../../runtime/reasoner/context-prompt';
import { statedMoments } from '../../runtime/text/moment-terms';
import { contentTerms, tokenize } from '../../runtime/text/text-terms';
import { blockPieces, type PieceRole } from './extractive-block-parser';

/**
 * The context as the extractive reader scores it: each block's pieces (sentences, log lines, steps,
 * rows) with their terms, and what the question's identifiers can name.
 */
export interface Unit {
  readonly ref: number;
  readonly source: string;
  readonly order: number;
  readonly role: PieceRole;
  readonly text: string;
  /** What it is scored on: its text, a commit subject without the origin shown after it, a table row without its column names. */
  readonly scored: string;
  readonly terms: readonly string[];
  readonly termSet: ReadonlySet<string>;
  readonly tokens: ReadonlySet<string>;
  /** Letters-only terms: the same event on another pod or at another time has the same shape. */
  readonly shape: ReadonlySet<string>;
  /** Terms that can agree with another source: no timestamps, no small numbers, quantities also as bare numbers. */
  readonly evidence: ReadonlySet<string>;
  /** The days and times it states, in one notation (moment-terms.ts). */
  readonly moments: ReadonlySet<string>;
}


/**
 * An id that names one item: a SHA "744c0b5", an error code "px-77", "kdp-inc-031" (letters and digits,
 * five characters or more), or the calendar date a dated document is titled by ("Postmortem
 * 2026-03-02"). A product name with a digit ("S3", "EC2", "k8s") or a clock time ("09:00") is a topic
 * many items share; read as a name it held every other item to the named item's bar, and "How much
 * lag does an S3 sink need …?" was answered from the one runbook whose title says S3.
 */
const NAMED_ITEM_MIN_LENGTH = 5;
/** A line that opens with its timestamp: a log line or a stamped record, not a sentence of prose. */
export const LEADING_TIMESTAMP = /^\s*\[?(?:\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}|[a-z]{3} +\d{1,2} \d{2}:\d{2}:\d{2}|\d{2}:\d{2}:\d{2})/i;

export const namesAnItem = (identifier: string) =>
  (/[a-z]/.test(identifier) && /\d/.test(identifier) && identifier.length >= NAMED_ITEM_MIN_LENGTH) || /^\d{4}-\d{2}-\d{2}$/.test(identifier);

export const isIdentifier = (token: string) => (/[a-z]/.test(token) && /\d/.test(token)) || (/[-_.:/]/.test(token) && token.length > 3);

const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?\b|\b\d{2}:\d{2}:\d{2}(?:\.\d+)?\b/gi;

/** "256Mi" agrees with a metric's bare "256"; timestamps agree with everything and so with nothing. */
function evidenceTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const term of contentTerms(text.replace(TIMESTAMP, ' '))) {
    if (/^\d+$/.test(term) && term.length < 3) continue;
    terms.add(term);
    const quantity = /^(\d{3,}(?:\.\d+)?)[a-z]{1,3}$/.exec(term);
    if (quantity) terms.add(quantity[1]);
  }
  return terms;
}

/** "<title> — <sourceName>, <locator>" back into its parts (titles may themselves contain " — "). */
export function headerParts(header: string): { title: string; source: string; locator: string } {
  const split = header.lastIndexOf(' — ');
  const origin = split === -1 ? '' : header.slice(split + 3);
  const comma = origin.indexOf(', ');
  return {
    title: split === -1 ? header : header.slice(0, split),
    source: comma === -1 ? origin : origin.slice(0, comma),
    locator: comma === -1 ? '' : origin.slice(comma + 2),
  };
}

export function unitsOf(blocks: readonly ParsedContextBlock[]): Unit[] {
  let order = 0;
  return blocks.flatMap((block) => {
    const source = headerParts(block.header).source;
    return blockPieces(block.text).map((piece) => {
      const scored = piece.scored ?? piece.text;
      const terms = contentTerms(scored);
      const shape = new Set(terms.filter((term) => !/\d/.test(term)));
      return { ref: block.ref, source, order: order++, role: piece.role, text: piece.text, scored, terms, termSet: new Set(terms), tokens: new Set(tokenize(scored)), shape, evidence: evidenceTerms(scored), moments: statedMoments(piece.text) };
    });
  });
}
