/**
 * Everything the facade runs on, all behind contracts. The adapters (database, AI SDK, ingestion)
 * are wired in `server/bootstrap.ts`; tests wire in-memory or loopback implementations.
 */
import type { CandidateGeneratorPlugin } from '../contracts/candidate-generator';
import type { CompressionPlugin } from '../contracts/compression';
import type { CostModelPlugin } from '../contracts/cost-model';
import type { IntentAnalyzerPlugin } from '../contracts/intent-analyzer';
import type { KnowledgePlugin } from '../contracts/knowledge';
import type { ObservationStorePlugin } from '../contracts/observation-store';
import type { OptimizerPlugin } from '../contracts/optimizer';
import type { PlanCachePlugin } from '../contracts/plan-cache';
import type { PolicyPlugin } from '../contracts/policy';
import type { ReasonerPlugin } from '../contracts/reasoner';
import type { RerankerPlugin } from '../contracts/reranker';
import type { RetrieverPlugin } from '../contracts/retriever';
import type { RouterPlugin } from '../contracts/router';
import type { RunStorePlugin } from '../contracts/run-store';
import type { SchedulerPlugin } from '../contracts/scheduler';
import type { IngestReport, StoreCapabilities, StorePlugin, UploadedFile } from '../contracts/store';
import type { TraceSinkPlugin } from '../contracts/trace-sink';
import type { VerifierPlugin } from '../contracts/verifier';
import type { BanditStorePort } from '../learning/bandit-store';
import type { RetentionPlugin } from '../contracts/retention';
import type { ModelCacheStorePlugin } from '../contracts/model-cache';
import type { ModelContextCache } from '../modelcache/model-context-cache';

/**
 * Ingests a file or folder into named sources (implemented outside the runtime: it reads files and
 * git). `confined`: a remote caller named the path, so it must lie below ingest.allowed_roots.
 * `signal` (the ingest cancelled or past its time) aborts the embedding and OpenIE calls in flight.
 */
export type Ingester = (
  path: string,
  options: { readonly source?: string; readonly confined?: boolean; readonly onProgress?: (done: number, total: number) => void; readonly signal?: AbortSignal },
) => Promise<IngestReport>;

/**
 * Ingests uploaded files into `source` (or "<source>-<kind>" per kind). `beforeWrite` receives the
 * planned source names before anything is written, and throws to refuse them.
 */
export type UploadIngester = (
  files: readonly UploadedFile[],
  options: { readonly source: string; readonly beforeWrite: (sourceNames: readonly string[]) => Promise<void>; readonly signal?: AbortSignal },
) => Promise<IngestReport>;

export interface RuntimePlugins {
  readonly store: StorePlugin;
  readonly storeCapabilities: StoreCapabilities;
  readonly knowledge: KnowledgePlugin;
  readonly retrievers: readonly RetrieverPlugin[];
  /** Second stages a `rerank` node names by method (the planner does not place them yet: edited plans do). */
  readonly rerankers?: readonly RerankerPlugin[];
  readonly router: RouterPlugin;
  readonly reasoners: readonly ReasonerPlugin[];
  readonly compressions: readonly CompressionPlugin[];
  readonly verifiers: readonly VerifierPlugin[];
  readonly policy: PolicyPlugin;
  readonly intentAnalyzer: IntentAnalyzerPlugin;
  readonly candidateGenerator: CandidateGeneratorPlugin;
  readonly costModel: CostModelPlugin;
  readonly optimizer: OptimizerPlugin;
  readonly scheduler: SchedulerPlugin;
  readonly planCache?: PlanCachePlugin;
  readonly runStore: RunStorePlugin;
  /** This process alone writes the run store (the embedded data directory, under its lock): a run another owner left running is orphaned. */
  readonly exclusiveRunStore?: boolean;
  readonly traceSink: TraceSinkPlugin;
  readonly observationStore: ObservationStorePlugin;
  /** Deletes runs, spans and observations past config.retention's ages (periodic sweep and `context-runtime retention apply`). */
  readonly retention?: RetentionPlugin;
  readonly countTokens: (text: string) => number;
  readonly ingester?: Ingester;
  readonly uploadIngester?: UploadIngester;
  /** Persisted state of the online bandit (server/runtime/learning); without it the bandit learns in memory only. */
  readonly banditStore?: BanditStorePort;
  /** Where the model-context cache keeps responses (server/runtime/modelcache); without it nothing is cached. */
  readonly modelCacheStore?: ModelCacheStorePlugin;
  /** Built by ContextRuntime from modelCacheStore when config model_cache.enabled: the executors and the planner read it. */
  readonly modelContextCache?: ModelContextCache;
  /** Releases database handles and locks. */
  readonly close?: () => Promise<void>;
}
