/**
 * Accounts in Postgres (db/schema/users.ts). Validation happens here, deep, with the field named
 * (INVALID_INPUT "password: …"), so the tRPC router, the setup page and the start-up bootstrap all
 * refuse the same inputs with the same message.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users } from '../../db/schema/users';
import { ContextRuntimeError, invalidInput } from '../runtime/errors';
import { asRequest } from '../runtime/scheduler/request-priority';
import { decoyHash, hashPassword, verifyPassword } from './password-hasher';
import { MIN_PASSWORD_LENGTH } from './password-policy';
import { isRole, type Role } from './roles';

export { MIN_PASSWORD_LENGTH } from './password-policy';
const MAX_PASSWORD_LENGTH = 256;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

export interface UserRecord {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly roles: readonly Role[];
  readonly disabled: boolean;
  readonly hasPassword: boolean;
  readonly createdAt: Date;
  /** The OIDC identity linked to this account, if any. */
  readonly oidc?: { readonly issuer: string; readonly subject: string };
}

/** An OIDC identity as the identity provider names it: issuer + subject. */
export interface OidcIdentity {
  readonly issuer: string;
  readonly subject: string;
}

export interface NewUser {
  readonly email: string;
  readonly name?: string;
  /** Omitted for OIDC accounts, which never sign in with a password. */
  readonly password?: string;
  readonly roles: readonly string[];
}

type UserRow = typeof users.$inferSelect;

function toRecord(row: UserRow): UserRecord {
  return Object.freeze({
    id: row.id,
    email: row.email,
    name: row.name,
    roles: Object.freeze(row.roles.filter(isRole)),
    disabled: row.disabled,
    hasPassword: row.passwordHash !== null,
    createdAt: row.createdAt,
    ...(row.oidcIssuer !== null && row.oidcSubject !== null ? { oidc: Object.freeze({ issuer: row.oidcIssuer, subject: row.oidcSubject }) } : {}),
  });
}

export function normaliseEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(trimmed) || trimmed.length > 320) throw invalidInput('email', 'expected an email address like ada@example.com');
  return trimmed;
}

export function validatePassword(password: string): string {
  if (password.length < MIN_PASSWORD_LENGTH) throw invalidInput('password', `must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw invalidInput('password', `must be at most ${MAX_PASSWORD_LENGTH} characters`);
  return password;
}

export function validateRoles(roles: readonly string[]): readonly Role[] {
  if (roles.length === 0) throw invalidInput('roles', 'name at least one role (viewer, operator, approver, admin)');
  const unknown = roles.find((role) => !isRole(role));
  if (unknown !== undefined) throw invalidInput('roles', `unknown role "${unknown}" (expected viewer, operator, approver or admin)`);
  return Object.freeze([...new Set(roles as readonly Role[])]);
}

export class UserStore {
  constructor(private readonly database: Database) {}

  async count(): Promise<number> {
    const [row] = await this.database.db.select({ count: sql<number>`count(*)::int` }).from(users);
    return Number(row?.count ?? 0);
  }

  async list(): Promise<readonly UserRecord[]> {
    const rows = await this.database.db.select().from(users).orderBy(asc(users.createdAt), asc(users.email));
    return Object.freeze(rows.map(toRecord));
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.rowByEmail(email);
    return row ? toRecord(row) : undefined;
  }

  async create(input: NewUser): Promise<UserRecord> {
    const email = normaliseEmail(input.email);
    const name = (input.name ?? '').trim();
    if (name.length > 200) throw invalidInput('name', 'must be at most 200 characters');
    const passwordHash = input.password === undefined ? null : await hashPassword(validatePassword(input.password));
    const roles = validateRoles(input.roles);
    const inserted = await this.database.db
      .insert(users)
      .values({ id: randomUUID(), email, name, passwordHash, roles: [...roles] })
      .onConflictDoNothing({ target: users.email })
      .returning();
    const row = inserted[0];
    if (!row) throw new ContextRuntimeError('CONFLICT', `email: ${email} already has an account`, { field: 'email' });
    return toRecord(row);
  }

  /** The account when `password` is right and the account enabled; undefined otherwise (same cost either way). */
  async findByIdentity(identity: OidcIdentity): Promise<UserRecord | undefined> {
    const [row] = await this.database.db
      .select()
      .from(users)
      .where(and(eq(users.oidcIssuer, identity.issuer), eq(users.oidcSubject, identity.subject)))
      .limit(1);
    return row ? toRecord(row) : undefined;
  }

  /**
   * A first OIDC sign-in's account, linked to its identity. Unlike `create`, `roles` may be empty:
   * such an account can sign in but reach nothing until an admin assigns a role.
   */
  async createForIdentity(input: { readonly email: string; readonly name?: string; readonly roles: readonly string[]; readonly identity: OidcIdentity }): Promise<UserRecord> {
    const roles = input.roles.length === 0 ? [] : validateRoles(input.roles);
    const [row] = await this.database.db
      .insert(users)
      .values({ id: randomUUID(), email: normaliseEmail(input.email), name: (input.name ?? '').trim().slice(0, 200), passwordHash: null, roles: [...roles], oidcIssuer: input.identity.issuer, oidcSubject: input.identity.subject })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new ContextRuntimeError('CONFLICT', `email: ${input.email} or this sign-in identity already has an account`, { field: 'email' });
    return toRecord(row);
  }

  /** Links an existing account that has no OIDC identity yet; refuses one linked to another identity. */
  async linkIdentity(email: string, identity: OidcIdentity): Promise<UserRecord> {
    const [row] = await this.database.db
      .update(users)
      .set({ oidcIssuer: identity.issuer, oidcSubject: identity.subject })
      .where(and(eq(users.email, normaliseEmail(email)), isNull(users.oidcSubject)))
      .returning();
    if (!row) throw new ContextRuntimeError('CONFLICT', `email: ${email} is already linked to another sign-in identity, or has no account`, { field: 'email' });
    return toRecord(row);
  }

  /**
   * One request from lookup to answer (request-priority.ts): an ingest running beside it pauses
   * while scrypt runs, instead of competing for the cores and holding the thread when it returns.
   */
  async authenticate(email: string, password: string): Promise<UserRecord | undefined> {
    return asRequest(async () => {
      const row = EMAIL_PATTERN.test(email.trim()) ? await this.rowByEmail(email) : undefined;
      const valid = await verifyPassword(password, row?.passwordHash ?? (await decoyHash()));
      return row && row.passwordHash !== null && valid && !row.disabled ? toRecord(row) : undefined;
    });
  }

  async setRoles(email: string, roles: readonly string[]): Promise<UserRecord> {
    const valid = validateRoles(roles);
    if (!valid.includes('admin')) await this.guardLastAdmin(email);
    return this.update(email, { roles: [...valid] });
  }

  async setDisabled(email: string, disabled: boolean): Promise<UserRecord> {
    if (disabled) await this.guardLastAdmin(email);
    return this.update(email, { disabled });
  }

  async setPassword(email: string, password: string): Promise<UserRecord> {
    return this.update(email, { passwordHash: await hashPassword(validatePassword(password)) });
  }

  /** Nobody could manage users again (no default password exists to fall back on): refuse instead. */
  private async guardLastAdmin(email: string): Promise<void> {
    const target = normaliseEmail(email);
    const admins = await this.database.db
      .select({ email: users.email })
      .from(users)
      .where(sql`'admin' = any(${users.roles}) and not ${users.disabled}`);
    if (admins.length === 1 && admins[0]!.email === target) {
      throw new ContextRuntimeError('CONFLICT', `email: ${target} is the last enabled admin; make another admin first`, { field: 'email' });
    }
  }

  private async rowByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.database.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
    return row;
  }

  private async update(email: string, changes: Partial<Pick<UserRow, 'roles' | 'disabled' | 'passwordHash'>>): Promise<UserRecord> {
    const [row] = await this.database.db.update(users).set(changes).where(eq(users.email, normaliseEmail(email))).returning();
    if (!row) throw new ContextRuntimeError('NOT_FOUND', `email: no account for ${email}`, { field: 'email' });
    return toRecord(row);
  }
}
