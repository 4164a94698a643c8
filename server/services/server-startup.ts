/**
 * The server's start (instrumentation.ts): own the data directory, hand the CLI its token, open the
 * runtime, start sign-in. A server refused the directory (another live process holds its lock)
 * touches nothing — no token file, no database, no sign-in setup — answers 503 on every route
 * (data-dir-refusal.ts), and keeps asking for the lock: once its holder stops (or dies and the lock
 * goes stale), this server takes over by itself, with nothing deleted by hand (issue 13, point 4).
 */
import 'server-only';
import { ensureAuthStarted, startLocalSecretsIfOwner } from '../auth/auth-startup';
import { serverEnv } from '../config/env';
import { claimServerDataDir, getRuntime } from './runtime-instance';

/** Cheap (a stat and an mkdir), and well inside the 20 s a dead holder's lock takes to go stale. */
const CLAIM_RETRY_MS = 2_000;

export interface ServerStartOptions {
  readonly port?: number;
  readonly retryMs?: number;
  readonly log?: (line: string) => void;
  readonly warn?: (line: string) => void;
}

/**
 * 'serving' once this process owns the directory and has tried to open; 'refused' at once when it
 * does not (Next.js serves only after register() returns, and a refused server must answer 503).
 * `started` settles when the server serves, after a refusal too.
 */
export async function startServer(options: ServerStartOptions = {}): Promise<{ readonly outcome: 'serving' | 'refused'; readonly started: Promise<void> }> {
  const port = options.port ?? serverEnv().port;
  const log = options.log ?? ((line: string) => console.log(line));
  const warn = options.warn ?? ((line: string) => console.error(line));
  try {
    await claimServerDataDir(port);
  } catch (error) {
    warn(`[context-runtime] not serving (503 on every route): ${messageOf(error)}. Retrying every ${(options.retryMs ?? CLAIM_RETRY_MS) / 1000} s.`);
    const started = waitForClaim(port, options.retryMs ?? CLAIM_RETRY_MS).then(() => {
      log('[context-runtime] took the data directory over; starting');
      return serve(log, warn);
    });
    return { outcome: 'refused', started };
  }
  const started = serve(log, warn);
  await started;
  return { outcome: 'serving', started };
}

async function waitForClaim(port: number, retryMs: number): Promise<void> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, retryMs));
    try {
      await claimServerDataDir(port);
      return;
    } catch {
      // Still held: the refusal (and its 503 reason) was updated by the claim attempt.
    }
  }
}

async function serve(log: (line: string) => void, warn: (line: string) => void): Promise<void> {
  // The CLI's token before the (slow, first-start) open, so a CLI started meanwhile waits for this server.
  startLocalSecretsIfOwner();
  try {
    await getRuntime();
    log('[context-runtime] runtime ready');
  } catch (error) {
    // The page still serves and reports the problem; requests retry the open. This server still
    // owns its data directory (and holds its token), so the CLI comes here and hears why.
    warn(`[context-runtime] runtime failed to open: ${messageOf(error)}`);
    return;
  }
  // Sign-in: signing secret, the first admin (or a setup link); logs its own failure.
  await ensureAuthStarted();
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
