/**
 * Issue 12, finding 6, through the runtime's own entry point: `limits.runs` from the config file
 * refuses a user's run past their concurrent-run or daily-spend limit (nothing did before).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEND_READ_FRESH_MS } from '../runtime/facade/run-limits';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const GOAL = 'Explain why deployment checkout-api failed';
const ana = { user: 'ana', roles: ['operator'] };
const bo = { user: 'bo', roles: ['operator'] };
let fixture: RuntimeFixture;

beforeAll(async () => {
  fixture = await openRuntimeFixture({ config: { limits: { runs: { max_concurrent_per_user: 1, max_daily_spend_usd_per_user: 1 } } } });
});

afterAll(async () => {
  await fixture?.close();
});

describe('run limits from the config', () => {
  it('runs one of two simultaneous runs of one user and refuses the other; another user is unaffected', async () => {
    const outcomes = await Promise.allSettled([fixture.runtime.run({ goal: GOAL, principal: ana }), fixture.runtime.run({ goal: GOAL, principal: ana }), fixture.runtime.run({ goal: GOAL, principal: bo })]);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'RATE_LIMITED', field: 'limits.runs.max_concurrent_per_user' });
    expect(outcomes[2]!.status).toBe('fulfilled');
    // The slot is free again once the run has finished.
    expect((await fixture.runtime.run({ goal: GOAL, principal: ana })).status).toBe('completed');
  });

  it("refuses a run once the user's recorded spend today reaches the daily limit", async () => {
    await fixture.database.query(sql`update runs set cost_usd = 1.5 where user_name = 'ana'`);
    // Spend written behind the runtime's back (as another process would) counts from its next read of the user's spend.
    await new Promise((resolve) => setTimeout(resolve, SPEND_READ_FRESH_MS));
    await expect(fixture.runtime.run({ goal: GOAL, principal: ana })).rejects.toMatchObject({ code: 'RATE_LIMITED', field: 'limits.runs.max_daily_spend_usd_per_user' });
    expect((await fixture.runtime.run({ goal: GOAL, principal: bo })).status).toBe('completed');
  });
});
