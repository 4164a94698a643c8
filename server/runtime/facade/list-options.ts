/**
 * The paging and filter arguments of the runtime's list reads (runs, approvals, answers, the
 * audit log), checked once: each names the argument and the accepted range, as every surface
 * (tRPC, HTTP, MCP, CLI) passes them through unchanged.
 */
import type { RunListOptions } from '../contracts/run-store';
import { invalidInput } from '../errors';

/** `value` or `fallback`, refused unless an integer from 1 to `max`. */
export function pageLimit(value: number | undefined, fallback: number, max: number): number {
  const limit = value ?? fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit > max) throw invalidInput('limit', `expected an integer from 1 to ${max}, got ${limit}`);
  return limit;
}

export function validatedRunListFilter(options: Partial<RunListOptions>): RunListOptions {
  const limit = pageLimit(options.limit, 50, 1000);
  const offset = options.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidInput('offset', `expected a non-negative integer, got ${offset}`);
  for (const field of ['from', 'to'] as const) {
    const value = options[field];
    if (value !== undefined && Number.isNaN(Date.parse(value))) throw invalidInput(field, `expected an ISO-8601 timestamp, got ${JSON.stringify(value)}`);
  }
  return { limit, offset, status: options.status, search: options.search, user: options.user, from: options.from, to: options.to };
}
