/**
 * API keys (db/schema/api-keys.ts): created by an admin, shown once, kept as SHA-256 only. A key is
 * `crk_<prefix>_<secret>`: 32 random bytes of secret make guessing hopeless, so one fast hash
 * suffices (a password hash's slowness protects low-entropy secrets, which these are not). The
 * prefix is part of the key and stored in clear, so the admin page can tell keys apart.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { apiKeys } from '../../db/schema/api-keys';
import { ContextRuntimeError, invalidInput } from '../runtime/errors';
import type { Principal } from '../runtime/types';
import { isRole, type Role } from './roles';

const KEY_PATTERN = /^crk_([0-9a-f]{8})_[A-Za-z0-9_-]{43}$/;
/** last_used_at is written at most this often per key: a busy key must not turn every read into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;
const MAX_NAME_LENGTH = 100;

export interface ApiKeyRecord {
  readonly id: string;
  readonly name: string;
  /** `crk_1a2b3c4d`: the start of the key, enough to recognise it. */
  readonly prefix: string;
  readonly role: Role;
  /** Null: every source the role may read. */
  readonly sources: readonly string[] | null;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

export interface NewApiKey {
  readonly name: string;
  readonly role: string;
  readonly sources?: readonly string[] | null;
  readonly createdBy: string;
}

type ApiKeyRow = typeof apiKeys.$inferSelect;

const hashOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return Object.freeze({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    role: row.role as Role,
    sources: row.sources ? Object.freeze([...row.sources]) : null,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  });
}

/** Who a key acts as: its own name (runs it starts are owned by it), its one role and its source scope. */
export function principalOfKey(record: Pick<ApiKeyRecord, 'prefix' | 'role' | 'sources'>): Principal {
  const base = { user: `api-key:${record.prefix}`, roles: Object.freeze([record.role]) };
  return Object.freeze(record.sources ? { ...base, sourceScope: record.sources } : base);
}

export class ApiKeyStore {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates a key; `key` is returned here once and never again. `knownSources` are the names a scope may list. */
  async create(input: NewApiKey, knownSources: readonly string[]): Promise<{ key: string; record: ApiKeyRecord }> {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (name === '' || name.length > MAX_NAME_LENGTH) throw invalidInput('name', `expected a name of 1 to ${MAX_NAME_LENGTH} characters`);
    if (typeof input.role !== 'string' || !isRole(input.role)) throw invalidInput('role', `expected one of viewer, operator, approver, admin, got ${JSON.stringify(input.role)}`);
    const sources = input.sources ?? null;
    if (sources !== null) {
      if (sources.length === 0) throw invalidInput('sources', 'expected at least one source, or none listed for every source the role may read');
      const unknown = sources.filter((source) => !knownSources.includes(source));
      if (unknown.length > 0) throw invalidInput('sources', `unknown source ${unknown.map((source) => JSON.stringify(source)).join(', ')}`);
    }
    const prefix = `crk_${randomBytes(4).toString('hex')}`;
    const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
    const [row] = await this.database.db
      .insert(apiKeys)
      .values({ id: randomUUID(), name, prefix, secretHash: hashOf(key), role: input.role, sources: sources ? [...new Set(sources)] : null, createdBy: input.createdBy, createdAt: this.now() })
      .returning();
    return { key, record: toRecord(row!) };
  }

  /** Newest first, revoked keys included (the page shows when they were revoked). */
  async list(): Promise<readonly ApiKeyRecord[]> {
    return (await this.database.db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt))).map(toRecord);
  }

  async revoke(id: string): Promise<ApiKeyRecord> {
    const [row] = await this.database.db.update(apiKeys).set({ revokedAt: this.now() }).where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))).returning();
    if (row) return toRecord(row);
    const [existing] = await this.database.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    if (!existing) throw new ContextRuntimeError('NOT_FOUND', `API key ${id} does not exist`, { field: 'id' });
    return toRecord(existing);
  }

  /** The key's record when it is well formed, known and not revoked (recording its use); otherwise undefined. */
  async resolve(key: string): Promise<ApiKeyRecord | undefined> {
    if (!KEY_PATTERN.test(key)) return undefined;
    const [row] = await this.database.db.select().from(apiKeys).where(and(eq(apiKeys.secretHash, hashOf(key)), isNull(apiKeys.revokedAt)));
    if (!row || !isRole(row.role)) return undefined;
    const now = this.now();
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
      await this.database.db.update(apiKeys).set({ lastUsedAt: now }).where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))));
      return toRecord({ ...row, lastUsedAt: now });
    }
    return toRecord(row);
  }
}
