/**
 * runtime.ingest over tRPC on the real runtime (embedded PGlite): the result carries every file
 * the ingest left out with its reason, so the web app and the remote CLI can show them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { createCaller } from '../root-router';

let fixture: RuntimeFixture;
let folder: string;

describe('runtime.ingest over tRPC', () => {
  beforeAll(async () => {
    fixture = await openRuntimeFixture();
    folder = mkdtempSync(join(tmpdir(), 'router-ingest-'));
  });

  afterAll(async () => {
    await fixture?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('writes the text files and returns the binary and unsupported ones as skipped, with reasons and no content', async () => {
    const secret = 'ROUTER-SECRET-PAYLOAD';
    writeFileSync(join(folder, 'runbook.md'), '# Rollback\n\nRoll back with kubectl rollout undo.\n');
    writeFileSync(join(folder, 'export.md'), Buffer.concat([Buffer.from('\ufeff', 'utf16le'), Buffer.from(secret, 'utf16le')]));
    writeFileSync(join(folder, 'archive.zip'), secret);
    const caller = createCaller({ runtime: async () => fixture.runtime, principal: { user: 'ada', roles: ['operator'] } });
    const report = await caller.runtime.ingest({ path: folder, source: 'router-notes' });
    expect(report.sources).toEqual([expect.objectContaining({ source: 'router-notes', changed: true, documents: 1 })]);
    expect(report.skipped).toEqual([
      { path: join(folder, 'archive.zip'), reason: 'unsupported file type ".zip"' },
      { path: join(folder, 'export.md'), reason: 'binary content (UTF-16 or UTF-32 (little-endian) text; save it as UTF-8)' },
    ]);
    expect(JSON.stringify(report)).not.toContain(secret);
    const written = (await fixture.runtime.sources()).find((source) => source.name === 'router-notes');
    expect(written).toMatchObject({ kind: 'docs', chunkCount: 1 });
  });
});
