/**
 * Wires the in-tree plugins behind the runtime's contracts: Postgres (PGlite or a server) for
 * store, knowledge, traces, runs, plan cache and calibration; AI SDK model tiers; the planner
 * stages; ingestion. Importing this module registers the factory `ContextRuntime.fromConfig` uses.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { openStores } from './adapters/db/open-stores';
import { resolveObservability } from './adapters/observability/observability-settings';
import { createSpanEmitter } from './adapters/observability/otel-exporters';
import { OtelTraceSink } from './adapters/observability/otel-trace-sink';
import { PgBanditStore } from './adapters/db/pg-bandit-store';
import { PgModelCacheStore } from './adapters/db/pg-model-cache-store';
import { registerAuthDatabase, unregisterAuthDatabase } from './auth/auth-database-holder';
import { resolveEmbedder } from './adapters/embeddings/embedder-factory';
import { PgTierAdmissions } from './adapters/db/pg-tier-admissions';
import { createModelPlugin } from './adapters/models/ai-sdk-model';
import { guardSensitiveContent } from './adapters/models/sensitive-model-guard';
import { guardSensitiveEmbedder } from './adapters/embeddings/sensitive-embedder-guard';
import type { EmbedPendingReport } from './adapters/embeddings/embed-pending';
import { preloadTokenEncoder, createTokenCounter } from './adapters/models/token-counter';
import { createTieredRouter } from './adapters/models/tiered-router';
import { setupOpenIe } from './adapters/graph/openie-setup';
import { createLlmReranker, createLlmRerankRetriever } from './adapters/retrievers/llm-rerank-setup';
import { createLinearReranker, derivedRetrievers } from './adapters/retrievers/derived-retrievers';
import type { LinearReranker } from './adapters/retrievers/linear-reranker';
import type { LlmRerankOptions } from './adapters/retrievers/llm-rerank-retriever';
import { loadDemoCorpus } from './ingest/demo-corpus';
import { ingestPath, writePlannedIngest } from './ingest/ingest-path';
import { confineIngestPath } from './ingest/ingest-root-guard';
import { ingestLimitsOf } from './ingest/ingest-limits';
import { PgRetention } from './adapters/db/pg-retention';
import { planUpload } from './ingest/ingest-upload';
import type { IngestReport } from './runtime/contracts/store';
import { ContextRuntime, DEFAULT_CONFIG_PATH, registerRuntimeFactory, type RuntimeConfig, type RuntimePlugins } from './runtime';
import { BUILTIN_COMPRESSIONS } from './runtime/compression/structural-compressors';
import { ruleCandidateGenerator, ruleIntentAnalyzer, heuristicCostModel, planOptimizer } from './runtime/planner';
import type { RetrieverPlugin } from './runtime/contracts/retriever';
import { createConfigPolicy } from './runtime/policy/config-policy';
import { createSingleShotReasoner } from './runtime/reasoner/single-shot-reasoner';
import { createDecompositionReasoner } from './runtime/reasoner/decomposition-reasoner';
import { createToolLoopReasoner } from './runtime/reasoner/tool-loop-reasoner';
import { createPlanWorkerCriticReasoner } from './runtime/reasoner/plan-worker-critic-reasoner';
import { createDebateReasoner } from './runtime/reasoner/debate-reasoner';
import type { ReasonerPlugin } from './runtime/contracts/reasoner';
import type { TierInfo } from './runtime/contracts/router';
import { WaveScheduler } from './runtime/scheduler/wave-scheduler';
import { GraphileScheduler } from './adapters/jobs/graphile-scheduler';
import type { SchedulerPlugin } from './runtime/contracts/scheduler';
import { ContextRuntimeError } from './runtime/errors';
import { BUILTIN_VERIFIERS } from './runtime/verification/citation-verifiers';
import { acquireDataDirLock } from './services/data-dir-lock';
import { serverEnv, type ServerEnv } from './config/env';
import type { RuntimeFactory } from './runtime/facade/runtime-factory';

/** The registered retrievers plus the ones derived from them (hybrid, rerank over the `linear` reranker, rm3). */
function withDerived(database: Parameters<typeof derivedRetrievers>[0], retrievers: readonly RetrieverPlugin[], retrieval: RuntimeConfig['retrieval'], linear: LinearReranker | undefined): RetrieverPlugin[] {
  const { hybrid, rm3 } = retrieval;
  // Only the keys an operator set; the rest keep hybrid-retriever.ts's and rm3-retriever.ts's measured defaults.
  const options = {
    ...(hybrid.rrf_k !== undefined ? { rrfK: hybrid.rrf_k } : {}),
    ...(hybrid.bm25_weight !== undefined ? { lexicalWeight: hybrid.bm25_weight } : {}),
    ...(hybrid.dense_weight !== undefined ? { semanticWeight: hybrid.dense_weight } : {}),
    ...(hybrid.depth !== undefined ? { depth: hybrid.depth } : {}),
  };
  const rm3Options = {
    ...(rm3.feedback_documents !== undefined ? { documents: rm3.feedback_documents } : {}),
    ...(rm3.expansion_terms !== undefined ? { terms: rm3.expansion_terms } : {}),
    ...(rm3.original_weight !== undefined ? { originalWeight: rm3.original_weight } : {}),
  };
  return [...retrievers, ...derivedRetrievers(database, retrievers, { hybrid: options, rm3: rm3Options, ...(linear ? { linear } : {}) })];
}

/** Where the embedded database lives: env beats config, so tests and e2e can point elsewhere. */
export function embeddedDataDir(config: RuntimeConfig, env: ServerEnv = serverEnv()): string {
  return resolve(env.dataDir ?? config.database.data_dir);
}

export function databaseUrl(config: RuntimeConfig, env: ServerEnv = serverEnv()): string | undefined {
  return env.databaseUrl || config.database.url || undefined;
}

/** Passages a non-local embedder was not given (policy.sensitive_content: local_only) are said so in the log, with why. */
function noteWithheld(report: EmbedPendingReport): void {
  if (report.withheldReason) console.warn(`embeddings: ${report.withheldReason}`);
}

/**
 * The reasoners: single shot and decomposition always; the mixtures (plan_worker_critic, debate) only
 * when an available tier other than the extractive reader is configured, since only such a model can split a
 * question, critique or judge. With none, the planner's choices and EXPLAIN are what they were.
 * (The planner also cuts a mixture on the extractive tier when both kinds are configured.)
 */
export function reasonersFor(tiers: readonly Pick<TierInfo, 'available' | 'capabilities'>[], sizes: { readonly debateSolvers?: number; readonly workers?: number } = {}): ReasonerPlugin[] {
  // tool_loop is registered always: the planner offers it only on a tier with tools: true (capability.tool_calls).
  const base = [createSingleShotReasoner(), createDecompositionReasoner(), createToolLoopReasoner()];
  // An unavailable tier (a hosted provider without its API key) cannot run one either.
  return tiers.some((tier) => tier.available && tier.capabilities.provider !== 'extractive') ? [...base, createPlanWorkerCriticReasoner(sizes.workers), createDebateReasoner(sizes.debateSolvers)] : base;
}

/** The plugin factory over one parsed environment: the server's, or a fixture's own. */
export function runtimeFactoryFor(env: ServerEnv): RuntimeFactory {
  return (config, options) => createPlugins(config, options, env);
}

async function createPlugins(config: RuntimeConfig, options: { port?: number }, env: ServerEnv): Promise<RuntimePlugins> {
  const url = databaseUrl(config, env);
  if (config.execution.engine === 'graphile_worker' && !url) {
    throw new ContextRuntimeError('INVALID_CONFIG', 'execution.engine graphile_worker runs jobs on a PostgreSQL server: set DATABASE_URL (or database.url), or use execution.engine: in_process with the embedded database', { field: 'execution.engine' });
  }
  const dataDir = url ? undefined : embeddedDataDir(config, env);
  // Resolved before anything opens: a Langfuse section without its keys stops the start, named.
  const emitter = createSpanEmitter(resolveObservability(config.observability, env));
  // Take the lock before opening: a second PGlite on the same directory corrupts it.
  const lock = dataDir ? acquireDataDirLock(dataDir, { port: options.port }) : undefined;
  let opened: Awaited<ReturnType<typeof openStores>> | undefined;
  try {
    preloadTokenEncoder();
    const countTokens = createTokenCounter();
    const embedder = resolveEmbedder(config.embeddings, env.variables, { wordVectorCache: env.embeddingsCache });
    const stores = (opened = await openStores({
      ...(url ? { url, ...(env.migrationDatabaseUrl ? { migrationUrl: env.migrationDatabaseUrl } : {}) } : { dataDir }),
      statementDeadlineMs: config.database.statement_deadline_ms,
      planCacheTtlSeconds: config.plan_cache.ttl_seconds,
      commitBatchChunks: config.ingest.commit_batch_chunks,
      dense: embedder.available ? { embedder: guardSensitiveEmbedder(embedder.embedder), sensitiveContent: config.policy.sensitive_content } : { embedderUnavailableReason: embedder.unavailableReason },
    }));
    // Accounts live in the same database: embedded PGlite admits one opener per directory.
    registerAuthDatabase(stores.database);
    // On a PostgreSQL server every process of the deployment (servers, workers) shares the tiers' limits.
    const tierAdmissions = url ? new PgTierAdmissions(stores.database) : undefined;
    // Every model call of every plugin (reasoner, reranker, OpenIE) passes the guard: personal data
    // and secrets never reach a non-local tier, whatever a plugin forgot to hold back.
    const models = config.models.tiers.map((tier) => guardSensitiveContent(createModelPlugin(tier, env.variables, emitter, tierAdmissions), config.policy.sensitive_content));
    const router = createTieredRouter(models);
    // Start-up work over the whole corpus: nobody is served yet, and its statements may take long.
    await stores.database.withoutDeadline(async () => {
      if (config.demo.load_on_start && (await stores.store.listSources()).length === 0) {
        await loadDemoCorpus(stores.store, { countTokens, workDir: resolve(dataDir ? dirname(dataDir) : '.data', 'demo-work') });
      }
      // Embeds whatever was ingested while no embedder ran (the demo: ~0.5 s; the first start ever
      // also converts the word vectors into their binary cache, ~6–8 s).
      noteWithheld(await stores.embedChunks());
      await stores.indexDerived({ startUp: true });
      // The first queries after a start would otherwise each read the rows they have not seen yet.
      await stores.warmCaches();
    });
    // HippoRAG OpenIE links at each ingest when a language-model tier is reachable (else rule-based
    // entities only). Not at start-up: it spends model calls, which an ingest is the moment to ask for.
    const openIe = setupOpenIe(stores.database, models, { sensitiveSources: config.policy.sensitive_sources, sensitiveContent: config.policy.sensitive_content, ...(env.openIeMaxPassages !== undefined ? { maxPassagesPerRun: env.openIeMaxPassages } : {}) });
    /** Derived indexes follow every ingest, path or upload, before the report goes back. */
    // `signal`: the ingest was cancelled or ran past its time; the embedding and OpenIE calls in
    // flight are aborted, and what they had not done is left pending for the next ingest or start.
    const afterIngest = async (report: IngestReport, signal?: AbortSignal): Promise<IngestReport> => {
      noteWithheld(await stores.embedChunks({ live: true, ...(signal ? { signal } : {}) }));
      await stores.indexDerived();
      // The ingest itself is stored; OpenIE trouble (beyond a passage, which is skipped inside) is reported, not thrown.
      await openIe?.indexPending(signal ? { signal } : {}).catch((error: unknown) => console.warn(`openie: ${error instanceof Error ? error.message : String(error)}`));
      signal?.throwIfAborted();
      return report;
    };
    // Registered only when a language-model tier is configured; a failing model falls back to bm25's order.
    // One instance each serves as the Reranker plugin (`rerank` nodes) and inside its composite retriever.
    const llmRerankOptions: Partial<LlmRerankOptions> = {
      sensitiveSources: config.policy.sensitive_sources,
      sensitiveContent: config.policy.sensitive_content,
      onOutcome: (outcome) => {
        if (outcome.failures.length > 0) console.warn(`llm-rerank ${outcome.status}: ${outcome.failures.join('; ')}`);
      },
    };
    const llmReranker = createLlmReranker(models, llmRerankOptions);
    const llmRerank = createLlmRerankRetriever(stores.retrievers.find((retriever) => retriever.capabilities().available) ?? stores.retrievers[0], models, llmRerankOptions, llmReranker);
    const firstStages = [...stores.retrievers, stores.dense, stores.graph, stores.exact];
    const linearReranker = createLinearReranker(stores.database, firstStages);
    const jobs = config.execution.engine === 'graphile_worker' && url ? new GraphileScheduler(url, env.migrationDatabaseUrl ?? url) : undefined;
    await jobs?.migrate();
    const scheduler: SchedulerPlugin = jobs ?? new WaveScheduler();
    return {
      store: stores.store,
      storeCapabilities: stores.capabilities,
      knowledge: stores.knowledge,
      retrievers: [...withDerived(stores.database, firstStages, config.retrieval, linearReranker), ...(llmRerank ? [llmRerank] : [])],
      rerankers: [linearReranker, llmReranker].filter((reranker) => reranker !== undefined),
      router,
      reasoners: reasonersFor(config.models.mixtures ? router.tiers() : [], { debateSolvers: config.models.debate_solvers, workers: config.models.mixture_workers }),
      compressions: BUILTIN_COMPRESSIONS,
      verifiers: BUILTIN_VERIFIERS,
      policy: createConfigPolicy({
        sourceRoles: config.policy.source_roles,
        sensitiveSources: config.policy.sensitive_sources,
        sensitiveContent: config.policy.sensitive_content,
        highRiskRequiresHuman: config.verification.high_risk_requires_human,
        verificationByDefault: config.verification.default,
      }),
      intentAnalyzer: ruleIntentAnalyzer,
      candidateGenerator: ruleCandidateGenerator,
      costModel: heuristicCostModel,
      optimizer: planOptimizer,
      scheduler,
      planCache: stores.planCache,
      runStore: stores.runStore,
      exclusiveRunStore: dataDir !== undefined,
      traceSink: emitter ? new OtelTraceSink(stores.traceSink, emitter) : stores.traceSink,
      observationStore: stores.observationStore,
      banditStore: new PgBanditStore(stores.database),
      modelCacheStore: new PgModelCacheStore(stores.database),
      retention: new PgRetention(stores.database),
      countTokens,
      // An ingest runs behind requests on the embedded database (issue 13: a 50,000-file ingest kept sign-in waiting up to 7.9 s).
      ingester: (path, ingestOptions) =>
        stores.database.runInBackground(async () => {
          const readable = ingestOptions.confined ? await confineIngestPath(path, config.ingest.allowed_roots) : path;
          const { signal } = ingestOptions;
          return afterIngest(await ingestPath(stores.store, readable, { sourceName: ingestOptions.source, countTokens, limits: ingestLimitsOf(config.ingest), onProgress: ingestOptions.onProgress, ...(signal ? { signal } : {}) }), signal);
        }),
      uploadIngester: (files, uploadOptions) =>
        stores.database.runInBackground(async () => {
          const plan = planUpload(files, { sourceName: uploadOptions.source, countTokens });
          await uploadOptions.beforeWrite(plan.sources.map((source) => source.name));
          const { signal } = uploadOptions;
          signal?.throwIfAborted();
          return afterIngest(await writePlannedIngest(stores.store, plan, signal ? { signal } : {}), signal);
        }),
      close: async () => {
        unregisterAuthDatabase(stores.database);
        await scheduler.close?.();
        // Sends the spans still batched (a CLI command exits right after), then stops the exporters.
        await emitter?.shutdown().catch((error: unknown) => console.warn(`[context-runtime] exporting traces: ${error instanceof Error ? error.message : String(error)}`));
        await stores.close();
        lock?.release();
      },
    };
  } catch (error) {
    // Close what this attempt opened before giving up the lock (issue 10): a database left open and
    // registered for sign-in kept taking writes while another process opened the same directory.
    if (opened) {
      unregisterAuthDatabase(opened.database);
      await opened.close().catch((closeError: unknown) => console.error(`[context-runtime] closing after a failed open: ${closeError instanceof Error ? closeError.message : String(closeError)}`));
    }
    lock?.release();
    await emitter?.shutdown().catch(() => undefined);
    throw error;
  }
}

// Parsed when the first runtime opens, not at import: importing must not throw for a bad variable
// the caller never uses (the CLI's --help), and the start path parses it first anyway.
registerRuntimeFactory((config, options) => createPlugins(config, options, serverEnv()));

/** The config the server and CLI use: CONTEXT_RUNTIME_CONFIG, else ./context-runtime.yaml when present, else defaults. */
export function defaultConfigPath(env: ServerEnv = serverEnv()): string | undefined {
  if (env.configPath) return env.configPath;
  return existsSync(resolve(DEFAULT_CONFIG_PATH)) ? resolve(DEFAULT_CONFIG_PATH) : undefined;
}

export async function openRuntime(options: { readonly configPath?: string; readonly port?: number; readonly recoverRuns?: boolean } = {}): Promise<ContextRuntime> {
  return ContextRuntime.fromConfig(options.configPath ?? defaultConfigPath(), { port: options.port, recoverRuns: options.recoverRuns });
}

export { ContextRuntime };
