/**
 * Entry point for applications embedding the runtime: the facade with the in-tree plugins
 * registered (Postgres, AI SDK model tiers, ingestion).
 */
export { ContextRuntime, openRuntime } from './bootstrap';
export type * from './runtime';
