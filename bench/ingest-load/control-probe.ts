/**
 * The control beside bench:ingest-load's signed-in user: the same password check (scrypt N=2^15,
 * what a sign-in spends most of its time on) every probe interval in a separate process that runs no
 * ingest and opens no database. On a shared machine a sign-in's time is mostly the machine's: at
 * load 27 on 2 cores one check alone took p50 1,159 ms. Sign-in during the ingest minus the control
 * at the same moments is what the ingest itself costs the user.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { hashPassword, verifyPassword } from '../../server/auth/password-hasher';

const PASSWORD = 'correct horse battery staple';

/** Starts the control process; the returned function stops it and hands back each check's milliseconds. */
export function startControlProbe(probeMs: number): () => Promise<number[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), String(probeMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return async () => {
    // Closing its stdin is the stop: it finishes the check in hand and exits.
    child.stdin.end();
    await exited;
    return output.split('\n').filter((line) => line.trim() !== '').map(Number);
  };
}

/** The child: checks the password every probeMs (timed from when it was due, as the user's probes are) until stdin closes. */
async function controlChild(probeMs: number): Promise<void> {
  let stopped = false;
  process.stdin.on('end', () => (stopped = true)).resume();
  const stored = await hashPassword(PASSWORD);
  let due = performance.now() + probeMs;
  while (!stopped) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    await verifyPassword(PASSWORD, stored);
    const done = performance.now();
    process.stdout.write(`${(done - due).toFixed(1)}\n`);
    due = Math.max(due + probeMs, done);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await controlChild(Number(process.argv[2]));
