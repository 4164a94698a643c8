/**
 * The bridge entity of a multi-hop question (self-ask's intermediate answer, IRCoT's next query):
 * a name the first hop's answer holds and the question does not. "Who was the first president of
 * the association which published Journal of Psychotherapy Integration?" → the first hop quotes
 * "…is published by the American Psychological Association [1]", and "American Psychological
 * Association" is what the second retrieval must look for. Offline, without a model that can be
 * asked "which entity?", a name is a run of capitalised words (with the lower-case joiners names
 * use: "of", "de", "von"), and the question's own names are not bridges.
 */
import { STOPWORDS } from '../text/english-stopwords';

/** Lower-case words allowed inside a name ("University of Copenhagen", "Charles de Gaulle"). */
const JOINERS = new Set(['of', 'the', 'de', 'du', 'des', 'da', 'del', 'della', 'di', 'von', 'van', 'der', 'den', 'la', 'le', 'y', 'and', '&']);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu;
const MARKER = /\[\d+(?:\s*[,;–-]\s*\d+)*\]/g;

/**
 * Capitalised words that name no entity in operational text: a log level ("INFO", "WARN"), a month or
 * a weekday ("Mar 6 16:40", "Monday"). A log line's "[2026-03-09 08:14:31,523] INFO [Consumer …]"
 * gave the bridge "523 INFO", and a timeline's "Mar 6 16:40 — …" gave "Mar": the second hop then
 * searched for words every line of the log holds.
 */
const NOT_NAMES = new Set(
  ('trace,debug,info,notice,warn,warning,error,fatal,critical,' +
    'jan,feb,mar,apr,jun,jul,aug,sep,sept,oct,nov,dec,january,february,march,april,june,july,august,september,october,november,december,' +
    'mon,tue,wed,thu,fri,sat,sun,monday,tuesday,wednesday,thursday,friday,saturday,sunday').split(','),
);

const capitalised = (word: string) => (/^\p{Lu}/u.test(word) && !NOT_NAMES.has(word.toLowerCase().replace(/\.$/, ''))) || /^\d{3,4}$/.test(word);
/** A three-digit number alone ("523": the milliseconds of a log stamp) is no name; a year may be ("In 1998"). */
const NUMBER_NOT_YEAR = /^\d{3}$/;
const key = (text: string) => text.toLowerCase().replace(/[’']/g, "'");

const HAS_MARKER = /\[\d+(?:\s*[,;–-]\s*\d+)*\]/;
/**
 * The reader's provenance of a quoted commit sentence, "(commit cc208f1, Lena Brandt, 2026-04-14)":
 * where the claim comes from, not what it says. Its author was taken for the bridge, and the second
 * hop searched for a person the question never asked about (freight dev d08).
 */
const COMMIT_ORIGIN = /\(commit [0-9a-f]{7,40}(?:,[^)]*)?\)/g;

/**
 * A quoted log line ("[2026-03-09 08:14:31,523] INFO [Consumer clientId=…] Resetting offset …"): its
 * capitalised words are the program's message and class names, while the systems it names are written
 * as identifiers, which are not taken as bridges anyway. "Consumer, Resetting" became the bridge of a
 * question about Connect's sink tasks (freight dev d23) and the second hop searched for them.
 */
const LOG_LINE = /^\s*(?:[-•*]\s+)?\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** The answer's claims that cite evidence (lines, list items, sentences): a lead-in or a "no evidence" line names nothing the context holds. */
function citedClaims(text: string): string[] {
  return text
    .split(/\n+|\s+(?=[-•*]\s)|(?<=[.!?])\s+/)
    .filter((claim) => HAS_MARKER.test(claim) && !LOG_LINE.test(claim));
}

/** Capitalised spans of the cited claims, joiners inside kept, joiners at the edges dropped. */
function nameSpans(text: string): string[] {
  const spans: string[] = [];
  for (const sentence of citedClaims(text).map((claim) => claim.replace(MARKER, ' ').replace(COMMIT_ORIGIN, ' ').replace(/^\s*[-•*]\s+/, ''))) {
    const words = sentence.match(WORD) ?? [];
    let current: string[] = [];
    const close = () => {
      while (current.length > 0 && JOINERS.has(current[current.length - 1].toLowerCase())) current.pop();
      // "In 1998", "The Beatles": a sentence's capitalised first word or an article is not part of the name.
      while (current.length > 1 && STOPWORDS.has(key(current[0]))) current.shift();
      if (current.length > 0) spans.push(current.join(' ').replace(/[.]+$/, ''));
      current = [];
    };
    words.forEach((word) => {
      if (capitalised(word)) current.push(word);
      else if (current.length > 0 && JOINERS.has(word)) current.push(word);
      else close();
    });
    close();
  }
  return spans;
}

/**
 * Up to `limit` names of `answer` that `goal` does not name, most frequent first, then earliest.
 * A lone capitalised function word ("The", "In", "He") is the start of a sentence, not a name.
 */
export function bridgeEntities(answer: string, goal: string, limit = 2): string[] {
  const goalText = ` ${key(goal).replace(/[^\p{L}\p{N}' ]+/gu, ' ')} `;
  const counts = new Map<string, { text: string; count: number; first: number }>();
  nameSpans(answer).forEach((span, index) => {
    const words = span.split(' ').filter((word) => !STOPWORDS.has(key(word)));
    if (words.length === 0 || NUMBER_NOT_YEAR.test(span)) return;
    // Named by the question already: the first hop's subject, not the bridge.
    if (goalText.includes(` ${key(span)} `) || words.every((word) => goalText.includes(` ${key(word)} `))) return;
    const entry = counts.get(key(span)) ?? { text: span, count: 0, first: index };
    entry.count += 1;
    counts.set(key(span), entry);
  });
  return [...counts.values()].sort((left, right) => right.count - left.count || left.first - right.first).slice(0, limit).map((entry) => entry.text);
}
