/** The users router over real account stores on an embedded database (one PGlite for the file). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../db/client';
import { migrateDatabase } from '../../../db/migrate';
import { SetupTokenStore } from '../../auth/setup-token-store';
import { UserStore } from '../../auth/user-store';
import type { Principal } from '../../runtime/types';
import { createCaller } from '../root-router';
import type { RuntimePort } from '../runtime-port';

const root = mkdtempSync(path.join(tmpdir(), 'cr-users-router-'));
let database: Database;

beforeAll(async () => {
  database = await openDatabase({ dataDir: path.join(root, 'pglite') });
  await migrateDatabase(database);
});

afterAll(async () => {
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

const callerAs = (principal?: Principal) =>
  createCaller({
    runtime: () => Promise.reject(new Error('the users router does not need the runtime')) as Promise<RuntimePort>,
    accounts: async () => ({ users: new UserStore(database), setupTokens: new SetupTokenStore(database) }),
    ...(principal ? { principal } : {}),
  });

describe('users router', () => {
  it('runs first setup with a one-time token, then refuses it', async () => {
    const token = await new SetupTokenStore(database).issue();
    const admin = await callerAs().users.completeSetup({ token, email: 'Root@Example.com', name: 'Root', password: 'a long enough password' });
    expect(admin).toMatchObject({ email: 'root@example.com', roles: ['admin'] });
    expect(admin).not.toHaveProperty('passwordHash');
    await expect(callerAs().users.completeSetup({ token, email: 'x@example.com', password: 'a long enough password' })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('lets an admin create, list, re-role and disable users, with field-naming errors', async () => {
    const admin = callerAs({ user: 'root@example.com', roles: ['admin'] });
    await admin.users.create({ email: 'op@example.com', name: 'Op', password: 'operator password', roles: ['operator'] });
    const short = await admin.users.create({ email: 'v@example.com', password: 'short', roles: ['viewer'] }).catch((caught: unknown) => caught);
    expect(short).toMatchObject({ code: 'BAD_REQUEST', message: 'password: must be at least 12 characters' });
    expect((short as { cause?: { field?: string } }).cause?.field).toBe('password');
    await expect(admin.users.create({ email: 'nope', password: 'long enough password', roles: ['viewer'] })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/^email: /) });

    await expect(admin.users.setRoles({ email: 'op@example.com', roles: ['approver'] })).resolves.toMatchObject({ roles: ['approver'] });
    await expect(admin.users.setDisabled({ email: 'op@example.com', disabled: true })).resolves.toMatchObject({ disabled: true });
    const listed = await admin.users.list();
    expect(listed.map((user) => [user.email, user.roles, user.disabled])).toEqual([
      ['root@example.com', ['admin'], false],
      ['op@example.com', ['approver'], true],
    ]);
    await expect(admin.users.setDisabled({ email: 'root@example.com', disabled: true })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('tells any signed-in user who they are', async () => {
    await expect(callerAs({ user: 'v@example.com', roles: ['viewer'] }).users.me()).resolves.toEqual({ user: 'v@example.com', roles: ['viewer'] });
  });

  it('refuses an approver (FORBIDDEN) and a signed-out caller (UNAUTHORIZED)', async () => {
    await expect(callerAs({ user: 'a@example.com', roles: ['approver'] }).users.list()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerAs().users.create({ email: 'z@example.com', password: 'a long enough password', roles: ['admin'] })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
