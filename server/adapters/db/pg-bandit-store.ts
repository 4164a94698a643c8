import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { banditArms, banditDecisions, runFeedback } from '../../../db/schema';
import type { BanditStorePort, DecisionRecord, FeedbackTally, ObservationState, StoredArm, Thumb } from '../../runtime/learning/bandit-store';

/**
 * The bandit's state in Postgres (PGlite or a server). Each arm row holds its full sufficient
 * statistics and is rewritten whole after an update: two processes learning at once would keep
 * the last writer's row (each process reloads at start), a documented limit of this first version.
 */
export class PgBanditStore implements BanditStorePort {
  constructor(private readonly database: Database) {}

  async loadArms(policy: string, dimension: number): Promise<readonly StoredArm[]> {
    const rows = await this.database.db.select().from(banditArms).where(and(eq(banditArms.policy, policy), eq(banditArms.dimension, dimension)));
    return rows.map((row) =>
      Object.freeze({ arm: row.arm, inverse: Object.freeze(row.inverse), b: Object.freeze(row.b), contextSum: Object.freeze(row.contextSum), pulls: row.pulls, rewardSum: row.rewardSum }),
    );
  }

  /**
   * One statement (a data-modifying CTE runs exactly once, and the statement commits or fails
   * whole): the atomicity of a transaction without its BEGIN and COMMIT round trips, which made
   * four of the statements every run costs (bench:loc --queries).
   */
  async saveObservation(policy: string, arm: StoredArm, decision: DecisionRecord): Promise<void> {
    const json = (values: readonly number[]) => sql`${JSON.stringify(values)}::jsonb`;
    await this.database.query(sql`
      with arm as (
        insert into ${banditArms} (policy, arm, dimension, inverse, b, context_sum, pulls, reward_sum, updated_at)
        values (${policy}, ${arm.arm}, ${arm.b.length}, ${json(arm.inverse)}, ${json(arm.b)}, ${json(arm.contextSum)}, ${arm.pulls}, ${arm.rewardSum}, now())
        on conflict (policy, arm) do update set dimension = excluded.dimension, inverse = excluded.inverse, b = excluded.b,
          context_sum = excluded.context_sum, pulls = excluded.pulls, reward_sum = excluded.reward_sum, updated_at = excluded.updated_at
        returning 1
      )
      insert into ${banditDecisions} (run_id, policy, arm, context, explored, judged_quality, penalty, reward, updated_at)
      values (${decision.runId}, ${decision.policy}, ${decision.arm}, ${json(decision.context)}, ${decision.explored}, ${decision.judgedQuality}, ${decision.penalty}, ${decision.reward}, now())
      on conflict (run_id) do update set policy = excluded.policy, arm = excluded.arm, context = excluded.context, explored = excluded.explored,
        judged_quality = excluded.judged_quality, penalty = excluded.penalty, reward = excluded.reward, updated_at = excluded.updated_at`);
  }

  async observationStateOf(runId: string): Promise<ObservationState> {
    // An aggregate without group by returns one row, votes or not.
    const [row] = await this.database.query<{ decided: boolean; up: number; down: number }>(sql`
      select exists (select 1 from ${banditDecisions} where run_id = ${runId}) as decided,
             count(*) filter (where thumb = 1)::int as up, count(*) filter (where thumb = -1)::int as down
      from ${runFeedback} where run_id = ${runId}`);
    return Object.freeze({ decided: Boolean(row?.decided), feedback: Object.freeze({ up: Number(row?.up ?? 0), down: Number(row?.down ?? 0) }) });
  }

  async decisionOf(runId: string): Promise<DecisionRecord | undefined> {
    const [row] = await this.database.db.select().from(banditDecisions).where(eq(banditDecisions.runId, runId));
    if (!row) return undefined;
    return Object.freeze({ runId: row.runId, policy: row.policy, arm: row.arm, context: Object.freeze(row.context), explored: row.explored, judgedQuality: row.judgedQuality, penalty: row.penalty, reward: row.reward });
  }

  async recordFeedback(runId: string, user: string, thumb: Thumb): Promise<FeedbackTally> {
    const value = thumb === 'up' ? 1 : -1;
    await this.database.db
      .insert(runFeedback)
      .values({ runId, userName: user, thumb: value })
      .onConflictDoUpdate({ target: [runFeedback.runId, runFeedback.userName], set: { thumb: value, updatedAt: new Date() } });
    return this.feedbackOf(runId);
  }

  async feedbackOf(runId: string): Promise<FeedbackTally> {
    const [row] = await this.database.db
      .select({ up: sql<number>`count(*) filter (where ${runFeedback.thumb} = 1)::int`, down: sql<number>`count(*) filter (where ${runFeedback.thumb} = -1)::int` })
      .from(runFeedback)
      .where(eq(runFeedback.runId, runId));
    return Object.freeze({ up: Number(row?.up ?? 0), down: Number(row?.down ?? 0) });
  }
}
