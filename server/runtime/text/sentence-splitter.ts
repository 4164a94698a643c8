/**
 * Splits context text into the units an answer cites. Prose splits at sentence ends; a log line,
 * a Kubernetes event row or a list item is one unit as it stands, because its timestamp, object
 * and message only mean something together. Hard-wrapped prose (markdown wrapped at ~100 columns,
 * a list item continued on an indented line) is rejoined into its paragraph first: split line by
 * line, "Invoice PDFs are kept for seven years (object lock," was one unit and the rest of the
 * sentence another, so answers quoted fragments cut mid-sentence (issue 10).
 */

// A line that starts like a log record or an event row: ISO date, clock time, bracketed/bare level,
// a `kubectl get events` age column, or a syslog month.
const RECORD_LINE =
  /^(\[?\d{4}-\d{2}-\d{2}|\[?\d{2}:\d{2}:\d{2}|\[?(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b|\d+[smhd](\d+[smh])?\s+(Normal|Warning)\b|(Normal|Warning)\s+[A-Z]\w+\s|(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\s+\d{2}:)/;

export const LIST_MARKER = /^(?:[-*•+]\s+|\d{1,3}[.)]\s+)/;
const DECORATION_ONLY = /^(?:[-=*_`~#|>\s]+)$/;
const ABBREVIATIONS = new Set(['e.g.', 'i.e.', 'etc.', 'vs.', 'approx.', 'mr.', 'ms.', 'dr.', 'no.', 'fig.', 'cf.']);

/** A record longer than this is split like prose anyway, so one huge line cannot become one "sentence". */
const MAX_RECORD_CHARS = 400;

// "key: value" / "key = value" / "key:" — a line of YAML, a manifest, an env file.
const KEY_VALUE = /^[\w.-]+\s*(?::|=)(\s|$)/;

const HEADING = /^#{1,6}\s/;
const TABLE_ROW = /^\|/;
const FENCE = /^(?:```|~~~)/;
/** A line ending like this closes its thought: the next line starts a new unit even without a blank line. */
const CLOSED_LINE = /[.!?:;]["')\]]?$/;

/** The cited units of `text`, in order, trimmed, without list markers or decoration-only lines. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let previousWasKeyValue = false;
  // Prose lines of the paragraph being read; flushed at a blank line, a new list item or a structured line.
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) sentences.push(...splitProse(paragraph.join(' ')));
    paragraph = [];
  };
  for (const rawLine of text.split(/\r?\n/)) {
    const hasListMarker = LIST_MARKER.test(rawLine.trim());
    const line = rawLine.trim().replace(LIST_MARKER, '').trim();
    if (line.length === 0 || DECORATION_ONLY.test(line)) {
      flush();
      previousWasKeyValue = false;
      continue;
    }
    // A list item that opens with a stamp is a timeline entry, not a log record: "- Mar 6 16:40 — change
    // merged; the" is continued on the next line like any wrapped item (read as a record, it was cut there).
    // So is a date that a wrapped item carries onto its indented next line: "- … grown to 4 TB (done" /
    // "  2026-03-10)." is one action item, and cut there it lost the day it was done (freight fresh f02).
    const wrappedDate = paragraph.length > 0 && /^\s/.test(rawLine) && !CLOSED_LINE.test(paragraph[paragraph.length - 1]) && !/\d{2}:\d{2}/.test(line);
    const record = RECORD_LINE.test(line) && !hasListMarker && !wrappedDate;
    // A record too long to quote whole is still a record of its own: split like prose, but never run into
    // its neighbours (two 600-character Kafka client lines were read as one paragraph, and a unit began
    // with the first line's "(…SubscriptionState:399)" tail and ran on into the second's stamp).
    if (record && line.length > MAX_RECORD_CHARS) {
      flush();
      previousWasKeyValue = false;
      sentences.push(...splitProse(line));
      continue;
    }
    const structured = HEADING.test(line) || TABLE_ROW.test(line) || FENCE.test(line) || record;
    // A wrapped line continues an open sentence even when it happens to start like "caller: the three…".
    const continues = paragraph.length > 0 && !hasListMarker && !structured && !CLOSED_LINE.test(paragraph[paragraph.length - 1]);
    if (continues) {
      paragraph.push(line);
      continue;
    }
    const keyValue = KEY_VALUE.test(line);
    // An indented key under the previous key belongs with it ("limits:" / "memory: 256Mi"): split apart, neither says anything.
    const last = sentences.length - 1;
    if (paragraph.length === 0 && keyValue && previousWasKeyValue && /^\s/.test(rawLine) && !hasListMarker && sentences[last].length + line.length < MAX_RECORD_CHARS) {
      sentences[last] = `${sentences[last]}${sentences[last].endsWith(':') ? ' ' : '; '}${line}`;
      continue;
    }
    previousWasKeyValue = keyValue;
    if (keyValue || structured) {
      flush();
      sentences.push(line);
      continue;
    }
    if (hasListMarker) flush();
    paragraph.push(line);
  }
  flush();
  return sentences;
}

function splitProse(line: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  // A boundary is [.!?] (optionally closed by a quote/bracket), whitespace, then an upper-case
  // letter, digit or opening quote: "v1.2.3" and "checkout.svc" never match. A document's sentence may
  // open with a code span or a bold name ("… nothing is lost. `LoadFailed` posts to `#alerts`."): read
  // as one, the alert's route weighed as a quarter of a long sentence about the marts (freight dev d57).
  const boundary = /[.!?]["')\]]?\s+(?=[A-Z0-9"'(`]|\*\*[A-Za-z])/g;
  for (let match = boundary.exec(line); match; match = boundary.exec(line)) {
    const end = match.index + match[0].trimEnd().length;
    const lastWord = line.slice(start, end).split(/\s+/).pop()?.toLowerCase() ?? '';
    if (ABBREVIATIONS.has(lastWord)) continue;
    pieces.push(line.slice(start, end).trim());
    start = match.index + match[0].length;
  }
  pieces.push(line.slice(start).trim());
  return pieces.filter((piece) => piece.length > 0);
}
