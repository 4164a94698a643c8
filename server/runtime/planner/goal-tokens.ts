/**
 * Splits a goal into whitespace tokens with surrounding punctuation removed, and finds
 * quoted spans. Hand-written scans, linear in the goal length, so user text can never
 * make the analyzer slow.
 */

export interface GoalToken {
  /** The token without surrounding punctuation, original case. */
  readonly text: string;
  readonly lower: string;
  /** Punctuation followed the token (ends a capitalised span: "Paris, France" is two entities). */
  readonly closesSpan: boolean;
  /** True for the first token of the goal or of a sentence. */
  readonly sentenceStart: boolean;
  /** A quote opens right before the token: a quoted message's first word, capitalised as a sentence's is. */
  readonly opensQuote?: boolean;
  /** A question mark followed the token: it ends a question. */
  readonly endsQuestion: boolean;
  /** A colon, or a dash between clauses, followed the token ("Explain this command: …", "Drop the topic — is there a runbook?"). */
  readonly colonAfter: boolean;
  /** Inside double quotes or backticks: quoted material (a commit subject, a runbook line), not the goal's own words. */
  readonly quoted: boolean;
}

/** Abbreviations whose period ends no sentence ("restart vs. reset", "e.g. restart the tasks"). */
const ABBREVIATIONS: ReadonlySet<string> = new Set(['e.g', 'i.e', 'vs', 'etc', 'cf', 'approx', 'incl', 'esp', 'resp']);
/** Quote marks that open or close quoted material: straight and curly double quotes, backticks. */
const DOUBLE_QUOTES = new Set(['"', '“', '”', '`']);

const LEADING = new Set(['"', "'", '(', '[', '{', '<', '“', '‘', '`', '«', '*', '_']);
const TRAILING = new Set(['"', "'", '.', ',', ';', ':', '!', '?', ')', ']', '}', '>', '”', '’', '`', '»', '*', '…']);
const SENTENCE_END = new Set(['.', '!', '?', '…']);
/** A dash standing between words ("the topic — is there …") joins two clauses the way a colon does. */
const CLAUSE_DASHES = new Set(['-', '--', '–', '—']);

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 160 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a);
}

function holdsQuote(goal: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (DOUBLE_QUOTES.has(goal[at])) return true;
  return false;
}

export function tokenize(goal: string): GoalToken[] {
  const tokens: GoalToken[] = [];
  let sentenceStart = true;
  let inQuote = false;
  let index = 0;
  const length = goal.length;
  while (index < length) {
    while (index < length && isSpace(goal.charCodeAt(index))) index++;
    if (index >= length) break;
    let end = index;
    while (end < length && !isSpace(goal.charCodeAt(end))) end++;
    let start = index;
    let stop = end;
    while (start < stop && LEADING.has(goal[start])) start++;
    while (stop > start && TRAILING.has(goal[stop - 1])) stop--;
    const closesSpan = stop < end;
    const text = goal.slice(start, stop);
    const endsSentence = stop < end && SENTENCE_END.has(goal[end - 1]) && !(goal[stop] === '.' && ABBREVIATIONS.has(text.toLowerCase()));
    const opensQuote = holdsQuote(goal, index, start);
    const closesQuote = holdsQuote(goal, stop, end);
    const quoted: boolean = inQuote || opensQuote;
    inQuote = quoted && !closesQuote;
    if (CLAUSE_DASHES.has(goal.slice(index, end)) && tokens.length > 0) {
      // Not a token of its own: it ends the clause before it, as a colon would.
      const before = tokens[tokens.length - 1];
      tokens[tokens.length - 1] = { ...before, closesSpan: true, colonAfter: true };
    } else if (stop > start) {
      // A single quote counts here, before the word: an apostrophe never opens one.
      const opensMessage = opensQuote || /['‘`]/.test(goal.slice(index, start));
      tokens.push({ text, lower: text.toLowerCase(), closesSpan, sentenceStart, opensQuote: opensMessage, endsQuestion: closesSpan && goal.slice(stop, end).includes('?'), colonAfter: closesSpan && goal.slice(stop, end).includes(':'), quoted });
      sentenceStart = endsSentence;
    } else if (endsSentence) {
      sentenceStart = true;
    }
    index = end;
  }
  return tokens;
}

/** Words whose 's is "is" or "us", not a possessive: "it's", "let's", "what's". */
const CONTRACTED = new Set(['it', 'let', 'that', 'what', 'here', 'there', 'who', 'he', 'she', 'where', 'how', 'when', 'why', 'this']);
const POSSESSIVE = /^(.+)['’]s$/;

/**
 * A token without its possessive ending: "kafka-2's disk" names kafka-2, "Alice Johnson's salary"
 * names Alice Johnson. Contractions ("it's", "let's") stay as they are.
 */
export function possessiveBase(text: string): string {
  const match = POSSESSIVE.exec(text);
  return match && !CONTRACTED.has(match[1].toLowerCase()) ? match[1] : text;
}

/** The other English contraction endings: I'm, we're, I've, we'll, I'd, don't. A name never ends so. */
const CONTRACTION_ENDING = /^[a-z]+['’](?:m|re|ve|ll|d|t)$/i;

/**
 * "Let's", "It's", "I'm", "We're", "Don't": a word and a verb, never a name (even capitalised at a
 * sentence's start). "I'm new on call, …" made "I'm" the goal's entity (freight dev d88), and the
 * retrieval kept only sources that mention it.
 */
export function isContraction(text: string): boolean {
  if (CONTRACTION_ENDING.test(text)) return true;
  const match = POSSESSIVE.exec(text);
  return match !== null && CONTRACTED.has(match[1].toLowerCase());
}

const QUOTE_PAIRS: Readonly<Record<string, string>> = { '"': '"', '“': '”', '`': '`', "'": "'", '‘': '’' };
const MAX_QUOTED_CHARS = 200;
/** The char codes of QUOTE_PAIRS' keys: " “ ` ' ‘. */
const isQuoteOpener = (code: number): boolean => code === 0x22 || code === 0x201c || code === 0x60 || code === 0x27 || code === 0x2018;

/**
 * Quoted strings ("…", “…”, `…`, '…'). A straight single quote opens only after a space
 * or at the start, and closes only before a space, punctuation or the end, so
 * apostrophes ("Alice's") are not quotes.
 */
export function quotedSpans(goal: string): string[] {
  const spans: string[] = [];
  let index = 0;
  while (index < goal.length) {
    // Most characters open nothing: a char-code test skips them without building a one-character
    // string and a keyed lookup for each (that made this 7.5 µs a goal, most of intent analysis).
    if (!isQuoteOpener(goal.charCodeAt(index))) {
      index++;
      continue;
    }
    const open = goal[index];
    const close = QUOTE_PAIRS[open];
    if (close === undefined || (open === "'" && index > 0 && !isSpace(goal.charCodeAt(index - 1)))) {
      index++;
      continue;
    }
    let end = goal.indexOf(close, index + 1);
    if (open === "'") {
      while (end !== -1 && end + 1 < goal.length && /[\p{L}\p{N}]/u.test(goal[end + 1])) end = goal.indexOf(close, end + 1);
    }
    if (end === -1) break;
    const inner = goal.slice(index + 1, end).trim();
    if (inner.length > 0 && inner.length <= MAX_QUOTED_CHARS) spans.push(inner);
    index = end + 1;
  }
  return spans;
}
