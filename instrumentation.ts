/**
 * Next.js start-up hook: open the runtime as the server starts, so migrations apply and the demo
 * corpus loads on first start rather than on the first request (and a broken config or a locked
 * data directory shows in the server log at once).
 */
export async function register(): Promise<void> {
  // The one `process.env` read outside server/config/env.ts: Next.js replaces NEXT_RUNTIME with a
  // constant per runtime at build time, and this literal test is what drops the Node-only imports
  // below from the edge bundle (a call into env.ts would keep them there).
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // The environment first: a bad variable stops the start here with every offending name, rather
  // than failing later inside whichever module reads it (issue 11.5).
  const { exitOnInvalidEnv } = await import('./server/config/env-startup');
  exitOnInvalidEnv();
  const { claimServerDataDir, getRuntime } = await import('./server/services/runtime-instance');
  const { startLocalSecretsIfOwner } = await import('./server/auth/auth-startup');
  // Own the data directory and hand the CLI its token before the (slow, first-start) open, so a
  // CLI started meanwhile waits for this server instead of being refused. A refusal here (another
  // live owner) is reported by getRuntime below.
  await claimServerDataDir().catch(() => undefined);
  startLocalSecretsIfOwner();
  try {
    await getRuntime();
    console.log('[context-runtime] runtime ready');
  } catch (error) {
    // The page still serves and reports the problem; requests retry the open.
    console.error(`[context-runtime] runtime failed to open: ${error instanceof Error ? error.message : String(error)}`);
    // This server still owns its data directory (and holds its token), so the CLI comes here and hears why.
    return;
  }
  // Sign-in: signing secret, the CLI's service token, and the first admin (or a setup link); logs its own failure.
  const { ensureAuthStarted } = await import('./server/auth/auth-startup');
  await ensureAuthStarted();
}
