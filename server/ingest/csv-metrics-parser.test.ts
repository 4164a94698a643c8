import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCsvMetrics } from './csv-metrics-parser';
import { countWords } from './word-token-counter';

const demoCsv = readFileSync(new URL('../../examples/demo-incident/metrics/checkout-api-latency.csv', import.meta.url), 'utf8');
const parse = (content: string, uri = 'metrics/m.csv') => parseCsvMetrics({ uri, content }, { countTokens: countWords });

describe('parseCsvMetrics', () => {
  it('summarises each demo series, quoted metric names included, then windows the rows verbatim', () => {
    const chunks = parse(demoCsv, 'metrics/checkout-api-latency.csv');
    const summaries = chunks.filter((chunk) => chunk.locator?.startsWith('series '));
    expect(summaries.map((chunk) => chunk.locator)).toEqual([
      'series checkout-api/p95_latency_ms',
      'series checkout-api/memory_working_set_mib{replicaset="checkout-api-5b8c9d7f4"}',
      'series checkout-api/http_5xx_rate_pct',
      'series checkout-api/container_restarts_total',
      'series cart-service/p95_latency_ms',
      'series checkout-api/memory_working_set_mib{replicaset="checkout-api-7d9f8b6c5"}',
    ]);
    const memory = summaries[5];
    expect(memory.text).toContain('Threshold 256 MiB; peak 255 MiB at 2025-06-03T09:34:00Z (row 39) = 99.61% of threshold. Never above threshold.');
    expect(memory.text).toContain('At or above 90% of threshold in 9 samples, first 254 MiB at 2025-06-03T09:32:00Z (row 33).');
    expect(summaries[0].text).toContain('Trend rising');
    expect(summaries[0].text).toContain('Above the threshold of 500 ms in 9 of 16 samples, first 538 ms at 2025-06-03T09:34:00Z (row 37).');
    expect(summaries[4].metadata).toMatchObject({ trend: 'flat', min: 92, max: 101 });
    expect(summaries[3].text).toContain('Baseline 0; first non-zero 3 at 2025-06-03T09:32:00Z (row 35)');

    const windows = chunks.filter((chunk) => chunk.locator?.startsWith('row'));
    const dataLines = demoCsv.trimEnd().split('\n');
    expect(windows.map((chunk) => chunk.text.split('\n').slice(1)).flat()).toEqual(dataLines.slice(1));
    expect(windows.every((chunk) => chunk.text.startsWith(dataLines[0] + '\n'))).toBe(true);
    expect(windows[0].locator).toBe('rows 1–20');
    // Each window keeps its first and last stamp, as a log window does: a question about a moment searches by them.
    expect(windows[0].metadata).toMatchObject({ firstTimestamp: dataLines[1].split(',')[0], lastTimestamp: dataLines[20].split(',')[0] });
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual(chunks.map((_, index) => index));
  });

  it('reads the wide format: one series per numeric column', () => {
    const chunks = parse('time,service,p95_ms,errors\n2025-01-01T00:00:00Z,api,100,0\n2025-01-01T00:01:00Z,api,300,2\n2025-01-01T00:02:00Z,api,320,1\n');
    expect(chunks.filter((chunk) => chunk.locator?.startsWith('series')).map((chunk) => chunk.locator)).toEqual(['series api/p95_ms', 'series api/errors']);
    expect(chunks[0].text).toContain('at twice the baseline or more in 2 samples, first 300 at 2025-01-01T00:01:00Z (row 2)');
  });

  it('requires a header row and says so', () => {
    expect(() => parse('2025-06-03T09:20:00Z,checkout-api,p95_latency_ms,176,ms\n', 'metrics/raw.csv')).toThrow(
      'metrics/raw.csv: missing header row: the first row looks like data (column 1 holds a number or a date)',
    );
    expect(() => parse('when,metric,value\nmonday,a,1\n')).toThrow(/header has no timestamp column/);
  });

  it('rejects a row with the wrong number of fields, naming its line', () => {
    expect(() => parse('timestamp,metric,value\n2025-01-01T00:00:00Z,a,1\n2025-01-01T00:01:00Z,a\n')).toThrow('metrics/m.csv: line 3: expected 3 fields, found 2');
  });

  it('skips non-numeric values and returns nothing for an empty file', () => {
    const chunks = parse('timestamp,metric,value\n2025-01-01T00:00:00Z,a,NaN\n2025-01-01T00:01:00Z,a,\n2025-01-01T00:02:00Z,a,5\n');
    expect(chunks[0].metadata).toMatchObject({ samples: 1, last: 5 });
    expect(parse('')).toEqual([]);
  });
});
