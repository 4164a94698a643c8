/**
 * Whether a change leaves plans byte-identical (issue 16 point 5: overhead work must not change
 * plans, or PLANNER_VERSION is bumped): plans the plancache bench's request stream cold (plan
 * cache off) on the demo corpus and prints one SHA-256 over every EXPLAIN and graph, with the
 * fields that measure time left out (planningMs, stage timings). Run it on the base and on the branch:
 *   npx tsx bench/plan-hash-check.ts [--requests 400] [--per-request FILE]
 * and compare the hashes; `--per-request` writes one hash a line to find the first plan that differs.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { ContextRuntime } from '../server/runtime';
import type { RuntimeConfig } from '../server/runtime/config/config-schema';
import { canonicalJson } from '../server/runtime/ir/serialize-graph';
import { openRuntimeFixture } from '../server/testing/runtime-fixture';
import { generateRequests } from './plancache-goals';

const SEED = 20_261_201;
/** EXPLAIN fields that measure how long planning took, not what it chose. */
const TIMED_FIELDS = new Set(['planningMs']);

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};

const withoutTimings = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).filter(([name]) => !TIMED_FIELDS.has(name)).map(([name, child]) => [name, withoutTimings(child)]));
  }
  return value;
};

async function main(): Promise<void> {
  const count = Number(argument('--requests') ?? 400);
  const perRequestPath = argument('--per-request');
  const fixture = await openRuntimeFixture({
    config: { policy: { source_roles: { 'demo-git': ['operator', 'admin'], 'demo-events': ['admin'] } } },
  });
  try {
    const config: RuntimeConfig = { ...fixture.runtime.config, plan_cache: { ...fixture.runtime.config.plan_cache, enabled: false } };
    const runtime = ContextRuntime.create(fixture.plugins, config);
    const whole = createHash('sha256');
    const lines: string[] = [];
    for (const request of generateRequests(count, SEED)) {
      const planned = await runtime.plan({ goal: request.goal, constraints: request.context.constraints, principal: { user: `u-${request.context.roles[0]}`, roles: request.context.roles } });
      const text = canonicalJson(withoutTimings({ explain: planned.explain, graph: planned.graph }));
      whole.update(text).update('\n');
      lines.push(createHash('sha256').update(text).digest('hex'));
    }
    if (perRequestPath) writeFileSync(perRequestPath, `${lines.join('\n')}\n`);
    console.log(`plans ${count}: sha256 ${whole.digest('hex')}`);
  } finally {
    await fixture.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
