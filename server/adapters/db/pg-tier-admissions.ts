/**
 * The tier admission ledger on the deployment's database (cluster-admission.ts): one row per model
 * call admitted under a tier's limits, by any process. Deciding and recording happen under a
 * transaction-scoped advisory lock per limiter key, so two processes never both take the last slot;
 * time is the database server's clock, the one every process shares.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../../db/client';
import type { TierAdmissionAnswer, TierAdmissionLedger, TierAdmissionRequest } from '../models/cluster-admission';

/** How soon a call blocked only by calls in flight asks again (they end at no predictable time). */
const IN_FLIGHT_RETRY_MS = 50;

interface LedgerFigures extends Record<string, unknown> {
  in_flight: number;
  requests: number;
  tokens: number;
  /** Milliseconds until the oldest call of the last minute leaves the window (null: none in it). */
  oldest_leaves_ms: number | null;
}

export class PgTierAdmissions implements TierAdmissionLedger {
  constructor(private readonly database: Database) {}

  tryAdmit({ key, limits, tokens, leaseMs }: TierAdmissionRequest): Promise<TierAdmissionAnswer> {
    return this.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`context-runtime:tier:${key}`}))`);
      // Rows that count for nothing any more: out of the minute, and settled or past their lease.
      await tx.execute(sql`delete from tier_admissions where limiter_key = ${key} and admitted_at <= now() - interval '1 minute' and (settled_at is not null or lease_until < now())`);
      const [figures] = rowsOf<LedgerFigures>(
        await tx.execute(sql`
          select count(*) filter (where settled_at is null and lease_until >= now())::int as in_flight,
                 count(*) filter (where admitted_at > now() - interval '1 minute')::int as requests,
                 coalesce(sum(tokens) filter (where admitted_at > now() - interval '1 minute'), 0)::int as tokens,
                 (extract(epoch from min(admitted_at) filter (where admitted_at > now() - interval '1 minute') + interval '1 minute' - now()) * 1000)::int as oldest_leaves_ms
          from tier_admissions where limiter_key = ${key}`),
      );
      const refusal = refusalOf(limits, tokens, figures);
      if (refusal !== undefined) return { admitted: false, retryAfterMs: refusal };
      const [row] = rowsOf<{ id: number }>(
        await tx.execute(sql`insert into tier_admissions (limiter_key, tokens, lease_until) values (${key}, ${tokens}, now() + make_interval(secs => ${leaseMs / 1000})) returning id`),
      );
      return { admitted: true, id: Number(row.id) };
    });
  }

  async settle(id: number, actualTokens?: number): Promise<void> {
    await this.database.query(sql`update tier_admissions set settled_at = now(), tokens = coalesce(${actualTokens ?? null}::int, tokens) where id = ${id}`);
  }
}

/** Milliseconds to wait before asking again, or undefined when the limits admit the call now (the rules of TierLimiter). */
function refusalOf(limits: TierAdmissionRequest['limits'], tokens: number, figures: LedgerFigures): number | undefined {
  const untilWindowMoves = Math.max(1, Number(figures.oldest_leaves_ms ?? IN_FLIGHT_RETRY_MS));
  if (limits.maxConcurrency !== undefined && Number(figures.in_flight) >= limits.maxConcurrency) return IN_FLIGHT_RETRY_MS;
  if (limits.requestsPerMinute !== undefined && Number(figures.requests) >= limits.requestsPerMinute) return untilWindowMoves;
  // A call larger than the whole minute's budget still goes, alone in its window (as in-process).
  if (limits.tokensPerMinute !== undefined && Number(figures.requests) > 0 && Number(figures.tokens) + tokens > limits.tokensPerMinute) return untilWindowMoves;
  return undefined;
}
