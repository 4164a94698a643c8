import { z } from 'zod';
import { DEFAULT_INGEST, DEFAULT_RETENTION, ingestSchema, retentionSchema } from './ingest-schema';
import { DEFAULT_LIMITS, limitsSchema } from './limits-schema';

/**
 * Schema of `context-runtime.yaml`. snake_case keys as operators write them.
 * Every key has a default, so an empty file is a valid config for the embedded default.
 */
const weightsSchema = z
  .object({
    acc: z.number().min(0),
    cost: z.number().min(0),
    lat: z.number().min(0),
    risk: z.number().min(0),
    hall: z.number().min(0),
    loss: z.number().min(0),
    cache: z.number().min(0),
    vrf: z.number().min(0),
  })
  .strict();

export const DEFAULT_WEIGHTS = { acc: 1.0, cost: 0.6, lat: 0.3, risk: 0.8, hall: 0.9, loss: 0.4, cache: 0.2, vrf: 0.5 } as const;

export const tierSchema = z
  .object({
    name: z.string().min(1),
    /** extractive = the built-in offline reader; the others go through the AI SDK provider of that name. */
    provider: z.enum(['extractive', 'openai', 'anthropic', 'openai-compatible']),
    model: z.string().min(1).optional(),
    base_url: z.string().url().optional(),
    /** Name of the environment variable holding the API key (the key itself never goes in the file). */
    api_key_env: z.string().min(1).optional(),
    context_window: z.number().int().positive().optional(),
    max_output_tokens: z.number().int().positive().optional(),
    input_usd_per_million: z.number().min(0).optional(),
    output_usd_per_million: z.number().min(0).optional(),
    /** Runs on this machine: eligible for sensitive goals. */
    local: z.boolean().optional(),
    timeout_ms: z.number().int().positive().optional(),
    /** Calls to this model in flight at once, across every run of the process; more wait their turn. */
    max_concurrency: z.number().int().positive().max(1000).optional(),
    /** The provider's requests-per-minute limit: calls beyond it wait for the rolling minute to free up. */
    rpm: z.number().int().positive().optional(),
    /** The provider's tokens-per-minute limit (prompt + allowed output, corrected to the usage reported). */
    tpm: z.number().int().positive().optional(),
    quality_prior: z.number().min(0).max(1).optional(),
    good_for: z.array(z.string()).optional(),
    /** The model speaks the provider's tool calling: the planner may then offer the tool_loop reasoner on this tier. */
    tools: z.boolean().optional(),
  })
  .strict();

export const configSchema = z
  .object({
    database: z
      .object({
        /** Embedded PGlite directory; ignored when `url` (or DATABASE_URL) is set. */
        data_dir: z.string().min(1).default('./.data/pglite'),
        url: z.string().min(1).optional(),
        /**
         * A server: a statement unanswered this long fails (an outage can leave one unanswered for
         * good, and the run waiting on it would never end). An ingest and start-up work are exempt.
         */
        statement_deadline_ms: z.number().int().positive().default(60_000),
      })
      .strict()
      .default({ data_dir: './.data/pglite', statement_deadline_ms: 60_000 }),
    models: z
      .object({
        tiers: z.array(tierSchema).min(1),
        // The reasoner mixtures (plan_worker_critic, debate) join the plan space when a tier can run them; false keeps every plan to single calls.
        mixtures: z.boolean().default(true),
        /** Solvers per debate (its judge reads them all): each is one more model call, in parallel. */
        debate_solvers: z.number().int().min(2).max(6).default(2),
        /** Workers per plan_worker_critic plan: the most sub-questions its decompose step may ask (idle workers call nothing). */
        mixture_workers: z.number().int().min(1).max(6).default(3),
      })
      .strict()
      // The offline reader always answers; hosted tiers join the plan space when their keys are set
      // (until then EXPLAIN shows them cut, with the missing key named).
      .default({
        tiers: [
          { name: 'local', provider: 'extractive' },
          { name: 'cheap', provider: 'openai', api_key_env: 'OPENAI_API_KEY' },
          { name: 'premium', provider: 'anthropic', api_key_env: 'ANTHROPIC_API_KEY' },
        ],
        mixtures: true,
        debate_solvers: 2,
        mixture_workers: 3,
      }),
    budgets: z
      .object({
        max_tokens: z.number().int().positive().optional(),
        max_cost_usd: z.number().min(0).optional(),
        max_latency_seconds: z.number().positive().optional(),
      })
      .strict()
      .default({}),
    costmodel: z
      .object({
        estimator: z.literal('heuristic').default('heuristic'),
        weights: weightsSchema.default(DEFAULT_WEIGHTS),
        /**
         * Measured quality gain of a reasoner over one shot, per intent class: what `npm run bench:answers --
         * --dataset … --fit-gains-from` fitted from answer F1 on a question set. Set, it replaces the shipped
         * fitted table whole (costmodel/reasoner-gains.ts) as the target observed runs are shrunk toward;
         * pairs it leaves out start at 0.
         */
        reasoner_gains: z.record(z.string().min(1), z.partialRecord(z.enum(['exact_id', 'conceptual', 'incident', 'multi_hop', 'high_risk', 'sensitive']), z.number().min(-1).max(1))).default({}),
      })
      .strict()
      .default({ estimator: 'heuristic', weights: DEFAULT_WEIGHTS, reasoner_gains: {} }),
    retrieval: z
      .object({
        top_k: z.number().int().positive().max(1000).default(20),
        final_k: z.number().int().positive().max(200).default(8),
        context_token_budget: z.number().int().positive().default(3000),
        /**
         * Weighted RRF of bm25 and dense: Σ weight / (rrf_k + rank). Unset keys keep the measured
         * defaults (server/adapters/retrievers/hybrid-retriever.ts: k 1, bm25 1, dense 0.1, depth 100);
         * a trained provider embedder earns a larger dense_weight, measured with bench:retrieval.
         */
        hybrid: z
          .object({
            rrf_k: z.number().min(0).max(1000).optional(),
            bm25_weight: z.number().min(0).max(100).optional(),
            dense_weight: z.number().min(0).max(100).optional(),
            depth: z.number().int().positive().max(1000).optional(),
          })
          .strict()
          .default({}),
        /**
         * rm3's pseudo-relevance feedback: feedback documents, expansion terms and λ (the original
         * query's share). Unset keys keep the defaults of server/adapters/retrievers/rm3-retriever.ts
         * (1 document, 20 terms, λ 0.6), chosen by leaving one dataset out (bench/retrieval/RESULTS.md).
         */
        rm3: z
          .object({
            feedback_documents: z.number().int().positive().max(100).optional(),
            expansion_terms: z.number().int().positive().max(200).optional(),
            original_weight: z.number().min(0).max(1).optional(),
          })
          .strict()
          .default({}),
      })
      .strict()
      .default({ top_k: 20, final_k: 8, context_token_budget: 3000, hybrid: {}, rm3: {} }),
    /**
     * The embedder behind `dense`. sif: offline pretrained word vectors (the default); openai or
     * openai-compatible (Ollama, vLLM, LM Studio): the AI SDK's embedMany, dimension taken from the
     * provider's first reply. Vectors are kept per embedder, so switching re-embeds at next start.
     */
    embeddings: z
      .object({
        provider: z.enum(['sif', 'openai', 'openai-compatible']).default('sif'),
        model: z.string().min(1).optional(),
        base_url: z.string().url().optional(),
        /** Name of the environment variable holding the key (default OPENAI_API_KEY for openai). */
        api_key_env: z.string().min(1).optional(),
        /** Provider name in the embedder id for openai-compatible servers, e.g. "ollama". */
        name: z
          .string()
          .regex(/^[A-Za-z0-9._-]{1,40}$/, 'letters, digits, . _ - (at most 40)')
          .optional(),
        /** Where the sif embedder keeps its binary word-vector cache. */
        cache_path: z.string().min(1).optional(),
        timeout_ms: z.number().int().positive().optional(),
        /** Runs on this machine (texts go out unredacted); default: a base_url on a loopback address. */
        local: z.boolean().optional(),
      })
      .strict()
      .superRefine((embeddings, context) => {
        if (embeddings.provider !== 'openai-compatible') return;
        if (!embeddings.base_url) context.addIssue({ code: 'custom', path: ['base_url'], message: 'openai-compatible embeddings need base_url (Ollama: http://localhost:11434/v1)' });
        if (!embeddings.model) context.addIssue({ code: 'custom', path: ['model'], message: 'openai-compatible embeddings need model (Ollama: e.g. nomic-embed-text)' });
      })
      .default({ provider: 'sif' }),
    plan_cache: z
      .object({ enabled: z.boolean().default(true), ttl_seconds: z.number().int().positive().default(3600) })
      .strict()
      .default({ enabled: true, ttl_seconds: 3600 }),
    /**
     * Model responses cached by (model, prompt, parameters, cited source versions): a repeated call
     * is answered from the database and never reaches the model (server/runtime/modelcache). Off by
     * default: temperature 0 is not determinism on every provider, and an operator should choose to
     * trade a fresh answer for a saved call.
     */
    model_cache: z
      .object({ enabled: z.boolean().default(false), ttl_seconds: z.number().int().positive().default(86_400) })
      .strict()
      .default({ enabled: false, ttl_seconds: 86_400 }),
    scheduler: z
      .object({
        concurrency: z.number().int().positive().max(64).default(4),
        node_timeout_ms: z.number().int().positive().default(60_000),
        max_attempts: z.number().int().positive().max(10).default(3),
        backoff_ms: z.number().int().min(0).default(200),
        /** How often a process refreshes the heartbeat of the runs it executes. */
        heartbeat_ms: z.number().int().min(100).default(5_000),
        /**
         * A run whose owner has not beaten for this long is an orphan a start recovers (shared databases; the embedded one recovers every orphan at once).
         * On a job engine a run whose owner's alive mark is gone is handed back after two heartbeats already (facade/queued-run.ts).
         */
        orphan_after_ms: z.number().int().min(1_000).default(30_000),
      })
      .strict()
      .refine((scheduler) => scheduler.orphan_after_ms > scheduler.heartbeat_ms, { message: 'must be longer than scheduler.heartbeat_ms', path: ['orphan_after_ms'] })
      .default({ concurrency: 4, node_timeout_ms: 60_000, max_attempts: 3, backoff_ms: 200, heartbeat_ms: 5_000, orphan_after_ms: 30_000 }),
    /**
     * Where runs execute: `in_process` (default) in the process that plans them; `graphile_worker`
     * as jobs on a PostgreSQL server that `context-runtime worker` processes execute (needs DATABASE_URL).
     */
    execution: z
      .object({
        engine: z.enum(['in_process', 'graphile_worker']).default('in_process'),
        /** How often a caller waiting on a queued run reads its state from the database. */
        poll_ms: z.number().int().min(20).max(10_000).default(250),
        /**
         * How long `run()` waits for a worker to take its queued run when no `context-runtime worker`
         * is alive; then the run fails with that reason (with live workers it waits its turn).
         */
        pickup_timeout_ms: z.number().int().min(100).default(30_000),
      })
      .strict()
      .default({ engine: 'in_process', poll_ms: 250, pickup_timeout_ms: 30_000 }),
    verification: z
      .object({
        default: z.boolean().default(true),
        high_risk_requires_human: z.boolean().default(true),
        /** Attempts a run with required verification makes before it ends `unverified` (1 = no retry). */
        max_attempts: z.number().int().min(1).max(5).default(2),
        /** Ask a judge model about groundedness when a model tier (not the extractive reader) is configured. */
        judge: z.boolean().default(true),
      })
      .strict()
      .default({ default: true, high_risk_requires_human: true, max_attempts: 2, judge: true }),
    policy: z
      .object({
        /** Sources only these roles may read: { source_name: [role, …] }. */
        source_roles: z.record(z.string(), z.array(z.string())).default({}),
        /** Source names whose content must stay on local tiers. */
        sensitive_sources: z.array(z.string()).default([]),
        /**
         * Passages holding personal data or secrets (emails, keys, card numbers…): local_only keeps
         * them on local tiers (held back from a non-local model or embedder); redact sends them with
         * each sensitive span replaced by its kind.
         */
        sensitive_content: z.enum(['local_only', 'redact']).default('local_only'),
      })
      .strict()
      .default({ source_roles: {}, sensitive_sources: [], sensitive_content: 'local_only' }),
    /** Server-path ingest (admins, below allowed_roots) and the caps every ingest keeps (ingest-schema.ts). */
    ingest: ingestSchema.default(DEFAULT_INGEST),
    retention: retentionSchema.default(DEFAULT_RETENTION),
    limits: limitsSchema.default(DEFAULT_LIMITS),
    demo: z.object({ load_on_start: z.boolean().default(true) }).strict().default({ load_on_start: true }),
    /**
     * Traces out (OpenTelemetry): every span is also sent to an OTLP/HTTP collector and/or Langfuse.
     * Off unless a section here or the standard variables (OTEL_EXPORTER_OTLP_ENDPOINT, LANGFUSE_PUBLIC_KEY
     * with LANGFUSE_SECRET_KEY) turn it on; Postgres stays the store the console and the learning loop read.
     */
    observability: z
      .object({
        otlp: z
          .object({
            /** Collector base URL (…/v1/traces is appended, as for OTEL_EXPORTER_OTLP_ENDPOINT, which beats it). */
            endpoint: z.string().url().optional(),
            /** Variable holding "name=value,name2=value2" headers (an API key); OTEL_EXPORTER_OTLP_HEADERS when unset. */
            headers_env: z.string().min(1).optional(),
          })
          .strict()
          .optional(),
        langfuse: z
          .object({
            /** LANGFUSE_BASE_URL beats it; https://cloud.langfuse.com when neither is set. */
            base_url: z.string().url().optional(),
            public_key_env: z.string().min(1).default('LANGFUSE_PUBLIC_KEY'),
            secret_key_env: z.string().min(1).default('LANGFUSE_SECRET_KEY'),
          })
          .strict()
          .optional(),
      })
      .strict()
      .default({}),
    /**
     * Online contextual bandit over the top feasible plans (server/runtime/learning), on by default
     * with safe exploration (learning/safe-exploration.ts): an untrained bandit plays exactly the
     * optimizer's plan, no plan whose lower bound is more than safe_margin below the default plan's
     * is tried, and exploration is rationed; exploration runs are marked in EXPLAIN.
     */
    learning: z
      .object({
        enabled: z.boolean().default(true),
        /** LinUCB exploration width α: 0 = greedy on the learned mean. 0.2 did best of 0.05–0.3 in bench:bandit (1,009 mixed queries). */
        alpha: z.number().min(0).max(10).default(0.2),
        /** How many of the best feasible plan shapes the bandit chooses among: 3 beat 4, 5 and all six at every α tried in bench:bandit. */
        top_k_arms: z.number().int().min(1).max(32).default(3),
        cost_penalty: z.number().min(0).max(1).default(0.1),
        latency_penalty: z.number().min(0).max(1).default(0.1),
        cost_scale_usd: z.number().positive().default(0.05),
        latency_scale_seconds: z.number().positive().default(10),
        /**
         * Safe exploration (learning/safe-exploration.ts): over any safe_window decisions, playing other
         * plans than the default may risk (default's mean − their lower bound) at most safe_margin per run,
         * in reward units (quality in [0,1] less penalties). safe_window 1 applies it to each decision alone.
         */
        safe_margin: z.number().min(0).max(1).default(0.05),
        safe_window: z.number().int().min(1).max(10_000).default(100),
        /**
         * Lower bounds for safety and the greedy pick sit this many standard errors σ̂·√(xᵀA⁻¹x) below the mean
         * (σ̂ the rewards' estimated noise, learning/reward-noise.ts; α sizes only optimism). Until 2026-12-02 the
         * width was in spreads (σ taken as 1; default 1). bench:bandit (1,009 mixed queries, 20 orders, rewards
         * logged at load 30–45; latency scale 200/100/50 ms): 1 → worst 100-query window −0.058/−0.069/−0.073
         * (fails the 0.05 margin); 2 → −0.048/−0.049/−0.050; 3 → −0.020/−0.034/−0.024, cumulative 643.0/636.6/635.4
         * (σ = 1 at 1 spread: 642.8/636.2/634.0, −0.033/−0.032/−0.028).
         */
        safe_confidence: z.number().min(0).max(10).default(3),
        /** Largest share of plans that may be explorations (an optimistic pick that is not the greedy one). */
        exploration_share: z.number().min(0).max(1).default(0.1),
        /** Largest number of explorations in any rolling hour, per process. */
        exploration_per_hour: z.number().int().min(0).default(60),
        /** Plan with the learned estimator (learned-v2, the heuristic as its prior) rather than the heuristic alone. */
        learned_estimates: z.boolean().default(true),
      })
      .strict()
      .default({ enabled: true, alpha: 0.2, top_k_arms: 3, cost_penalty: 0.1, latency_penalty: 0.1, cost_scale_usd: 0.05, latency_scale_seconds: 10, safe_margin: 0.05, safe_window: 100, safe_confidence: 3, exploration_share: 0.1, exploration_per_hour: 60, learned_estimates: true }),
  })
  .strict();

export type RuntimeConfig = z.infer<typeof configSchema>;
export type TierConfig = z.infer<typeof tierSchema>;
