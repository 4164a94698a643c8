/**
 * Generated inputs for bench:ingest-load: a wide folder of small Markdown and log files, and a git
 * repository with a long history. Deterministic (a seeded generator), so two runs ingest the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WORDS = 'checkout api pod memory limit restart deploy rollback latency error retry queue payment timeout node cluster replica cache database index'.split(' ');

/** Park–Miller: enough randomness for text, identical on every machine. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
}

function sentence(random: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

/** `files` files under 100 folders; every fifth one a log, the rest Markdown of ~0.3–2.5 KB. */
export function writeFileTree(root: string, files: number): number {
  const random = seeded(13);
  let bytes = 0;
  for (let index = 0; index < files; index += 1) {
    const folder = join(root, `team-${String(index % 100).padStart(3, '0')}`);
    if (index < 100) mkdirSync(folder, { recursive: true });
    const log = index % 5 === 0;
    const text = log
      ? Array.from({ length: 4 + Math.floor(random() * 20) }, (_, line) => `2026-11-30T10:${String(line % 60).padStart(2, '0')}:00Z ERROR ${sentence(random, 8)}`).join('\n') + '\n'
      : `# Note ${index}\n\n${Array.from({ length: 1 + Math.floor(random() * 6) }, () => sentence(random, 40 + Math.floor(random() * 30))).join('\n\n')}\n`;
    writeFileSync(join(folder, `${log ? 'service' : 'note'}-${index}.${log ? 'log' : 'md'}`), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

/**
 * A repository of `commits` commits built with one `git fast-import` stream (spawning git per
 * commit would take minutes): each commit edits one of 50 files, every 100th adds a 3 MB file.
 */
export function writeGitRepository(root: string, commits: number): void {
  mkdirSync(root, { recursive: true });
  const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: root, input, maxBuffer: 1024 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
  git(['init', '--quiet', '--initial-branch=main']);
  const random = seeded(7);
  const parts: string[] = [];
  for (let index = 1; index <= commits; index += 1) {
    const time = 1_764_000_000 + index * 600;
    const content = `${sentence(random, 30)}\nlimit: ${index}Mi\n`;
    const big = index % 100 === 0 ? `${sentence(random, 12)}\n`.repeat(40_000) : undefined;
    const message = `deploy ${index}: ${sentence(random, 6)}\n`;
    parts.push(`commit refs/heads/main\ncommitter Bench <bench@example.com> ${time} +0000\ndata ${Buffer.byteLength(message)}\n${message}`);
    parts.push(`M 100644 inline config/service-${index % 50}.yaml\ndata ${Buffer.byteLength(content)}\n${content}\n`);
    if (big) parts.push(`M 100644 inline vendor/dump-${index}.txt\ndata ${Buffer.byteLength(big)}\n${big}\n`);
  }
  git(['fast-import', '--quiet'], parts.join(''));
  git(['checkout', '--quiet', 'main']);
}
