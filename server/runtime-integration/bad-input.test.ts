/**
 * Bad requests and bad config files against the whole runtime: each is a typed
 * ContextRuntimeError whose code and message name the offending field, and a rejected request
 * writes nothing (no run, span, cached plan or cost observation).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextRuntime } from '../bootstrap';
import { ContextRuntimeError } from '../runtime/errors';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { loadConfigFile } from '../runtime/config/load-config';
import { lockPathOf } from '../services/data-dir-lock';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

let fixture: RuntimeFixture;

async function rejection(work: () => Promise<unknown>): Promise<ContextRuntimeError> {
  let thrown: unknown;
  try {
    await work();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, 'expected a ContextRuntimeError').toBeInstanceOf(ContextRuntimeError);
  return thrown as ContextRuntimeError;
}

/** Runs `work`, expects it to fail with `code` naming `field`, and checks no table grew. */
async function expectRejectedWithoutWrites(request: unknown, code: string, field: string, messagePart?: RegExp): Promise<ContextRuntimeError> {
  const before = await fixture.counts();
  const viaRun = await rejection(() => fixture.runtime.run(request));
  const viaExplain = await rejection(() => fixture.runtime.explain(request, { analyze: true }));
  for (const error of [viaRun, viaExplain]) {
    expect(error.code).toBe(code);
    expect(error.field).toBe(field);
    expect(error.message).toContain(field);
    if (messagePart) expect(error.message).toMatch(messagePart);
    expect(error.isUserError).toBe(true);
  }
  expect(await fixture.counts()).toEqual(before);
  return viaRun;
}

describe('bad requests on embedded PGlite', () => {
  beforeAll(async () => {
    fixture = await openRuntimeFixture();
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('rejects empty, blank and oversized goals', async () => {
    await expectRejectedWithoutWrites({ goal: '' }, 'INVALID_INPUT', 'goal', /empty/);
    await expectRejectedWithoutWrites({ goal: ' \n\t ' }, 'INVALID_INPUT', 'goal', /empty/);
    const huge = await expectRejectedWithoutWrites({ goal: 'x'.repeat(1024 * 1024) }, 'INVALID_INPUT', 'goal', /1048576/);
    expect(huge.message.length).toBeLessThan(200);
    await expectRejectedWithoutWrites({}, 'INVALID_INPUT', 'goal');
  });

  it('rejects bad constraints, naming the constraint', async () => {
    await expectRejectedWithoutWrites({ goal: DEMO_QUESTION, constraints: { max_cost_usd: -1 } }, 'INVALID_INPUT', 'constraints.max_cost_usd', /-1/);
    await expectRejectedWithoutWrites({ goal: DEMO_QUESTION, constraints: { max_cost_usd: 'abc' } }, 'INVALID_INPUT', 'constraints.max_cost_usd', /abc/);
    await expectRejectedWithoutWrites({ goal: DEMO_QUESTION, constraints: { max_cost_usd: Number.NaN } }, 'INVALID_INPUT', 'constraints.max_cost_usd');
    await expectRejectedWithoutWrites({ goal: DEMO_QUESTION, constraints: { max_latency_seconds: Number.POSITIVE_INFINITY } }, 'INVALID_INPUT', 'constraints.max_latency_seconds');
    await expectRejectedWithoutWrites({ goal: DEMO_QUESTION, constraints: { max_tokens: 10.5 } }, 'INVALID_INPUT', 'constraints.max_tokens');
    await expectRejectedWithoutWrites({ goal: DEMO_QUESTION, constraints: { max_budget: 1 } }, 'INVALID_INPUT', 'constraints.max_budget', /unknown constraint/);
    await expectRejectedWithoutWrites({ goal: DEMO_QUESTION, constraints: 'cheap' }, 'INVALID_INPUT', 'constraints');
  });

  it('rejects bad weights, unknown request fields and non-object requests', async () => {
    await expectRejectedWithoutWrites({ goal: DEMO_QUESTION, weights: { acc: -2 } }, 'INVALID_INPUT', 'weights.acc', /-2/);
    await expectRejectedWithoutWrites({ goal: DEMO_QUESTION, weights: { speed: 1 } }, 'INVALID_INPUT', 'weights.speed');
    await expectRejectedWithoutWrites({ goal: DEMO_QUESTION, budget: 3 }, 'INVALID_INPUT', 'budget');
    for (const request of ['Explain why deployment checkout-api failed', null, undefined, 42, [DEMO_QUESTION]]) {
      await expectRejectedWithoutWrites(request, 'INVALID_INPUT', 'request');
    }
  });

  it('rejects an unknown source, listing the known ones', async () => {
    const error = await expectRejectedWithoutWrites({ goal: DEMO_QUESTION, sources: ['demo-logs', 'prod-logs'] }, 'UNKNOWN_SOURCE', 'sources', /prod-logs/);
    const known = (await fixture.runtime.sources()).map((source) => source.name).sort();
    expect(error.details.known).toEqual(known);
    for (const name of known) expect(error.message).toContain(name);
    expect(error.message).not.toMatch(/"demo-logs"/);
  });

  it('reports an infeasible constraint as NO_FEASIBLE_PLAN with the nearest plans, writing nothing', async () => {
    const before = await fixture.counts();
    const request = { goal: DEMO_QUESTION, constraints: { max_latency_seconds: 0.000001 } };
    for (const error of [await rejection(() => fixture.runtime.run(request)), await rejection(() => fixture.runtime.explain(request))]) {
      expect(error.code).toBe('NO_FEASIBLE_PLAN');
      expect(error.message).toContain('max_latency_seconds');
      const nearest = error.details.nearest as { candidateId: string; violations: { constraint: string }[] }[];
      expect(Array.isArray(nearest) && nearest.length > 0).toBe(true);
      expect(nearest[0].candidateId.length).toBeGreaterThan(0);
      expect(nearest[0].violations.map((violation) => violation.constraint)).toContain('max_latency_seconds');
    }
    expect(await fixture.counts()).toEqual(before);
  });

  // Regression: NUL or a lone surrogate once reached Postgres and leaked a raw query error.
  it('rejects a goal Postgres cannot store (NUL, lone surrogate) as INVALID_INPUT naming goal', async () => {
    await expectRejectedWithoutWrites({ goal: 'Explain why\u0000 checkout-api failed' }, 'INVALID_INPUT', 'goal');
    await expectRejectedWithoutWrites({ goal: 'Explain why \ud800 checkout-api failed' }, 'INVALID_INPUT', 'goal');
  });

  // Regression: listRuns once threw synchronously instead of rejecting its promise.
  it('listRuns with a bad limit rejects its promise rather than throwing synchronously', async () => {
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = fixture.runtime.listRuns({ limit: 0 });
    }).not.toThrow();
    await expect(pending).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'limit' });
  });

  it('still plans and runs normally after all those rejections', async () => {
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    expect(result.status).toBe('completed');
    expect(await fixture.count('runs')).toBe(1);
  });
});

describe('bad config files', () => {
  let root: string;
  const configError = async (name: string, text: string) => {
    const path = join(root, name);
    // Each file names a data dir of its own, so "nothing was opened" is checkable below.
    writeFileSync(path, `database:\n  data_dir: ${join(root, 'pglite')}\n${text}`);
    const error = await rejection(() => ContextRuntime.fromConfig(path));
    expect(error.code).toBe('INVALID_CONFIG');
    expect(error.message).toContain(path);
    return error;
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'context-runtime-config-'));
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('invalid YAML', async () => {
    const error = await configError('broken.yaml', 'retrieval: {top_k: 3\nplan_cache: [unclosed\n');
    expect(error.message).toMatch(/not valid YAML/);
  });

  it('a wrong type names the key path', async () => {
    const error = await configError('wrong-type.yaml', 'retrieval:\n  top_k: many\n');
    expect(error.field).toBe('retrieval.top_k');
    expect(error.message).toContain('retrieval.top_k');
  });

  it('an unknown key is named', async () => {
    const nested = await configError('unknown-nested.yaml', 'retrieval:\n  top_kk: 3\n');
    expect(nested.message).toContain('top_kk');
    expect(nested.field).toBe('retrieval');
    const topLevel = await configError('unknown-top.yaml', 'retreival:\n  top_k: 3\n');
    expect(topLevel.message).toContain('retreival');
  });

  it('an unknown tier provider names models.tiers.<n>.provider', async () => {
    const error = await configError('provider.yaml', 'models:\n  tiers:\n    - name: local\n      provider: extractive\n    - name: big\n      provider: gemini\n');
    expect(error.field).toBe('models.tiers.1.provider');
    expect(error.message).toContain('models.tiers.1.provider');
  });

  it('a missing explicit config file is INVALID_CONFIG, and none of these took the lock or opened a database', async () => {
    const error = await rejection(() => ContextRuntime.fromConfig(join(root, 'absent.yaml')));
    expect(error.code).toBe('INVALID_CONFIG');
    expect(error.message).toContain('absent.yaml');
    expect(existsSync(join(root, 'pglite'))).toBe(false);
    expect(existsSync(lockPathOf(join(root, 'pglite')))).toBe(false);
  });

  it('the same way of writing a config validates when the values are right (control)', () => {
    const path = join(root, 'good.yaml');
    writeFileSync(path, `database:\n  data_dir: ${join(root, 'pglite')}\nretrieval:\n  top_k: 5\nmodels:\n  tiers:\n    - name: local\n      provider: extractive\n`);
    const config = loadConfigFile(path, { required: true });
    expect(config.retrieval).toEqual({ top_k: 5, final_k: 8, context_token_budget: 3000, hybrid: {}, rm3: {} });
    expect(config.models.tiers.map((tier) => tier.provider)).toEqual(['extractive']);
  });
});
