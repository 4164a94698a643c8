/** The API keys router over a real key store on an embedded database (one PGlite for the file). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../db/client';
import { migrateDatabase } from '../../../db/migrate';
import { ApiKeyStore } from '../../auth/api-key-store';
import { SetupTokenStore } from '../../auth/setup-token-store';
import { UserStore } from '../../auth/user-store';
import type { Principal, SourceInfo } from '../../runtime/types';
import { fakeRuntimePort } from '../fake-runtime-port';
import { createCaller } from '../root-router';

const root = mkdtempSync(path.join(tmpdir(), 'cr-api-keys-router-'));
let database: Database;
const source = (name: string) => ({ name }) as SourceInfo;
const ADMIN: Principal = { user: 'root@example.com', roles: ['admin'] };

beforeAll(async () => {
  database = await openDatabase({ dataDir: path.join(root, 'pglite') });
  await migrateDatabase(database);
});

afterAll(async () => {
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

const callerAs = (principal: Principal) =>
  createCaller({
    runtime: async () => fakeRuntimePort({ sources: async () => [source('runbooks'), source('payroll')] }),
    accounts: async () => ({ users: new UserStore(database), setupTokens: new SetupTokenStore(database), apiKeys: new ApiKeyStore(database) }),
    principal,
  });

describe('apiKeys router', () => {
  it('creates a key shown once, lists it without the secret, and revokes it', async () => {
    const { key, record } = await callerAs(ADMIN).apiKeys.create({ name: 'ci', role: 'operator', sources: ['runbooks'] });
    expect(key).toMatch(/^crk_[0-9a-f]{8}_/);
    expect(record).toMatchObject({ name: 'ci', role: 'operator', sources: ['runbooks'], createdBy: ADMIN.user, lastUsedAt: null, revokedAt: null });
    const listed = await callerAs(ADMIN).apiKeys.list();
    expect(listed.map((entry) => entry.prefix)).toContain(record.prefix);
    expect(JSON.stringify(listed)).not.toContain(key.slice(record.prefix.length));
    expect(await new ApiKeyStore(database).resolve(key)).toBeDefined();
    expect((await callerAs(ADMIN).apiKeys.revoke({ id: record.id })).revokedAt).toBeInstanceOf(Date);
    expect(await new ApiKeyStore(database).resolve(key)).toBeUndefined();
  });

  it('names the field of a bad request', async () => {
    await expect(callerAs(ADMIN).apiKeys.create({ name: 'x', role: 'owner' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('role:') });
    await expect(callerAs(ADMIN).apiKeys.create({ name: 'x', role: 'viewer', sources: ['nowhere'] })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('sources:') });
    await expect(callerAs(ADMIN).apiKeys.revoke({ id: 'missing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses everyone below admin', async () => {
    for (const role of ['viewer', 'operator', 'approver']) {
      await expect(callerAs({ user: 'x@example.com', roles: [role] }).apiKeys.create({ name: 'x', role: 'admin' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(callerAs({ user: 'x@example.com', roles: [role] }).apiKeys.list()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
  });
});
