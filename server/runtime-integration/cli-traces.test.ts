/**
 * The standard variables turn tracing on for the CLI as for the server: a `context-runtime explain`
 * child process with OTEL_EXPORTER_OTLP_ENDPOINT and LANGFUSE_* set sends its planning trace to a
 * loopback collector and a loopback Langfuse before it exits.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { startOtlpReceiver, type OtlpReceiver } from '../testing/loopback-otlp-receiver';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/context-runtime.mjs', import.meta.url));

let fixture: RuntimeFixture;
let collector: OtlpReceiver;
let langfuse: OtlpReceiver;

function cli(args: readonly string[], variables: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, CONTEXT_RUNTIME_DATA_DIR: fixture.dataDir, ...variables };
  for (const name of ['DATABASE_URL', 'CONTEXT_RUNTIME_CONFIG', 'CONTEXT_RUNTIME_DEBUG', 'NODE_OPTIONS']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env, timeout: 90_000 }, (error, _stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }));
  });
}

describe('CLI traces out', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    // Loads the demo corpus once, then lets go of the directory for the child.
    fixture = await openRuntimeFixture();
    await fixture.close({ remove: false });
    collector = await startOtlpReceiver('/v1/traces');
    langfuse = await startOtlpReceiver('/api/public/otel/v1/traces');
  });

  afterAll(async () => {
    await collector?.close();
    await langfuse?.close();
    if (fixture) rmSync(fixture.root, { recursive: true, force: true });
  });

  it('exports an explain from OTEL_EXPORTER_OTLP_ENDPOINT and LANGFUSE_* alone', async () => {
    // Not demo-git: its commits are marked sensitive (author emails), so a plan over them exports no goal.
    const outcome = await cli(['explain', DEMO_QUESTION, '--sources', 'demo-logs,demo-events,demo-docs,demo-metrics'], { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, LANGFUSE_PUBLIC_KEY: 'pk-lf-cli', LANGFUSE_SECRET_KEY: 'sk-lf-cli', LANGFUSE_BASE_URL: langfuse.url });
    expect(outcome.code, outcome.stderr).toBe(0);
    for (const receiver of [collector, langfuse]) {
      const root = receiver.spans().find((span) => span.name === 'explain');
      expect(root, receiver.url).toBeDefined();
      expect(root!.attributes['context_runtime.goal']).toBe(DEMO_QUESTION);
      expect(receiver.spans().filter((span) => span.parentSpanId === root!.spanId).map((span) => span.name)).toContain('planner.chosen');
    }
    expect(langfuse.requests[0].headers.authorization).toBe(`Basic ${Buffer.from('pk-lf-cli:sk-lf-cli').toString('base64')}`);
  });
});
