/**
 * The package as another project gets it (issue 14, point 5): `npm pack` (whose prepack builds
 * dist/), the tarball unpacked into a fresh project's node_modules, then plain `node` (no tsx)
 * imports `context-runtime`, opens an embedded database in that project, loads the demo the
 * package ships, ingests a folder and answers a goal with citations; and `tsc` type-checks a
 * `.ts` file against the shipped declarations under `moduleResolution: nodenext`.
 *
 * The dependencies are the repository's node_modules, linked in: `npm install <tarball> --offline`
 * cannot resolve them (npm's cache holds their tarballs, not the registry documents it asks for
 * first), and `--prefer-offline` (registry documents fetched, tarballs from the cache) took 2 min
 * 18 s for its 194 packages on the shared 2-core machine, longer than this whole test may take.
 * The package itself is only the tarball's copy.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCachePath } from '../server/adapters/embeddings/word-vectors';
import { serverEnv } from '../server/config/env';

const run = promisify(execFile);
const repository = path.resolve(import.meta.dirname, '..');
let workspace: string;
let consumer: string;
/** `tsc` over typed.ts, started once the project exists: it runs while node answers the goal. */
let typeCheck: Promise<string>;

/** A child's environment without this process's CONTEXT_RUNTIME_* / DATABASE_URL / model keys: the consumer's own defaults apply. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    // The word vectors' binary cache the test setup built: converting the 307 MB JSON again costs ~10 s and proves nothing new.
    CONTEXT_RUNTIME_EMBEDDINGS_CACHE: defaultCachePath(serverEnv().embeddingsCache),
  };
}

/** Unpacks the tarball where npm would put it, and links every other package from the repository's node_modules. */
async function installInto(project: string, tarball: string): Promise<void> {
  const modules = path.join(project, 'node_modules');
  mkdirSync(path.join(modules, 'context-runtime'), { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', path.join(modules, 'context-runtime'), '--strip-components=1']);
  for (const name of readdirSync(path.join(repository, 'node_modules'))) {
    if (name.startsWith('.') || name === 'context-runtime') continue;
    symlinkSync(path.join(repository, 'node_modules', name), path.join(modules, name));
  }
}

const SCRIPT = `
import { mkdirSync, writeFileSync } from 'node:fs';
import { ContextRuntime } from 'context-runtime';

writeFileSync('context-runtime.yaml', 'database:\\n  data_dir: ./.data/pglite\\n');
mkdirSync('notes', { recursive: true });
writeFileSync('notes/on-call.md', '# On call\\n\\nThe checkout-api pager rotation hands over on Mondays at 09:00 UTC.\\n');
const runtime = await ContextRuntime.fromConfig('context-runtime.yaml');
try {
  const ingested = await runtime.ingest('notes', { source: 'team-notes' });
  const result = await runtime.run({ goal: 'Explain why deployment checkout-api failed', sources: ['demo-logs', 'demo-events', 'demo-git', 'demo-docs'] });
  const sources = (await runtime.sources()).map((source) => source.name);
  console.log(JSON.stringify({ sources, ingested: ingested.sources.map((source) => source.source), status: result.status, answer: result.answer, citations: result.citations }));
} finally {
  await runtime.close();
}
`;

const TYPED = `
import { ContextRuntime, ContextRuntimeError, type RunResult } from 'context-runtime';
import { ContextRuntimeApiError, ContextRuntimeClient, type GoalContext, type RunStreamEvent } from 'context-runtime/client';

export async function embedded(): Promise<string | undefined> {
  const runtime: ContextRuntime = await ContextRuntime.fromConfig('context-runtime.yaml');
  const result: RunResult = await runtime.run({ goal: 'Explain why deployment checkout-api failed' });
  await runtime.close();
  return result.citations[0]?.sourceName;
}

export function fieldOf(error: unknown): string | undefined {
  return error instanceof ContextRuntimeError ? error.field : undefined;
}

export async function remote(): Promise<number> {
  const client = new ContextRuntimeClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.CONTEXT_RUNTIME_API_KEY ?? '' });
  try {
    const context: GoalContext = await client.buildContext({ goal: 'Explain why deployment checkout-api failed', tokenBudget: 1500 });
    for await (const event of client.events((await client.submit({ goal: 'x' })).runId)) {
      const typed: RunStreamEvent = event;
      if (typed.type === 'result') return typed.result.citations.length;
    }
    // @ts-expect-error the shipped types are real, not \`any\`: a misspelt field is refused
    await client.run({ gaol: 'x' });
    return context.passages.length;
  } catch (error) {
    if (error instanceof ContextRuntimeApiError) return error.status;
    throw error;
  }
}
`;

const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['typed.ts'] };

beforeAll(async () => {
  workspace = mkdtempSync(path.join(tmpdir(), 'context-runtime-package-'));
  // `npm pack` runs prepack, which builds dist/ (scripts/build-package.mjs).
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', workspace], { cwd: repository, maxBuffer: 64 * 1024 * 1024 });
  // prepack's own output comes first on stdout; npm's JSON report is the array after it.
  const [packed] = JSON.parse(stdout.slice(stdout.search(/^\[\s*$/m))) as { filename: string }[];
  consumer = path.join(workspace, 'consumer');
  mkdirSync(consumer);
  writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  await installInto(consumer, path.join(workspace, packed.filename));
  writeFileSync(path.join(consumer, 'index.mjs'), SCRIPT);
  writeFileSync(path.join(consumer, 'typed.ts'), TYPED);
  writeFileSync(path.join(consumer, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  const tsc = path.join(repository, 'node_modules', 'typescript', 'bin', 'tsc');
  typeCheck = run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer }).then(
    () => 'clean',
    (error: { stdout?: string }) => error.stdout || String(error),
  );
}, 600_000);

afterAll(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

describe('context-runtime as an installed package', () => {
  it('ships built JavaScript, declarations, migrations and the demo, and no TypeScript source', () => {
    const installed = path.join(consumer, 'node_modules', 'context-runtime');
    for (const file of ['dist/index.js', 'dist/client.js', 'dist/cli.js', 'dist/types/server/index.d.ts', 'dist/types/server/client/index.d.ts', 'drizzle/meta/_journal.json', 'examples/demo-incident/git-history.json']) {
      expect(existsSync(path.join(installed, file)), file).toBe(true);
    }
    expect(existsSync(path.join(installed, 'server'))).toBe(false);
    expect(existsSync(path.join(installed, 'node_modules'))).toBe(false);
  });

  it("runs the package's CLI from its build (bin/ without the sources falls to dist/cli.js, no tsx)", async () => {
    const { stdout } = await run(process.execPath, [path.join('node_modules', 'context-runtime', 'bin', 'context-runtime.mjs'), '--help'], { cwd: consumer, env: cleanEnvironment() });
    expect(stdout).toMatch(/^Usage: context-runtime <command>/);
  });

  it('runs a goal from plain node: the demo loaded at first open, a folder ingested, an answer with citations', async () => {
    const { stdout } = await run(process.execPath, ['index.mjs'], { cwd: consumer, env: cleanEnvironment(), maxBuffer: 64 * 1024 * 1024 });
    const outcome = JSON.parse(stdout.trim().split('\n').at(-1)!) as { sources: string[]; ingested: string[]; status: string; answer: string; citations: { sourceName: string }[] };
    expect(outcome.sources).toEqual(expect.arrayContaining(['demo-docs', 'demo-logs', 'demo-events', 'demo-metrics', 'demo-git', 'team-notes']));
    expect(outcome.ingested).toEqual(['team-notes']);
    expect(outcome.status).toBe('completed');
    expect(outcome.answer).toMatch(/\[\d+\]/);
    expect(outcome.citations.length).toBeGreaterThan(0);
    expect(outcome.citations.every((citation) => citation.sourceName.startsWith('demo-'))).toBe(true);
    // The embedded database lives in the consumer project, not in the package or the repository.
    expect(existsSync(path.join(consumer, '.data', 'pglite'))).toBe(true);
    // Minutes only under load: 84 s wall (18 s CPU) with seven other jobs on two cores.
  }, 300_000);

  it('type-checks a consumer against the shipped declarations (nodenext), the client included', async () => {
    expect(await typeCheck).toBe('clean');
  }, 300_000);
});
