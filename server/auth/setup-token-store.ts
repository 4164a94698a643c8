/**
 * One-time setup links for a server that starts with no accounts and no admin in the environment.
 * Only SHA-256(token) is stored, so reading the database does not yield a usable link; a token
 * works once (the UPDATE … WHERE used_at IS NULL is the single-use check, atomic in one statement)
 * and only until it expires.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { setupTokens } from '../../db/schema/users';

/** Long enough to finish setup after reading the log, short enough that an old log line is useless. */
export const SETUP_TOKEN_TTL_SECONDS = 24 * 60 * 60;

const hashOf = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export class SetupTokenStore {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A fresh token (32 random bytes, base64url); earlier unused tokens are withdrawn. */
  async issue(ttlSeconds: number = SETUP_TOKEN_TTL_SECONDS): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.database.db.transaction(async (transaction) => {
      await transaction.delete(setupTokens).where(isNull(setupTokens.usedAt));
      await transaction.insert(setupTokens).values({ tokenHash: hashOf(token), expiresAt: new Date(now.getTime() + ttlSeconds * 1000), createdAt: now });
    });
    return token;
  }

  /** True when the token is known, unused and unexpired; marks it used (so a second call is false). */
  async consume(token: string): Promise<boolean> {
    if (token.length === 0 || token.length > 200) return false;
    const now = this.now();
    const used = await this.database.db
      .update(setupTokens)
      .set({ usedAt: now })
      .where(and(eq(setupTokens.tokenHash, hashOf(token)), isNull(setupTokens.usedAt), gt(setupTokens.expiresAt, now)))
      .returning({ tokenHash: setupTokens.tokenHash });
    return used.length > 0;
  }

  /** Whether an unused, unexpired token exists (the /setup page says "ask for a new link" otherwise). */
  async hasPending(): Promise<boolean> {
    const [row] = await this.database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(setupTokens)
      .where(and(isNull(setupTokens.usedAt), gt(setupTokens.expiresAt, this.now())));
    return Number(row?.count ?? 0) > 0;
  }
}
