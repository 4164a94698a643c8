/**
 * The server start's first step (instrumentation.ts): parse the environment, and on a bad value
 * exit with each offending variable named. Exit rather than throw: Next.js would print a stack
 * trace and keep serving pages that all fail. In its own module because the edge bundle of
 * instrumentation.ts must not contain `process.exit`.
 */
import { serverEnv } from './env';

export function exitOnInvalidEnv(): void {
  try {
    serverEnv();
  } catch (error) {
    console.error(`[context-runtime] ${error instanceof Error ? error.message : String(error)}`);
    console.error('[context-runtime] not starting: correct the variable(s) above and start again');
    process.exit(1);
  }
}
