/** API keys over a real embedded database: shown once, stored hashed, scoped, revocable, last use recorded. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { migrateDatabase } from '../../db/migrate';
import { ApiKeyStore, principalOfKey } from './api-key-store';

const root = mkdtempSync(path.join(tmpdir(), 'cr-api-keys-'));
let database: Database;
let clock = new Date('2026-12-01T10:00:00Z');
const store = () => new ApiKeyStore(database, () => clock);

beforeAll(async () => {
  database = await openDatabase({ dataDir: path.join(root, 'pglite') });
  await migrateDatabase(database);
});

afterAll(async () => {
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('ApiKeyStore', () => {
  it('returns the key once and stores only its hash and prefix', async () => {
    const { key, record } = await store().create({ name: ' ci ', role: 'operator', sources: ['runbooks'], createdBy: 'root@example.com' }, ['runbooks', 'payroll']);
    expect(key.startsWith(`${record.prefix}_`)).toBe(true);
    expect(record).toMatchObject({ name: 'ci', role: 'operator', sources: ['runbooks'], lastUsedAt: null, revokedAt: null });
    const rows = await database.db.execute(sql`select * from api_keys`);
    const stored = JSON.stringify((rows as unknown as { rows: unknown[] }).rows);
    expect(stored).not.toContain(key.slice(record.prefix.length + 1));
    expect(stored).toContain(record.prefix);
  });

  it('resolves a key to a principal with its role and source scope, and records the last use (at most once a minute)', async () => {
    const { key } = await store().create({ name: 'reader', role: 'viewer', createdBy: 'root@example.com' }, []);
    const first = await store().resolve(key);
    expect(first?.lastUsedAt).toEqual(clock);
    expect(principalOfKey(first!)).toEqual({ user: `api-key:${first!.prefix}`, roles: ['viewer'] });
    const used = clock;
    clock = new Date(clock.getTime() + 10_000);
    expect((await store().resolve(key))?.lastUsedAt).toEqual(used);
    clock = new Date(clock.getTime() + 60_000);
    expect((await store().resolve(key))?.lastUsedAt).toEqual(clock);
    const scoped = await store().create({ name: 'scoped', role: 'operator', sources: ['a'], createdBy: 'root@example.com' }, ['a']);
    expect(principalOfKey((await store().resolve(scoped.key))!)).toMatchObject({ roles: ['operator'], sourceScope: ['a'] });
  });

  it('refuses a revoked, unknown or malformed key', async () => {
    const { key, record } = await store().create({ name: 'old', role: 'admin', createdBy: 'root@example.com' }, []);
    expect(await store().resolve(key)).toBeDefined();
    expect((await store().revoke(record.id)).revokedAt).toEqual(clock);
    expect(await store().resolve(key)).toBeUndefined();
    expect(await store().resolve(`${key.slice(0, -2)}xx`)).toBeUndefined();
    expect(await store().resolve('not a key')).toBeUndefined();
    await expect(store().revoke('no-such-id')).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'id' });
  });

  it('names the field of a bad request', async () => {
    await expect(store().create({ name: '', role: 'operator', createdBy: 'r' }, [])).rejects.toMatchObject({ field: 'name' });
    await expect(store().create({ name: 'x', role: 'owner', createdBy: 'r' }, [])).rejects.toMatchObject({ field: 'role' });
    await expect(store().create({ name: 'x', role: 'viewer', sources: ['nope'], createdBy: 'r' }, ['runbooks'])).rejects.toMatchObject({ field: 'sources', message: expect.stringContaining('"nope"') });
    await expect(store().create({ name: 'x', role: 'viewer', sources: [], createdBy: 'r' }, [])).rejects.toMatchObject({ field: 'sources' });
  });

  it('lists keys newest first', async () => {
    const names = (await store().list()).map((record) => record.name);
    expect(names.length).toBeGreaterThanOrEqual(4);
    expect(names).toContain('old');
  });
});
