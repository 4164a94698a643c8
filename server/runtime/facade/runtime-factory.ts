/**
 * How `ContextRuntime.fromConfig` gets its plugins without the runtime importing a database
 * driver or a provider SDK: the host (server/bootstrap.ts) registers a factory at import time.
 */
import type { RuntimeConfig } from '../config/config-schema';
import type { RuntimePlugins } from './runtime-plugins';

export interface RuntimeFactoryOptions {
  /** Port of the HTTP server that owns the embedded data directory (written into its lock). */
  readonly port?: number;
}

export type RuntimeFactory = (config: RuntimeConfig, options: RuntimeFactoryOptions) => Promise<RuntimePlugins>;

let registered: RuntimeFactory | undefined;

export function registerRuntimeFactory(factory: RuntimeFactory): void {
  registered = factory;
}

export function registeredRuntimeFactory(): RuntimeFactory | undefined {
  return registered;
}
