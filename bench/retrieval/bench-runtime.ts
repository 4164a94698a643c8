/**
 * Opens a ContextRuntime over the benchmark database through server/bootstrap's factory, as
 * server/testing/runtime-fixture.ts does, and keeps the plugins it wired so the bench can call
 * each retriever directly and execute a plan's retrieval nodes.
 *
 * Bootstrap registers the derived retrievers (hybrid, rerank, rm3); should a wiring leave one out
 * (a custom factory), it is added here from the registered bm25 and dense plugins, so every method
 * can be measured and the planner can choose it. The bench prints what it added.
 */
import type { Database } from '../../db/client';
import { ContextRuntime, runtimeFactoryFor } from '../../server/bootstrap';
import { serverEnvWith } from '../../server/config/env';
import { derivedRetrievers } from '../../server/adapters/retrievers/derived-retrievers';
import type { RetrieverPlugin } from '../../server/runtime/contracts/retriever';
import { registeredRuntimeFactory, registerRuntimeFactory } from '../../server/runtime/facade/runtime-factory';
import type { RuntimePlugins } from '../../server/runtime/facade/runtime-plugins';

export interface BenchRuntime {
  readonly runtime: ContextRuntime;
  readonly plugins: RuntimePlugins;
  /** Methods this module added because bootstrap did not register them. */
  readonly added: readonly string[];
  retriever(method: string): RetrieverPlugin | undefined;
  close(): Promise<void>;
}

export function databaseOf(plugins: RuntimePlugins): Database | undefined {
  // PgStore keeps its handle private; the runtime fixture reads it the same way.
  return (plugins.store as unknown as { database?: Database }).database;
}

function missingRetrievers(plugins: RuntimePlugins): RetrieverPlugin[] {
  const database = databaseOf(plugins);
  return database ? derivedRetrievers(database, plugins.retrievers) : [];
}

/** `wire` may replace plugins the runtime reads per request (bench:answers swaps the registered reasoners). */
export async function openBenchRuntime(configPath: string, wire: (plugins: RuntimePlugins) => RuntimePlugins = (plugins) => plugins): Promise<BenchRuntime> {
  const factory = registeredRuntimeFactory();
  if (!factory) throw new Error('server/bootstrap did not register a runtime factory');
  // Env beats config in bootstrap; a stray override would open another directory or server.
  const benchFactory = runtimeFactoryFor(serverEnvWith({ CONTEXT_RUNTIME_DATA_DIR: undefined, DATABASE_URL: undefined }));
  let captured: { plugins: RuntimePlugins; added: string[] } | undefined;
  registerRuntimeFactory(async (config, options) => {
    const plugins = await benchFactory(config, options);
    const extra = missingRetrievers(plugins);
    const wired: RuntimePlugins = wire({ ...plugins, retrievers: [...plugins.retrievers, ...extra] });
    captured = { plugins: wired, added: extra.map((retriever) => retriever.method) };
    return wired;
  });
  try {
    const runtime = await ContextRuntime.fromConfig(configPath);
    if (!captured) throw new Error('the runtime factory wrapper did not see the plugins');
    const { plugins, added } = captured;
    return Object.freeze({
      runtime,
      plugins,
      added: Object.freeze(added),
      retriever: (method: string) => plugins.retrievers.find((retriever) => retriever.method === method),
      close: () => runtime.close(),
    });
  } finally {
    registerRuntimeFactory(factory);
  }
}
