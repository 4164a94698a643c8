/**
 * The `context-runtime` CLI as a user runs it (a child `node bin/context-runtime.mjs` process) on
 * a temp embedded data directory. Each invocation costs ~3 s (tsx + PGlite), so there are few.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExplainResult, SimulateResult } from '../runtime/explain/explain-types';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/context-runtime.mjs', import.meta.url));

interface CliOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let fixture: RuntimeFixture;
let dataDir: string;

/** `stdin`: text piped to the child, then closed (a user's `echo … | context-runtime`); without it stdin is closed at once. */
function cli(args: readonly string[], stdin = ''): Promise<CliOutcome> {
  const env: NodeJS.ProcessEnv = { ...process.env, CONTEXT_RUNTIME_DATA_DIR: dataDir };
  // The child must use this data dir, not a server URL or a config file from the caller's shell.
  for (const name of ['DATABASE_URL', 'CONTEXT_RUNTIME_CONFIG', 'CONTEXT_RUNTIME_DEBUG', 'NODE_OPTIONS']) delete env[name];
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(stdin);
  });
}

const stderrLines = (outcome: CliOutcome) => outcome.stderr.split('\n').filter((line) => line.trim() !== '');
const hasStackTrace = (text: string) => /^\s+at .+:\d+:\d+\)?$/m.test(text);

// Two children per test at most; generous so a loaded 2-core machine does not turn slowness into failure.
describe('context-runtime CLI on a temp data directory', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    // Opened in this process first: it loads the demo corpus once (the CLI runs after reuse it)
    // and holds the data-dir lock, without a port, for the first test.
    fixture = await openRuntimeFixture();
    dataDir = fixture.dataDir;
  });

  afterAll(async () => {
    // Idempotent: normally the first test already closed it.
    await fixture?.close({ remove: false });
    if (fixture) rmSync(fixture.root, { recursive: true, force: true });
  });

  it('refuses a data dir another live process holds without a port: non-zero exit, one clear "in use" line', async () => {
    let outcome: CliOutcome;
    try {
      outcome = await cli(['explain', DEMO_QUESTION, '--json']);
    } finally {
      // Released either way: the remaining tests run the CLI on this directory.
      await fixture.close({ remove: false });
    }
    // 1, not 2: the command failed for a reason outside it (DATA_DIR_LOCKED is not a user error).
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    const lines = stderrLines(outcome);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/in use/);
    expect(lines[0]).toContain(String(process.pid));
    expect(hasStackTrace(outcome.stderr)).toBe(false);
  });

  it('explain --json twice: valid JSON, the same planHash, the second from the plan cache', async () => {
    const first = await cli(['explain', DEMO_QUESTION, '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const second = await cli(['explain', DEMO_QUESTION, '--json']);
    expect(second.code).toBe(0);
    const [one, two] = [JSON.parse(first.stdout) as ExplainResult, JSON.parse(second.stdout) as ExplainResult];
    expect(one.planHash).toMatch(/^[0-9a-f]{32}$/);
    expect(two.planHash).toBe(one.planHash);
    expect([one.planCache.status, two.planCache.status]).toEqual(['miss', 'hit']);
    expect(one.intent.primary).toBe('incident');
    expect(one.analyze).toBeUndefined();
  });

  it('explain --analyze prints estimated and actual figures for every executed node', async () => {
    const outcome = await cli(['explain', DEMO_QUESTION, '--analyze']);
    expect(outcome.code, outcome.stderr + outcome.stdout.slice(-1500)).toBe(0);
    // The verification gate's retry attempt is planned but skipped when the first answer passes: it
    // shows its estimate and "(skipped)"; every node that ran shows its actuals.
    const planned = outcome.stdout.split('\n').filter((line) => line.includes('(est tokens='));
    const nodeLines = planned.filter((line) => !line.endsWith('(skipped)'));
    expect(nodeLines.length).toBeGreaterThanOrEqual(5);
    for (const line of nodeLines) expect(line, line).toMatch(/\(actual tokens=\d+ cost=\$[\d.]+ time=[\d.]+ s attempts=\d+/);
    for (const kind of ['Retrieve', 'Fuse', 'Assemble', 'Reason', 'Verify']) expect(nodeLines.some((line) => line.includes(kind)), kind).toBe(true);
    expect(outcome.stdout).toMatch(/^Run [0-9a-f-]{36}: completed; actual tokens=\d+ .*\(estimated tokens=\d+/m);
  });

  it('a bad constraint written --max-cost-usd=-1 exits 2 with one line naming max_cost_usd, no stack trace', async () => {
    const outcome = await cli(['explain', DEMO_QUESTION, '--max-cost-usd=-1']);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(stderrLines(outcome)).toEqual([expect.stringMatching(/max_cost_usd.*-1/)]);
    expect(hasStackTrace(outcome.stderr)).toBe(false);
  });

  // Regression: parseArgs once read "-1" as an option and exited 1 without naming the field.
  it('a bad constraint written --max-cost-usd -1 exits 2 with one line naming max_cost_usd', async () => {
    const outcome = await cli(['explain', DEMO_QUESTION, '--max-cost-usd', '-1']);
    expect(outcome.code).toBe(2);
    expect(stderrLines(outcome)).toEqual([expect.stringMatching(/max_cost_usd/)]);
    expect(hasStackTrace(outcome.stderr)).toBe(false);
  });

  // Issue 10: --sources was refused and a goal could not come from stdin.
  it('explain - reads the goal from stdin, and --sources a,b restricts the sources like --source', async () => {
    const outcome = await cli(['explain', '-', '--sources', 'demo-logs,demo-events', '--json'], `${DEMO_QUESTION}\n`);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    const explain = JSON.parse(outcome.stdout) as ExplainResult;
    expect(explain.goal).toBe(DEMO_QUESTION);
    expect(explain.selectedSources.length).toBeGreaterThan(0);
    for (const source of explain.selectedSources) expect(['demo-logs', 'demo-events']).toContain(source);
  });

  it('simulate with no goal argument reads the piped goal; an empty pipe is one line naming the goal', async () => {
    const quoted = await cli(['simulate', '--json'], DEMO_QUESTION);
    expect(quoted.code).toBe(0);
    expect((JSON.parse(quoted.stdout) as SimulateResult).goal).toBe(DEMO_QUESTION);
    const empty = await cli(['run', '-'], '');
    expect(empty.code).toBe(2);
    expect(stderrLines(empty)).toEqual(['context-runtime: goal: stdin was empty: expected the goal text']);
  });

  it('an unknown flag is one line naming it (exit 2); --help documents --sources and stdin', async () => {
    const unknown = await cli(['explain', DEMO_QUESTION, '--surces', 'demo-logs']);
    expect(unknown.code).toBe(2);
    expect(stderrLines(unknown)).toEqual(['context-runtime: --surces: unknown option (see context-runtime --help)']);
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--sources A,B');
    expect(help.stdout).toContain('context-runtime run -');
  });

  it('ingest leaves binary and executable files out and warns about each, without echoing their content', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cli-ingest-'));
    const secret = 'CLI-SECRET-PAYLOAD';
    try {
      writeFileSync(join(folder, 'runbook.md'), '# Rollback\n\nRoll back with kubectl rollout undo.\n');
      writeFileSync(join(folder, 'diagram.md'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), Buffer.from(secret.repeat(50))]));
      writeFileSync(join(folder, 'deploy-tool'), `#!/bin/sh\necho ${secret}\n`, { mode: 0o755 });
      const outcome = await cli(['ingest', folder, '--sources', 'cli-notes']);
      expect(outcome.code).toBe(0);
      expect(outcome.stdout).toMatch(/^cli-notes: version \S+ — 1 documents, \d+ chunks$/m);
      const warnings = stderrLines(outcome).filter((line) => line.startsWith('warning:'));
      expect(warnings).toEqual([
        `warning: skipped ${join(folder, 'deploy-tool')}: executable file, not a document (unsupported file type "deploy-tool")`,
        `warning: skipped ${join(folder, 'diagram.md')}: binary content (NUL byte at offset 8)`,
      ]);
      expect(outcome.stdout + outcome.stderr).not.toContain(secret);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
