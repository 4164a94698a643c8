import { sql, type SQL } from 'drizzle-orm';

/**
 * drizzle writes a JS null/undefined as SQL NULL, which a NOT NULL jsonb column rejects; a
 * payload that is genuinely "nothing" is stored as the JSON value null instead.
 */
export const jsonValue = (value: unknown): unknown | SQL => (value === undefined || value === null ? sql`'null'::jsonb` : value);
