/**
 * How `ContextRuntime.fromConfig` gets its plugins without the runtime importing a database
 * driver or a provider SDK: the host (server/bootstrap.ts) registers a factory at import time.
 */
import type { RuntimeConfig } from '../config/config-schema';
import type { RuntimePlugins } from './runtime-plugins';

export interface RuntimeFactoryOptions {
  /** Port of the HTTP server that owns the embedded data directory (written into its lock). */
  readonly port?: number;
  /** Claim and resume runs a gone process left running, in the background once open (the server does; a one-shot CLI does not). */
  readonly recoverRuns?: boolean;
}

export type RuntimeFactory = (config: RuntimeConfig, options: RuntimeFactoryOptions) => Promise<RuntimePlugins>;

let registered: RuntimeFactory | undefined;

export function registerRuntimeFactory(factory: RuntimeFactory): void {
  registered = factory;
}

export function registeredRuntimeFactory(): RuntimeFactory | undefined {
  return registered;
}
