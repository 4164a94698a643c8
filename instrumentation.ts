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
  // Owns the data directory, then opens the runtime and starts sign-in; refused, it answers 503
  // and touches nothing until the directory's holder goes away (server/services/server-startup.ts).
  const { startServer } = await import('./server/services/server-startup');
  await startServer();
}
