import type { ScoredUnit } from './extractive-quoted-subjects';
import { LEADING_TIMESTAMP, type Unit } from './extractive-units';

/**
 * A log record is its stamped line and the lines a logger writes under it: the exception and its stack
 * frames (Java's "io.lettuce.core.RedisCommandTimeoutException: …" then "at …(OnlineFeatureClient.java:88)",
 * Python's "Traceback …"). Those lines carry no stamp and few of the question's words, so they score far
 * below the record they belong to, and "which exception did task-1 log when its fetch request failed?"
 * was answered with the record and without its `DisconnectException` (freight fresh f304, f330). When a
 * question asks for an exception, an error, a class or a call, each quoted record brings its trace.
 */
const ASKS_TRACE = /\b(?:which|what)\s+(?:[\w-]+\s+)?(?:exceptions?|errors?|class(?:es)?|methods?|functions?|stack ?traces?|frames?)\b|\bsource line\b|\bstack ?trace\b/i;
/** An exception named at a line's start ("org.apache.kafka.common.errors.DisconnectException: null"), a frame, a cause or a traceback. */
const TRACE_LINE = /^(?:[\w$]+(?:[./][\w$]+)*(?:Exception|Error|Throwable)\b|at\s+[\w$./]+\(|Caused by:|Traceback \(most recent call last\)|File ")/;
/** Lines of one record's trace quoted at most: the exception and the first frames, not the whole stack. */
const MAX_TRACE_LINES = 2;
/** Records whose traces are quoted at most. */
const MAX_TRACED_RECORDS = 2;

export const asksForTrace = (question: string): boolean => ASKS_TRACE.test(question);

/**
 * "What S3 request ids did the denied uploads get back?": the id is in an exception's cause at the foot of
 * a trace ("Caused by: …AmazonS3Exception: Access Denied (…; Request ID: 3DHVGHPPZMK8D9V1)"), a line
 * sharing few of the question's words (freight fresh f374). The test of a line stating the detail asked, if
 * the question asks for a request id, an error code or a status code.
 */
const ASKS_DETAIL = /\b(request|error|status) (?:ids?|codes?)\b/i;
export function askedRecordDetail(question: string): ((text: string) => boolean) | undefined {
  const detail = ASKS_DETAIL.exec(question);
  if (!detail) return undefined;
  const stated = new RegExp(String.raw`\b${detail[1]}[ _-]?(?:id|code)\s*[:=]\s*\S`, 'i');
  return (text) => stated.test(text);
}

/** The picked units, each quoted log record followed by the trace lines written under it. */
export function withRecordTraces(picked: readonly ScoredUnit[], units: readonly Unit[]): readonly ScoredUnit[] {
  const result: ScoredUnit[] = [];
  let traced = 0;
  for (const entry of picked) {
    result.push(entry);
    if (traced >= MAX_TRACED_RECORDS || !LEADING_TIMESTAMP.test(entry.unit.text)) continue;
    const trace: ScoredUnit[] = [];
    for (let order = entry.unit.order + 1; trace.length < MAX_TRACE_LINES; order += 1) {
      const line = units.find((unit) => unit.order === order);
      if (!line || line.ref !== entry.unit.ref || LEADING_TIMESTAMP.test(line.text) || !TRACE_LINE.test(line.text)) break;
      if (!picked.some((other) => other.unit === line)) trace.push({ unit: line, score: entry.score });
    }
    if (trace.length > 0) traced += 1;
    result.push(...trace);
  }
  return result;
}
