/** Formatting for the traces pages; money and seconds come from the EXPLAIN formatters so pages agree. */
export { formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';

/** Span durations: sub-millisecond planner stages keep one decimal, long ones switch to seconds. */
export function formatMs(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (value === 0) return '0 ms';
  if (value < 10) return `${value.toFixed(1)} ms`;
  if (value < 1000) return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(2)} s`;
}

/** A UTC timestamp to the second; the locale is pinned so server and client render the same text. */
export function formatTimestamp(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

/** An attribute value for the detail table: strings as they are, everything else as compact JSON. */
export function formatAttribute(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

export const STATUS_LABEL: Readonly<Record<string, string>> = {
  queued: 'queued',
  running: 'running',
  awaiting_approval: 'awaiting approval',
  completed: 'completed',
  unverified: 'not verified',
  rejected: 'rejected',
  failed: 'failed',
  cancelled: 'cancelled',
};
