import type { IngestChunk } from '../runtime/contracts/store';
import { invalidInput } from '../runtime/errors';
import { readCsv } from './csv-reader';
import { type CountTokens, type TextFile, freezeChunk, lineRangeLocator, uriBaseName } from './ingest-types';
import { type MetricSample, summarizeSeries } from './metric-series-summary';

/**
 * Metrics CSV → one summary chunk per (service, metric) series, then windows of verbatim rows.
 * Long format (timestamp, service, metric, value[, unit, threshold]) and wide format (timestamp and
 * one column per metric) are both accepted; a header row is required because without names a
 * number column cannot be told from a timestamp or a threshold.
 */

export interface CsvMetricsParseOptions {
  readonly countTokens: CountTokens;
  readonly windowRows?: number;
  readonly windowTokens?: number;
}

export const CSV_WINDOW_ROWS = 20;
export const CSV_WINDOW_TOKENS = 300;

const COLUMN_NAMES = {
  timestamp: ['timestamp', 'time', 'ts', 'date', 'datetime'],
  service: ['service', 'job', 'app', 'container', 'source'],
  metric: ['metric', 'metric_name', 'name', '__name__', 'series'],
  value: ['value', 'val'],
  unit: ['unit', 'units'],
  threshold: ['threshold', 'limit', 'slo'],
} as const;

type Role = keyof typeof COLUMN_NAMES;

const looksLikeData = (cell: string) => cell.trim() !== '' && (Number.isFinite(Number(cell)) || /^\d{4}-\d{2}-\d{2}/.test(cell.trim()));

function readHeader(cells: readonly string[], uri: string): Partial<Record<Role, number>> {
  // Errors name the column by position, not by value: they must not quote the file's content.
  const dataColumn = cells.findIndex(looksLikeData);
  if (dataColumn >= 0) {
    throw invalidInput(uri, `missing header row: the first row looks like data (column ${dataColumn + 1} holds a number or a date); add a header naming the timestamp, metric and value columns`, { file: uri, line: 1 });
  }
  const normalized = cells.map((cell) => cell.trim().toLowerCase());
  const columns: Partial<Record<Role, number>> = {};
  for (const role of Object.keys(COLUMN_NAMES) as Role[]) {
    const index = normalized.findIndex((name) => (COLUMN_NAMES[role] as readonly string[]).includes(name));
    if (index >= 0) columns[role] = index;
  }
  if (columns.timestamp === undefined) throw invalidInput(uri, `header has no timestamp column (expected one of ${COLUMN_NAMES.timestamp.join(', ')}); found ${normalized.length} other column${normalized.length === 1 ? '' : 's'}`, { file: uri, line: 1 });
  return columns;
}

interface Series {
  readonly service: string;
  readonly metric: string;
  unit: string;
  readonly samples: MetricSample[];
}

export function parseCsvMetrics(file: TextFile, options: CsvMetricsParseOptions): IngestChunk[] {
  const records = readCsv(file.content, file.uri);
  if (records.length === 0) return [];
  const [header, ...rows] = records;
  const columns = readHeader(header.fields, file.uri);
  const roleIndexes = new Set(Object.values(columns));
  // Wide format: every column that is not a known role is its own metric.
  const metricColumns = columns.metric !== undefined && columns.value !== undefined ? [] : header.fields.map((_, index) => index).filter((index) => !roleIndexes.has(index));
  if (columns.value === undefined && metricColumns.length === 0) throw invalidInput(file.uri, 'header has no value column and no metric columns', { file: file.uri, line: 1 });

  const series = new Map<string, Series>();
  const add = (service: string, metric: string, unit: string, sample: MetricSample) => {
    const key = `${service}\u0000${metric}`;
    const entry = series.get(key) ?? { service, metric, unit, samples: [] };
    if (!entry.unit && unit) entry.unit = unit;
    entry.samples.push(sample);
    series.set(key, entry);
  };
  rows.forEach((record, index) => {
    if (record.fields.length !== header.fields.length) {
      throw invalidInput(file.uri, `line ${record.line}: expected ${header.fields.length} fields, found ${record.fields.length}`, { file: file.uri, line: record.line });
    }
    const cell = (role: Role) => (columns[role] === undefined ? '' : record.fields[columns[role]!].trim());
    const threshold = cell('threshold') === '' ? undefined : Number(cell('threshold'));
    const base = { row: index + 1, timestamp: cell('timestamp'), threshold: Number.isFinite(threshold) ? threshold : undefined };
    const value = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
    if (metricColumns.length === 0) {
      const number = value(cell('value'));
      if (Number.isFinite(number)) add(cell('service'), cell('metric') || 'value', cell('unit'), { ...base, value: number });
      return;
    }
    for (const column of metricColumns) {
      const number = value(record.fields[column]);
      if (Number.isFinite(number)) add(cell('service'), header.fields[column].trim(), cell('unit'), { ...base, value: number });
    }
  });

  const fileName = uriBaseName(file.uri);
  const chunks: IngestChunk[] = [];
  const push = (chunk: Omit<IngestChunk, 'uri' | 'ordinal' | 'tokens'>) =>
    chunks.push(freezeChunk({ uri: file.uri, ordinal: chunks.length, tokens: options.countTokens(chunk.text), ...chunk }));

  for (const entry of series.values()) {
    const label = [entry.service, entry.metric].filter(Boolean).join(' ');
    const summary = summarizeSeries(label, entry.unit, entry.samples);
    const { text, description, ...figures } = summary;
    push({
      // In the title as well as the text: the reader credits a title's words to every sentence of
      // the summary, so "hourly" or "percentage" in a question lifts the peak, not the opening line.
      title: `${fileName}: ${label}${description ? ` (${description})` : ''}`,
      text,
      locator: `series ${[entry.service, entry.metric].filter(Boolean).join('/')}`,
      metadata: { service: entry.service, metric: entry.metric, unit: entry.unit, samples: entry.samples.length, ...figures },
    });
  }

  const windowRows = options.windowRows ?? CSV_WINDOW_ROWS;
  const windowTokens = options.windowTokens ?? CSV_WINDOW_TOKENS;
  let start = 0;
  while (start < rows.length) {
    let end = start + 1;
    let tokens = options.countTokens(header.raw) + options.countTokens(rows[start].raw);
    while (end < rows.length && end - start < windowRows && tokens + options.countTokens(rows[end].raw) + 1 <= windowTokens) {
      tokens += options.countTokens(rows[end].raw) + 1;
      end++;
    }
    const locator = lineRangeLocator(start + 1, end, 'row');
    // The window's first and last stamp, as a log window keeps them: a question about a moment finds its rows by them (time-window retrieval).
    const stamps = rows.slice(start, end).map((record) => record.fields[columns.timestamp!].trim()).filter((stamp) => stamp !== '').sort();
    push({
      title: `${fileName} ${locator}`,
      text: [header.raw, ...rows.slice(start, end).map((record) => record.raw)].join('\n'),
      locator,
      metadata: { rowStart: start + 1, rowEnd: end, lineStart: rows[start].line, lineEnd: rows[end - 1].line, firstTimestamp: stamps[0], lastTimestamp: stamps[stamps.length - 1] },
    });
    start = end;
  }
  return chunks;
}
