/**
 * `npm start`: builds only when `.next` is missing or older than the sources (see
 * build-fingerprint.mjs), then serves with `next start`. Arguments pass through (`npm start -- -p 4000`);
 * PORT and the CONTEXT_RUNTIME_* variables reach the server through the environment.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildAndRecord, projectRoot, sourceFingerprint, staleReason } from './build-fingerprint.mjs';
import { withYoungGeneration } from './young-generation.mjs';

const reason = staleReason(sourceFingerprint());
if (reason) {
  console.log(`[start] building first: ${reason}`);
  const code = buildAndRecord();
  if (code !== 0) {
    console.error('[start] the build failed (above); not starting the server');
    process.exit(code);
  }
} else {
  console.log('[start] the build is up to date with the sources; starting it');
}

const nextBin = path.join(projectRoot, 'node_modules', 'next', 'dist', 'bin', 'next');
// The server plans requests: it runs with the larger young generation (young-generation.mjs says why).
const server = spawn(process.execPath, [nextBin, 'start', ...process.argv.slice(2)], { cwd: projectRoot, stdio: 'inherit', env: withYoungGeneration(process.env) });
// Ctrl-C / a supervisor's SIGTERM reach the server, which releases its data-directory lock on exit.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
