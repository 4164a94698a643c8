import type { IngestChunk } from '../runtime/contracts/store';

/** Token counter injected by the caller (the real one is adapters/models/token-counter.ts). */
export type CountTokens = (text: string) => number;

/** One file's text, keyed by the uri its chunks will carry. */
export interface TextFile {
  /** Stable path-like key within the source, e.g. "logs/deploy-checkout-api.log". */
  readonly uri: string;
  readonly content: string;
}

/** "line 7" or "lines 7–26" (en dash, as the EXPLAIN output prints ranges). */
export function lineRangeLocator(start: number, end: number, unit: 'line' | 'row' = 'line'): string {
  return start === end ? `${unit} ${start}` : `${unit}s ${start}–${end}`;
}

/** Last path segment of a uri ("docs/a.md" → "a.md"). */
export function uriBaseName(uri: string): string {
  const parts = uri.split('/');
  return parts[parts.length - 1] || uri;
}

export function freezeChunk(chunk: IngestChunk): IngestChunk {
  if (chunk.metadata) Object.freeze(chunk.metadata);
  return Object.freeze(chunk);
}

/** Splits text into lines without the line terminators; a final newline does not add an empty line. */
export function splitLines(content: string): string[] {
  const lines = content.split(/\r\n|\n|\r/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** An ISO-like stamp a log line starts or carries: "2026-04-14T09:45:00.374Z", "2025-11-30 22:45:30.000". */
export const LOG_TIMESTAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?/;
