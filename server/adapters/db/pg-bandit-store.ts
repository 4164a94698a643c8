import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { banditArms, banditDecisions, runFeedback } from '../../../db/schema';
import type { BanditStorePort, DecisionRecord, FeedbackTally, StoredArm, Thumb } from '../../runtime/learning/bandit-store';

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

  async saveObservation(policy: string, arm: StoredArm, decision: DecisionRecord): Promise<void> {
    const now = new Date();
    const armValues = { inverse: [...arm.inverse], b: [...arm.b], contextSum: [...arm.contextSum], pulls: arm.pulls, rewardSum: arm.rewardSum, dimension: arm.b.length, updatedAt: now };
    const decisionValues = { policy: decision.policy, arm: decision.arm, context: [...decision.context], explored: decision.explored, judgedQuality: decision.judgedQuality, penalty: decision.penalty, reward: decision.reward, updatedAt: now };
    await this.database.db.transaction(async (transaction) => {
      await transaction.insert(banditArms).values({ policy, arm: arm.arm, ...armValues }).onConflictDoUpdate({ target: [banditArms.policy, banditArms.arm], set: armValues });
      await transaction.insert(banditDecisions).values({ runId: decision.runId, ...decisionValues }).onConflictDoUpdate({ target: banditDecisions.runId, set: decisionValues });
    });
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
