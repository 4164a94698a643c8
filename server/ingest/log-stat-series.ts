import type { IngestChunk } from '../runtime/contracts/store';
import { formatNumber, median } from './metric-series-summary';
import { type CountTokens, LOG_TIMESTAMP, freezeChunk } from './ingest-types';

/**
 * The stats a service logs every few minutes ("last 5m: requests=10461 p50=15ms p99=160ms
 * static_eta=35.5%") are a time series written as log lines. "How slow did eta-api get at its worst
 * on April 14th?" asks for the highest of 72 such lines, and no window of 20 lines holds it with the
 * others to compare (issue 10, freight dev d97). As the metrics parser summarises each series in one
 * chunk (metric-series-summary.ts), each recurring stats line shape of a log file gets one chunk
 * stating every field's lowest, highest and last value with its time and line, in the words a
 * question uses ("highest", "lowest").
 */

/** A numeric field: "p99=160ms", "static_eta=35.5%", "requests=10461". */
const FIELD = /(?<![\w.-])([a-z][a-z0-9_]*)=(-?\d+(?:\.\d+)?)(ms|s|%)?(?=[\s,;)]|$)/g;
/** A stats line reports several figures at once; one "offset=…" or "size=…" per line is an event's detail, not a series. */
export const MIN_FIELDS = 3;
/** A shape seen this often is a periodic report. */
export const MIN_LINES = 6;

interface Reading {
  readonly line: number;
  readonly timestamp: string;
  readonly values: ReadonlyMap<string, { value: number; unit: string }>;
}

function readingOf(text: string, line: number): Reading | undefined {
  // Most lines of a log report no figure: one scan for "=" spares them both patterns.
  if (!text.includes('=')) return undefined;
  const timestamp = LOG_TIMESTAMP.exec(text)?.[0];
  if (!timestamp) return undefined;
  const values = new Map<string, { value: number; unit: string }>();
  for (const match of text.matchAll(FIELD)) if (!values.has(match[1])) values.set(match[1], { value: Number(match[2]), unit: match[3] ?? '' });
  return values.size >= MIN_FIELDS ? { line, timestamp, values } : undefined;
}

const at = (reading: Reading, field: string) => {
  const { value, unit } = reading.values.get(field)!;
  return `${formatNumber(value)}${unit} at ${reading.timestamp} (line ${reading.line})`;
};

function rangeClause(field: string, readings: readonly Reading[]): string | undefined {
  // A field logged in two units ("12ms", "1.2s") cannot be compared by its numbers.
  if (new Set(readings.map((reading) => reading.values.get(field)!.unit)).size > 1) return undefined;
  const value = (reading: Reading) => reading.values.get(field)!.value;
  const lowest = readings.reduce((best, reading) => (value(reading) < value(best) ? reading : best));
  const highest = readings.reduce((best, reading) => (value(reading) > value(best) ? reading : best));
  if (value(lowest) === value(highest)) return `${formatNumber(value(lowest))}${readings[0].values.get(field)!.unit} on every line`;
  return `lowest ${at(lowest, field)}; highest ${at(highest, field)}; last ${at(readings[readings.length - 1], field)}`;
}

/**
 * A field is away from its usual level outside this factor of it, either way: a static-ETA share of
 * 0.4 % that reads 1.5 %, or a request count that halves.
 */
const EXCURSION_FACTOR = 2;

/**
 * When a field left its usual level and when it came back, in the words a question uses ("when did
 * the share drop back to its usual level?"): a window of lines around the recovery holds it, but
 * beside twenty lines just like it. The usual level is the median of the first quarter of the lines,
 * as metric-series-summary.ts takes its baseline.
 */
function excursionClause(field: string, readings: readonly Reading[]): string | undefined {
  const value = (reading: Reading) => reading.values.get(field)!.value;
  const usual = median(readings.slice(0, Math.max(1, Math.floor(readings.length / 4))).map(value));
  if (usual <= 0) return undefined;
  const away = (reading: Reading) => value(reading) >= EXCURSION_FACTOR * usual || value(reading) <= usual / EXCURSION_FACTOR;
  const left = readings.findIndex(away);
  if (left < 0) return undefined;
  const back = readings.findIndex((reading, index) => index > left && !away(reading));
  const opening = `usual level ${formatNumber(usual)}${readings[0].values.get(field)!.unit} (median of the first quarter of lines), away from it (${EXCURSION_FACTOR}x or more either way) from ${at(readings[left], field)}`;
  return back < 0 ? `${opening} and still at the last line` : `${opening}, back to its usual level at ${at(readings[back], field)}`;
}

/**
 * One summary chunk per field of each recurring stats line shape of `lines`, with ordinals from
 * `firstOrdinal`. One chunk per field, not per shape: the whole shape's summary was one sentence of
 * some 700 tokens, too long for an answer to quote, and a question asks about one field ("the
 * highest p99", "the static-ETA share").
 */
export function logStatSeriesChunks(uri: string, fileName: string, lines: readonly string[], countTokens: CountTokens, firstOrdinal: number): IngestChunk[] {
  const byShape = new Map<string, Reading[]>();
  lines.forEach((text, index) => {
    const reading = readingOf(text, index + 1);
    if (!reading) return;
    const shape = [...reading.values.keys()].join(' ');
    const readings = byShape.get(shape);
    if (readings) readings.push(reading);
    else byShape.set(shape, [reading]);
  });
  const chunks: IngestChunk[] = [];
  for (const [shape, readings] of byShape) {
    if (readings.length < MIN_LINES) continue;
    const fields = shape.split(' ');
    const first = readings[0];
    const last = readings[readings.length - 1];
    for (const field of fields) {
      const range = rangeClause(field, readings);
      if (range === undefined) continue;
      const excursion = excursionClause(field, readings);
      const text = `Stats lines of ${fileName} (${fields.join(', ')}), field ${field} over ${readings.length} lines from ${first.timestamp} (line ${first.line}) to ${last.timestamp} (line ${last.line}): ${range}${excursion ? `; ${excursion}` : ''}.`;
      const locator = `stats ${field} of ${fields.join(' ')}`;
      chunks.push(
        freezeChunk({
          uri,
          ordinal: firstOrdinal + chunks.length,
          title: `${fileName} ${locator}`,
          text,
          locator,
          tokens: countTokens(text),
          metadata: { lineStart: first.line, lineEnd: last.line, firstTimestamp: first.timestamp, lastTimestamp: last.timestamp, statsLines: readings.length },
        }),
      );
    }
  }
  return chunks;
}
