/**
 * Entry point of `context-runtime/client`: the typed client for a Context Runtime server's HTTP
 * API v1. Nothing here opens a database or loads a model; it only speaks HTTP.
 */
export { ContextRuntimeClient, type ContextRuntimeClientOptions } from './context-runtime-client';
export { ContextRuntimeApiError } from './api-error';
export type * from './client-types';
export type { ServerSentEvent } from './event-stream-reader';
