import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, resolve } from 'node:path';
import { z } from 'zod';
import { invalidInput } from '../runtime/errors';
import { runGit } from './git-command';
import { packageFolder } from '../config/package-files';

/**
 * Builds a real git repository from examples/demo-incident/git-history.json. A nested .git cannot be
 * committed to this repository, so the history is data and the repository is rebuilt on demand.
 * Commit SHAs hash the tree, parents, author, committer, dates and message; fixing all of them
 * (and isolating the user's git config, hooks and signing) makes the SHAs identical on every machine.
 */

const personSchema = z.object({ name: z.string().min(1), email: z.string().min(3) });
const historySchema = z.object({
  repository: z.string().min(1),
  branch: z.string().min(1).default('main'),
  commits: z
    .array(
      z.object({
        message: z.string().min(1),
        author: personSchema,
        committer: personSchema.optional(),
        date: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/, 'ISO 8601 with an offset'),
        files: z.array(z.object({ path: z.string().min(1), content: z.string() })).default([]),
        deletedFiles: z.array(z.string().min(1)).default([]),
      }),
    )
    .min(1),
});

export type DemoGitHistory = z.infer<typeof historySchema>;

export interface MaterializedRepository {
  readonly path: string;
  readonly head: string;
  readonly commits: readonly { readonly sha: string; readonly subject: string }[];
}

/** Written inside .git so a later run knows the folder is ours to rebuild. */
const MARKER_FILE = 'demo-incident-materialized';

/** The demo folder the package ships (examples/demo-incident), found from this module (package-files.ts). */
export function resolveDemoDirectory(): string {
  const demo = join('examples', 'demo-incident');
  const found = packageFolder(import.meta.url, demo, join(demo, 'git-history.json'));
  if (!found) throw invalidInput('demoDirectory', `examples/demo-incident not found in this package (nor in ${process.cwd()})`);
  return found;
}

export async function readDemoGitHistory(historyPath: string): Promise<DemoGitHistory> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(historyPath, 'utf8'));
  } catch (error) {
    throw invalidInput(historyPath, `cannot read the git history: ${(error as Error).message}`);
  }
  const parsed = historySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidInput(`${historyPath}:${issue.path.join('.')}`, issue.message);
  }
  for (const commit of parsed.data.commits) for (const file of [...commit.files.map((entry) => entry.path), ...commit.deletedFiles]) assertInsideRepository(file);
  return parsed.data;
}

function assertInsideRepository(path: string): void {
  const normalized = normalize(path);
  if (isAbsolute(path) || normalized.startsWith('..') || normalized.split(/[\\/]/)[0] === '.git') {
    throw invalidInput('files.path', `"${path}" must be a relative path inside the repository`);
  }
}

/** "2025-06-02T16:41:00+02:00" → "1748875260 +0200", git's raw date format (no locale parsing). */
export function toGitDate(isoDate: string): string {
  const epochSeconds = Math.floor(Date.parse(isoDate) / 1000);
  const offset = isoDate.endsWith('Z') ? '+0000' : isoDate.slice(-6).replace(':', '');
  return `${epochSeconds} ${offset}`;
}

async function prepareTarget(targetDir: string): Promise<void> {
  if (!existsSync(targetDir)) return void (await mkdir(targetDir, { recursive: true }));
  const entries = await readdir(targetDir);
  if (entries.length === 0) return;
  if (!existsSync(join(targetDir, '.git', MARKER_FILE))) {
    throw invalidInput('targetDir', `${targetDir} exists, is not empty and was not made by materializeDemoGitRepo; refusing to overwrite it`);
  }
  await rm(targetDir, { recursive: true, force: true });
  await mkdir(targetDir, { recursive: true });
}

// Isolation from the machine: no global/system config (commit templates, hooks, signing, autocrlf).
const ISOLATED_CONFIG = ['-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', '-c', 'core.hooksPath=/dev/null', '-c', 'init.defaultBranch=main'];

export async function materializeDemoGitRepo(
  targetDir: string,
  options: { readonly historyPath?: string } = {},
): Promise<MaterializedRepository> {
  const history = await readDemoGitHistory(options.historyPath ?? join(resolveDemoDirectory(), 'git-history.json'));
  const path = resolve(targetDir);
  await prepareTarget(path);
  const baseEnv = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const git = (args: readonly string[], env: Record<string, string> = {}) => runGit([...ISOLATED_CONFIG, ...args], { cwd: path, env: { ...baseEnv, ...env } });

  await git(['init', '--quiet', `--initial-branch=${history.branch}`]);
  const commits: { sha: string; subject: string }[] = [];
  for (const commit of history.commits) {
    for (const file of commit.files) {
      const filePath = join(path, file.path);
      await mkdir(dirname(filePath), { recursive: true });
      await writeFile(filePath, file.content, { mode: 0o644 });
    }
    for (const deleted of commit.deletedFiles) await rm(join(path, deleted), { force: true });
    await git(['add', '--all']);
    const committer = commit.committer ?? commit.author;
    const date = toGitDate(commit.date);
    await git(['commit', '--quiet', '--no-verify', '--allow-empty', '--cleanup=whitespace', '-m', commit.message], {
      GIT_AUTHOR_NAME: commit.author.name,
      GIT_AUTHOR_EMAIL: commit.author.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
      GIT_COMMITTER_DATE: date,
    });
    const sha = (await git(['rev-parse', 'HEAD'])).trim();
    commits.push(Object.freeze({ sha, subject: commit.message.split('\n')[0] }));
  }
  const head = commits[commits.length - 1].sha;
  await writeFile(join(path, '.git', MARKER_FILE), `${head}\n`);
  return Object.freeze({ path, head, commits: Object.freeze(commits) });
}
