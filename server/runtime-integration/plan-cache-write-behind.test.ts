/**
 * plan() does not wait for the plan-cache row or a miss's near-miss diagnosis (issue 16 point 5):
 * both are written behind the request. A following identical request hits once the write has
 * landed, and close() lands whatever is still queued, so a restarted process finds the row.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SemanticPlanCache } from '../runtime/plancache/semantic-plan-cache';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

let fixture: RuntimeFixture;
const operator = { user: 'olga', roles: ['operator'] };

const storedRows = async (planHash: string) =>
  Number((await fixture.database.query<{ count: number }>(sql`select count(*)::int as count from plan_cache where plan_hash = ${planHash}`))[0].count);

beforeAll(async () => {
  fixture = await openRuntimeFixture();
});

afterAll(async () => {
  await fixture?.close();
});

describe('plan-cache writes behind plan()', () => {
  it('returns the plan before its row is written; the next identical request hits once it lands', async () => {
    const goal = 'Why did checkout-api fail after the deploy?';
    const first = await fixture.runtime.plan({ goal, principal: operator });
    expect(first.explain.planCache.status).toBe('miss');
    expect(first.explain.planCache.nearMiss).toBeUndefined(); // diagnosed behind, for the counters
    expect(await storedRows(first.explain.planHash)).toBe(0);
    await (fixture.plugins.planCache as SemanticPlanCache).flush();
    expect(await storedRows(first.explain.planHash)).toBe(1);
    const second = await fixture.runtime.plan({ goal, principal: operator });
    expect(second.explain.planCache).toMatchObject({ status: 'hit', tier: 'memory' });
    expect(second.explain.planHash).toBe(first.explain.planHash);
    expect((fixture.plugins.planCache as SemanticPlanCache).writeBehindStats).toMatchObject({ failed: 0, dropped: 0, pending: 0 });
  });

  it('EXPLAIN still names the near miss: it waits for the diagnosis', async () => {
    const explain = await fixture.runtime.explain({ goal: 'Why did checkout-api fail after the deploy?', principal: operator, constraints: { max_cost_usd: 0.02 } });
    expect(explain.planCache).toMatchObject({ status: 'miss', nearMiss: { differs: ['constraints'] } });
  });

  it('close() lands the writes still queued: a restarted runtime finds the row', async () => {
    const goal = 'Which commit broke payments-service?';
    const planned = await fixture.runtime.plan({ goal, principal: operator });
    expect(await storedRows(planned.explain.planHash)).toBe(0);
    fixture = await fixture.restart();
    expect(await storedRows(planned.explain.planHash)).toBe(1);
    expect((await fixture.runtime.plan({ goal, principal: operator })).explain.planCache).toMatchObject({ status: 'hit', tier: 'store' });
  });
});
