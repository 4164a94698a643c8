/**
 * Entry point for applications embedding the runtime: the facade with the in-tree plugins
 * registered (Postgres, AI SDK model tiers, ingestion). The package's `context-runtime` export.
 */
export { ContextRuntime, openRuntime } from './bootstrap';
// A value too, so a caller can tell the runtime's own errors (code, field) from others by instanceof.
export { ContextRuntimeError } from './runtime';
export type * from './runtime';
