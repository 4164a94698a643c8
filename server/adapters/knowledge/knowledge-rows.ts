import { type SQL, sql } from 'drizzle-orm';
import type { DrizzleTransaction } from '../../../db/client';
import { sha256Hex } from '../db/ids';

/** Runs one statement inside a transaction and returns its rows (PGlite returns { rows }, postgres.js an array). */
export async function txQuery<Row extends Record<string, unknown>>(tx: DrizzleTransaction, statement: SQL): Promise<Row[]> {
  const result: unknown = await tx.execute(statement);
  if (Array.isArray(result)) return [...result] as Row[];
  return ((result as { rows?: Row[] }).rows ?? []) as Row[];
}

/** A list parameter both drivers accept the same way: `in (select value from jsonb_array_elements_text(…))`. */
export const jsonList = (values: readonly string[]): SQL => sql`(select value from jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

/** Deterministic ids, like the store's: the same corpus yields the same fact ids everywhere. */
export const factIdOf = (chunkId: string, subject: string, attribute: string, value: string, until: boolean): string =>
  `fct_${sha256Hex(`${chunkId}|${subject}|${attribute}|${value}|${until ? 'until' : 'since'}`).slice(0, 32)}`;

export const randomNodeId = (prefix: 'mem' | 'sum'): string => `${prefix}_${crypto.randomUUID().replaceAll('-', '')}`;

export const toIso = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};
