/**
 * Soundness properties of the semantic plan cache (fast-check): a plan is never served across
 * permissions or budgets, and never after a change of a source it was planned over.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SifEmbedder } from '../../adapters/embeddings/sif-embedder';
import { openWordVectors } from '../../adapters/embeddings/word-vectors';
import { MemoryPlanCacheStore } from './memory-plan-cache-store';
import { SemanticPlanCache } from './semantic-plan-cache';
import { readableSources, TEST_SOURCES, testKey, type TestRequest } from './testing-keys';

const embedder = new SifEmbedder(() => openWordVectors());

// Paraphrase pairs, so the intent part matches and only the exact parts decide.
const GOALS = [
  'Why did checkout-api fail after the deploy?',
  'What caused the checkout-api failure after the deployment',
  'Explain the checkout-api failure following the deploy',
  'How does checkout-api handle rate limiting?',
  'Why is checkout-api slow',
  'What makes checkout-api so slow',
];
const ROLES = ['viewer', 'operator', 'oncall', 'finance', 'admin'];
const BUDGETS = [undefined, 0.01, 0.05, 0.5];
const LATENCIES = [undefined, 5, 30];

const requestArbitrary = fc.record({
  goal: fc.constantFrom(...GOALS),
  roles: fc.subarray(ROLES),
  budget: fc.record({ max_cost_usd: fc.constantFrom(...BUDGETS), max_latency_seconds: fc.constantFrom(...LATENCIES) }),
});

const sameSet = (left: readonly string[], right: readonly string[]) => [...new Set(left)].sort().join() === [...new Set(right)].sort().join();
const definedOnly = (budget: object) => JSON.stringify(Object.fromEntries(Object.entries(budget).filter(([, value]) => value !== undefined)));

describe('plan cache soundness properties', () => {
  it('users with different permissions or budgets never share a plan', async () => {
    await fc.assert(
      fc.asyncProperty(requestArbitrary, requestArbitrary, async (first, second) => {
        const cache = new SemanticPlanCache({ store: new MemoryPlanCacheStore(), embedder });
        const firstRequest: TestRequest = { ...first, versions: {} };
        await cache.put(testKey(firstRequest), 'plan-first', { roles: first.roles, budget: first.budget });
        const lookup = await cache.lookup(testKey({ ...second, versions: {} }));
        if (lookup.status === 'hit') {
          expect(sameSet(first.roles, second.roles)).toBe(true);
          expect(definedOnly(first.budget)).toBe(definedOnly(second.budget));
        }
        // The property must not hold vacuously: identical principals and budgets on the same goal do hit.
        if (first.goal === second.goal && sameSet(first.roles, second.roles) && definedOnly(first.budget) === definedOnly(second.budget)) {
          expect(lookup.status).toBe('hit');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a changed source never serves a plan made before the change', async () => {
    let totalHits = 0;
    const step = fc.oneof(
      fc.record({ kind: fc.constant('plan' as const), goal: fc.constantFrom(...GOALS.slice(0, 3)), roles: fc.constantFrom(['viewer'], ['oncall'], ['admin']) }),
      fc.record({ kind: fc.constant('change' as const), source: fc.constantFrom(...TEST_SOURCES), invalidate: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 25 }), async (steps) => {
        const versions: Record<string, number> = {};
        const sourceNames = new Map<string, readonly string[]>();
        const cache = new SemanticPlanCache({ store: new MemoryPlanCacheStore(), embedder, sourceNamesOf: (fingerprint) => sourceNames.get(fingerprint) });
        // Which versions each plan was made over, by plan hash.
        const madeOver = new Map<string, Record<string, number>>();
        for (const [index, current] of steps.entries()) {
          if (current.kind === 'change') {
            versions[current.source] = (versions[current.source] ?? 1) + 1;
            // The store's change hook retires plans; with `invalidate` false the new fingerprint alone must do it.
            if (current.invalidate) await cache.invalidateSource(current.source);
            continue;
          }
          const key = testKey({ goal: current.goal, roles: current.roles, versions });
          sourceNames.set(key.sourceFingerprint, TEST_SOURCES);
          const lookup = await cache.lookup(key);
          if (lookup.status === 'hit') {
            totalHits++;
            const planned = madeOver.get(lookup.entry!.planHash)!;
            // Every source this principal's plan reads is at the version it was planned over.
            for (const source of readableSources(current.roles)) expect(planned[source] ?? 1, source).toBe(versions[source] ?? 1);
          } else {
            const hash = `plan-${index}`;
            madeOver.set(hash, { ...versions });
            await cache.put(key, hash, {});
          }
        }
      }),
      { numRuns: 150 },
    );
    // Not vacuous: plans made after the last change of their sources were served.
    expect(totalHits).toBeGreaterThan(20);
  });
});
