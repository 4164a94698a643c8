/**
 * One runtime per process. The promise lives on globalThis because Next.js dev HMR re-evaluates
 * modules and each route handler bundle gets its own module graph; a module-level variable would
 * open a second PGlite on the same data directory, which the runtime refuses (DATA_DIR_LOCKED).
 */
import type { RuntimePort } from '../api/runtime-port';
import { openRuntime } from '../bootstrap';

const INSTANCE_KEY = Symbol.for('context-runtime.instance');

type RuntimeHolder = { [INSTANCE_KEY]?: Promise<RuntimePort> };

export function getRuntime(): Promise<RuntimePort> {
  const holder = globalThis as RuntimeHolder;
  const existing = holder[INSTANCE_KEY];
  if (existing) return existing;
  const opening: Promise<RuntimePort> = openRuntime({ port: Number(process.env.PORT ?? 3000) }).catch((error: unknown) => {
    // A failed open (e.g. a lock still held by a dying process) must not poison every later request.
    if (holder[INSTANCE_KEY] === opening) delete holder[INSTANCE_KEY];
    throw error;
  });
  holder[INSTANCE_KEY] = opening;
  return opening;
}
