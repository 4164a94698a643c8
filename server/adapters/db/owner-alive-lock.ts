/**
 * A run owner's liveness on a PostgreSQL server, held apart from its heartbeat: a session-level
 * advisory lock on a connection reserved for the process's lifetime. A process whose event loop is
 * stalled (a CPU-bound node) writes no heartbeat, yet its session and lock stay; a process killed
 * outright loses its session when the kernel closes its socket, and the lock with it. Orphan claims
 * (pg-run-store.ts) pass over runs whose owner still holds it.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database, ReservedSession } from '../../../db/client';
import type { OwnerAliveMark } from '../../runtime/contracts/run-store';

/** The advisory lock's first key: this application's run owners (the second is the owner's hash). */
export const OWNER_LOCK_CLASS = 0x6372;

/**
 * Server-side TCP keepalives on the lock's session, so a host that vanished without closing its
 * socket (power loss, a cut network) loses the lock within about 30 s instead of the kernel's hours.
 */
const KEEPALIVE = 'set tcp_keepalives_idle = 10; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3';

/** The condition "`ownerColumn` holds its alive mark" for a WHERE clause (any session of this database). */
export function ownerHoldsAliveMark(ownerColumn: SQL | unknown): SQL {
  return sql`exists (select 1 from pg_locks l where l.locktype = 'advisory' and l.granted and l.objsubid = 2
    and l.database = (select oid from pg_database where datname = current_database())
    and l.classid = ${OWNER_LOCK_CLASS}::int4::oid and l.objid = (hashtext(${ownerColumn}) & 2147483647)::int4::oid)`;
}

/** A refresh that does not answer within this is given up: the heartbeat must never wait on a dead session. */
const REFRESH_TIMEOUT_MS = 5_000;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

async function take(database: Database, owner: string): Promise<ReservedSession> {
  const session = await database.reserveSession!();
  try {
    for (const statement of KEEPALIVE.split('; ')) await session.query(statement, []);
    await session.query('select pg_advisory_lock($1::int4, hashtext($2) & 2147483647)', [OWNER_LOCK_CLASS, owner]);
    return session;
  } catch (error) {
    session.release();
    throw error;
  }
}

export async function markOwnerAlive(database: Database, owner: string): Promise<OwnerAliveMark> {
  let session: ReservedSession | undefined = await take(database, owner);
  return {
    async refresh() {
      // Checked from the pool, never on the lock's own session: writing to a reserved connection
      // whose socket the server closed crashed postgres.js 3.4.9 (a TypeError in its nextWrite).
      try {
        const [row] = await within(database.query<{ held: boolean }>(sql`select ${ownerHoldsAliveMark(owner)} as held`), REFRESH_TIMEOUT_MS);
        if (row?.held) return true;
      } catch {
        return false;
      }
      // Nobody holds it: its session died (a server restart). That connection is left alone, and a new one takes the lock.
      session = undefined;
      try {
        session = await within(take(database, owner), REFRESH_TIMEOUT_MS);
        return true;
      } catch {
        return false;
      }
    },
    async release() {
      const held = session;
      session = undefined;
      if (!held) return;
      // Its session may have died unnoticed (an outage while no run beat): written to, a dead
      // reserved connection crashes postgres.js 3.4.9 (nextWrite). Asked from the pool first.
      const alive = await within(database.query<{ held: boolean }>(sql`select ${ownerHoldsAliveMark(owner)} as held`), REFRESH_TIMEOUT_MS).then(
        ([row]) => row?.held === true,
        () => false,
      );
      if (!alive) return;
      await held.query('select pg_advisory_unlock($1::int4, hashtext($2) & 2147483647)', [OWNER_LOCK_CLASS, owner]).catch(() => undefined);
      held.release();
    },
  };
}
