/**
 * Why this server process serves nothing: another process holds its data directory (issue 13,
 * point 4). Set while the server is refused the lock, cleared once it takes it. Kept on globalThis
 * (each Next.js route bundle and proxy.ts load their own copy of this module) and free of imports,
 * so proxy.ts can ask it before any page renders.
 */
const REFUSAL_KEY = Symbol.for('context-runtime.data-dir-refusal');
type RefusalHolder = { [REFUSAL_KEY]?: string };

export function setDataDirRefusal(reason: string | undefined): void {
  if (reason === undefined) delete (globalThis as RefusalHolder)[REFUSAL_KEY];
  else (globalThis as RefusalHolder)[REFUSAL_KEY] = reason;
}

/** The reason this process may not serve, or undefined when it owns its data directory (or has not tried yet). */
export function dataDirRefusal(): string | undefined {
  return (globalThis as RefusalHolder)[REFUSAL_KEY];
}
