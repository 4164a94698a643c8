/**
 * Issue 13, point 1: an ingest stops on its caller's signal (Ctrl-C, a closed connection) and at
 * ingest.timeout_ms, through the real ingester and store, and leaves no source half-written.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextRuntime } from '../runtime';
import type { Ingester } from '../runtime/facade/runtime-plugins';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

let fixture: RuntimeFixture;
let folder: string;

beforeAll(async () => {
  fixture = await openRuntimeFixture({ config: { demo: { load_on_start: false }, learning: { enabled: false } } });
  folder = join(fixture.root, 'notes');
  mkdirSync(folder, { recursive: true });
  for (let index = 0; index < 3; index += 1) writeFileSync(join(folder, `runbook-${index}.md`), `# Runbook ${index}\n\nRestart checkout-api when its pods run out of memory (${index}).\n`);
}, 120_000);

afterAll(async () => {
  await fixture?.close();
});

const sourceNames = async () => (await fixture.runtime.sources()).map((source) => source.name);

describe('ingest cancellation and ingest.timeout_ms', { timeout: 120_000 }, () => {
  it('stops an ingest cancelled once planned, before its source is written (the CLI’s Ctrl-C)', async () => {
    const controller = new AbortController();
    const error = await fixture.runtime
      .ingest(folder, { source: 'cancelled-notes', signal: controller.signal, onProgress: (done) => done === 0 && controller.abort() })
      .catch((caught: unknown) => caught);
    expect(controller.signal.aborted).toBe(true);
    expect(error).toMatchObject({ code: 'CANCELLED' });
    expect(await sourceNames()).not.toContain('cancelled-notes');
    expect(await fixture.count('chunks')).toBe(0);
  });

  it('stops an ingest past ingest.timeout_ms with TIMEOUT and writes nothing', async () => {
    const real = fixture.plugins.ingester!;
    // The first step took longer than the limit (a slow disk, a hung git): the real ingester then runs on a fired signal.
    const slow: Ingester = async (path, options) => {
      await new Promise((resolve) => options.signal?.addEventListener('abort', resolve, { once: true }));
      return real(path, options);
    };
    const config = { ...fixture.runtime.config, ingest: { ...fixture.runtime.config.ingest, timeout_ms: 1000 } };
    const runtime = ContextRuntime.create({ ...fixture.plugins, ingester: slow }, config);
    const started = performance.now();
    const error = await runtime.ingest(folder, { source: 'late-notes' }).catch((caught: unknown) => caught);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(error).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('ingest.timeout_ms (1000 ms)') });
    expect(await sourceNames()).not.toContain('late-notes');
    expect(await fixture.count('chunks')).toBe(0);
  });

  it('ingests as before when nothing stops it', async () => {
    const report = await fixture.runtime.ingest(folder, { source: 'kept-notes', signal: new AbortController().signal });
    expect(report.sources).toMatchObject([{ source: 'kept-notes', changed: true, documents: 3 }]);
    expect(await sourceNames()).toContain('kept-notes');
  });
});
