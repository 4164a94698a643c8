/**
 * Context Runtime — the public surface. An application says `run({ goal, sources, constraints })`;
 * the runtime plans (intent → candidates → cost model → optimizer → Execution Graph), schedules,
 * executes through plugins, verifies, traces, and learns from the estimate-vs-actual gap.
 */
import { resolve } from 'node:path';
import { loadConfigFile } from './config/load-config';
import type { RuntimeConfig } from './config/config-schema';
import type { ApprovalAuditEntry, AuditVerification, RunListOptions, RunSummary } from './contracts/run-store';
import type { Span } from './contracts/trace-sink';
import type { VerificationResult } from './contracts/verifier';
import { CostEstimator, type FieldStatistics } from './costmodel/cost-estimator';
import { learningStateFor } from './costmodel/calibration-state';
import { calibrationReport, type CalibrationReport, type CalibrationReportOptions } from './costmodel/calibration-report';
import { attachCalibration } from './explain/analyze-calibration';
import { ContextRuntimeError, invalidInput } from './errors';
import type { ExplainResult, RunResult, SimulateResult } from './explain/explain-types';
import type { ExecutionGraph } from './ir/graph';
import { validateGraph } from './ir/validate-graph';
import { answerOutputsOf } from './ir/node-outputs';
import { BanditLearner, learningSettingsOf } from './learning/bandit-learner';
import type { Thumb } from './learning/bandit-store';
import { applyEditedGraph } from './facade/edited-plan';
import { continueRun, startRun, toRunResult, type StoredPlan } from './facade/execute-run';
import { pendingApprovals, type PendingApproval, type WaitingRun, withoutDraft } from './facade/approval-inbox';
import { recentAnswers, type RecentAnswer } from './facade/recent-answers';
import { principalAccess, type PrincipalAccess } from './access/principal-access';
import { withSourceScope } from './access/source-scope-policy';
import { scopedKnowledge, type ScopedKnowledge } from './access/scoped-knowledge';
import { cachedKnowledge, SourceReadCache } from './knowledge/source-read-cache';
import { wireModelCache } from './modelcache/model-cache-wiring';
import { visibleDecisions, visibleRuns } from './access/visible-runs';
import { RunLimiter } from './facade/run-limits';
import { RunOwnership } from './facade/run-ownership';
import type { RecoveredRun } from './facade/run-recovery';
import { OrphanSweeps } from './facade/orphan-sweeps';
import { awaitQueuedRun, executeQueuedWave } from './facade/queued-run';
import { planRequest, type PlannedRequest } from './facade/plan-request';
import { registeredRuntimeFactory, type RuntimeFactoryOptions } from './facade/runtime-factory';
import type { RuntimePlugins } from './facade/runtime-plugins';
import { simulatePlan } from './facade/simulate-plan';
import { contextForPlan, validateTokenBudget, type GoalContext } from './facade/context-for-goal';
import { traceDecision } from './observability/decision-trace';
import { validatePrincipal, validateRunRequest } from './facade/validate-request';
import type { IngestReport, UploadedFile } from './contracts/store';
import { requireAdmin } from './facade/ingest-request';
import { ingestLocalPath, ingestServerPath, ingestUploadedFiles, type LocalIngestOptions, type UnderDeadline } from './facade/ingest-entry';
import { pageLimit, validatedRunListFilter } from './facade/list-options';
import { recordGateDecision, validateDecisionInput } from './facade/decide-approval';
import { cancelRun } from './facade/cancel-run';
import { underIngestDeadline } from './facade/ingest-deadline';
import type { KnowledgePlugin } from './contracts/knowledge';
import type { RetentionReport } from './contracts/retention';
import type { PlanCachePlugin } from './contracts/plan-cache';
import type { ContextItem, Principal, SourceInfo } from './types';
import type { RunOptions } from './facade/run-progress';

export type { RuntimePlugins } from './facade/runtime-plugins';
export type { PlannedRequest } from './facade/plan-request';
export type { ProgressNode, RunOptions, RunProgressEvent, RunProgressListener } from './facade/run-progress';
export type { ExplainResult, RunResult, SimulateResult } from './explain/explain-types';
export type { PendingApproval, WaitingRun } from './facade/approval-inbox';
export type { RecentAnswer } from './facade/recent-answers';
export type { ContextPassage, GoalContext } from './facade/context-for-goal';
export type { RecoveredRun } from './facade/run-recovery';
export type { RetentionPolicy, RetentionReport } from './contracts/retention';
export type { ScopedKnowledge } from './access/scoped-knowledge';
export type { RuntimeConfig } from './config/config-schema';
export { ContextRuntimeError } from './errors';
export { registerRuntimeFactory } from './facade/runtime-factory';
export * from './types';

export const DEFAULT_CONFIG_PATH = 'context-runtime.yaml';

export class ContextRuntime {
  /** This process as the owner of the runs it executes (heartbeat, cancel). */
  private readonly ownership: RunOwnership;
  private readonly sweeps: OrphanSweeps;

  private readonly plugins: RuntimePlugins;
  /**
   * Source list and fingerprints between writes (knowledge/source-read-cache.ts). A config change
   * builds a new runtime, and with it an empty cache; every source write below invalidates it.
   */
  private readonly sourceReads: SourceReadCache;

  private constructor(
    plugins: RuntimePlugins,
    readonly config: RuntimeConfig,
  ) {
    this.sourceReads = new SourceReadCache(plugins.knowledge);
    // Only where this process is the database's one writer (the embedded directory, under its
    // lock): on a shared server another process may ingest, and its write would not reach this cache.
    const knowledge = cachedKnowledge(plugins.knowledge, this.sourceReads, plugins.exclusiveRunStore === true);
    plugins.store.onSourceChanged?.(async (name) => this.sourceReads.invalidate(`source ${name} changed`));
    const modelContextCache = wireModelCache(plugins, config);
    // A principal's source scope (an API key's) narrows whatever policy is wired, everywhere it is asked.
    this.plugins = { ...plugins, knowledge, policy: withSourceScope(plugins.policy), ...(modelContextCache ? { modelContextCache } : {}) };
    this.ownership = new RunOwnership(plugins.runStore, config.scheduler.heartbeat_ms);
    this.sweeps = new OrphanSweeps({
      plugins: this.plugins,
      config,
      ownership: this.ownership,
      queued: this.queued,
      resume: async (record) => {
        const result = await continueRun(this.plugins, config, record, { ownership: this.ownership });
        this.learner.observeRun(result);
        return result;
      },
      applyRetention: () => this.applyRetention(),
    });
  }

  static create(plugins: RuntimePlugins, config: RuntimeConfig): ContextRuntime {
    return new ContextRuntime(plugins, config);
  }

  /** Loads and validates `context-runtime.yaml` (an invalid file names the key and the problem), then wires the registered plugins. */
  static async fromConfig(path?: string, options: RuntimeFactoryOptions = {}): Promise<ContextRuntime> {
    const configPath = path ?? DEFAULT_CONFIG_PATH;
    // turbopackIgnore: a run-time path; the build's tracer would otherwise trace the whole project.
    const config = loadConfigFile(resolve(/* turbopackIgnore: true */ configPath), { required: path !== undefined });
    const factory = registeredRuntimeFactory();
    if (!factory) throw new ContextRuntimeError('INVALID_CONFIG', 'no plugin factory registered: import the runtime through server/bootstrap (or call ContextRuntime.create with plugins)');
    const runtime = new ContextRuntime(await factory(config, options), config);
    if (options.recoverRuns) runtime.sweeps.start();
    return runtime;
  }

  /**
   * Claims the runs a process that is gone left `running` and resumes each from its saved node
   * outcomes, or marks it failed with the reason (facade/orphan-sweeps.ts).
   */
  recoverRuns(): Promise<readonly RecoveredRun[]> {
    return this.sweeps.recoverRuns();
  }

  /**
   * Deletes settled runs, spans and cost observations older than config.retention says; never a
   * run that is running or waiting at an approval gate. With a principal (the CLI, the API), admins only.
   */
  async applyRetention(principal?: Principal): Promise<RetentionReport> {
    if (principal !== undefined) requireAdmin(validatePrincipal(principal), 'applying the retention policy');
    if (!this.plugins.retention) throw new ContextRuntimeError('INVALID_CONFIG', 'this runtime was built without a retention plugin');
    const { runs_days: runsDays, spans_days: spansDays, observations_days: observationsDays } = this.config.retention;
    try {
      return await this.plugins.retention.apply({ runsDays, spansDays, observationsDays });
    } finally {
      // Retention deletes rows planning does not read today; a retention that learns to age out
      // source versions must not leave a plan reading them, so the sweep invalidates regardless.
      this.sourceReads.invalidate('retention sweep');
    }
  }

  /**
   * Cancels a running run or one waiting at a gate, as the user who started it or an admin: the
   * run is marked `cancelled` first (so nothing later overwrites it), then its in-flight calls abort.
   */
  async cancel(runId: string, principal: Principal): Promise<RunResult> {
    if (principal === undefined || principal === null) throw invalidInput('principal', 'expected the signed-in person cancelling');
    const canceller = validatePrincipal(principal);
    return cancelRun(this.plugins.runStore, this.ownership, await this.loadRun(runId, await this.accessFor(canceller)), canceller);
  }

  private learnerInstance?: BanditLearner;
  private runLimiterInstance?: RunLimiter;

  /** Per-user concurrent-run and daily-spend limits (config `limits.runs`). */
  private get runLimiter(): RunLimiter {
    return (this.runLimiterInstance ??= new RunLimiter(this.plugins.runStore, this.config.limits.runs));
  }

  /** The online bandit (config `learning`); its persisted state loads on first use. */
  private get learner(): BanditLearner {
    return (this.learnerInstance ??= new BanditLearner(this.plugins.banditStore, learningSettingsOf(this.config.learning)));
  }

  /** Plans without executing. Validates the request first: a rejected request writes nothing. */
  async plan(request: unknown): Promise<PlannedRequest> {
    // With learning on, a plan-cache hit keeps the feasible arms and the bandit chooses among them (plan-stages/cache-arm-stage.ts).
    // A run does not wait for the plan-cache row or a miss's near-miss diagnosis (issue 16 point 5).
    return planRequest(this.plugins, this.config, validateRunRequest(request), this.learner, { planCacheWrites: 'behind' });
  }

  /** The Execution Graph of a plan, validated. */
  buildContext(plan: PlannedRequest): ExecutionGraph {
    validateGraph(plan.graph);
    return plan.graph;
  }

  /** Runs execute as jobs on an engine (`context-runtime worker` processes), not in this process. */
  private get queued(): boolean {
    return this.plugins.scheduler.enqueue !== undefined;
  }

  /**
   * Plans and records the run, and returns without waiting for it: `queued` on a job engine (a
   * worker executes it; poll `getRun`). In process there is no queue: the run executes before this returns.
   */
  async submit(request: unknown): Promise<RunResult> {
    const plan = await this.plan(request);
    return this.queued ? this.enqueue(plan) : this.execute(plan);
  }

  private async enqueue(plan: PlannedRequest): Promise<RunResult> {
    this.buildContext(plan);
    // The spend limit is checked at submission; a worker holds no per-user slot for a queued run.
    const release = await this.runLimiter.admit(plan.request.principal?.user ?? 'anonymous', plan.explain.estimates.costUsd.value);
    release();
    return startRun(this.plugins, this.config, plan, { queued: true });
  }

  /**
   * Called by a `context-runtime worker` before it takes jobs: marks this process alive, so a
   * caller waiting on a queued run knows a worker exists (execution.pickup_timeout_ms). False when
   * the store keeps no marks (then such a caller judges by the timeout alone).
   */
  announceWorker(): Promise<boolean> {
    return this.ownership.markAlive();
  }

  /** A worker's job: executes the next wave of a queued run (facade/queued-run.ts); undefined when there was nothing to do. */
  async executeQueuedWave(runId: string): Promise<RunResult | undefined> {
    const result = await executeQueuedWave(this.plugins, this.config, this.ownership, runId);
    if (result && result.status !== 'queued') this.learner.observeRun(result);
    return result;
  }

  async execute(plan: PlannedRequest, options: RunOptions = {}): Promise<RunResult> {
    this.buildContext(plan);
    if (this.queued) {
      const submitted = await this.enqueue(plan);
      return this.withCalibration(await awaitQueuedRun(this.plugins, submitted.runId, { pollMs: this.config.execution.poll_ms, pickupTimeoutMs: this.config.execution.pickup_timeout_ms, onProgress: options.onProgress }));
    }
    const release = await this.runLimiter.admit(plan.request.principal?.user ?? 'anonymous', plan.explain.estimates.costUsd.value);
    let recordedCostUsd: number | undefined;
    try {
      const result = await startRun(this.plugins, this.config, plan, { onProgress: options.onProgress, ownership: this.ownership });
      recordedCostUsd = result.explain.analyze?.totals.actual.costUsd;
      this.learner.observeRun(result);
      return this.withCalibration(result);
    } finally {
      release(recordedCostUsd);
    }
  }

  /** `onProgress` sees each node start, finish, skip or fail while the run executes. */
  async run(request: unknown, options: RunOptions = {}): Promise<RunResult> {
    return this.execute(await this.plan(request), options);
  }

  /** Plans the goal, then runs an operator-edited Execution Graph in its place (within the plan's policy envelope; see facade/edited-plan.ts). */
  async runEditedPlan(request: unknown, graph: unknown, options: RunOptions = {}): Promise<RunResult> {
    return this.execute(applyEditedGraph(await this.plan(request), graph, this.plugins, this.config), options);
  }

  /** EXPLAIN; with `analyze` the plan runs and actuals are overlaid per node (EXPLAIN ANALYZE). */
  async explain(request: unknown, options: { readonly analyze?: boolean } = {}): Promise<ExplainResult> {
    // EXPLAIN is asked to say why a plan was not reused: the near miss is diagnosed before it returns.
    const plan = await planRequest(this.plugins, this.config, validateRunRequest(request), this.learner);
    // EXPLAIN ANALYZE runs: the run's own trace (plan → run → nodes) describes it.
    if (options.analyze) return (await this.execute(plan)).explain;
    await traceDecision(this.plugins.traceSink, plan, 'explain');
    return plan.explain;
  }

  /**
   * Ranked, cited passages for a goal within `tokenBudget` (default: the plan's): the plan's
   * retrieval and assembly only — no model writes an answer and no run is stored (facade/context-for-goal.ts).
   */
  async contextFor(request: unknown, options: { readonly tokenBudget?: number } = {}): Promise<GoalContext> {
    const tokenBudget = validateTokenBudget(options.tokenBudget);
    return contextForPlan(this.plugins, this.config, await this.plan(request), tokenBudget);
  }

  async simulate(request: unknown): Promise<SimulateResult> {
    const plan = await this.plan(request);
    const quote = simulatePlan(plan, await learningStateFor(this.plugins.observationStore, plan.explain.costModel.version));
    await traceDecision(this.plugins.traceSink, plan, 'simulate', {
      estimator: quote.estimator,
      basedOnSamples: quote.basedOnSamples,
      expectedCostUsd: quote.expected.costUsd.value,
      expectedLatencySeconds: quote.expected.latencySeconds.value,
      expectedTokens: quote.expected.tokens.value,
    });
    return quote;
  }

  /** Re-runs the plan's verifier over a finished run's answer and assembled context. */
  async verify(runId: string): Promise<VerificationResult> {
    const record = await this.loadRun(runId);
    const { reasoned, context } = answerOutputsOf((record.plan as StoredPlan).explain.graph, record.nodeOutcomes);
    if (!reasoned || !context) throw new ContextRuntimeError('CONFLICT', `run ${runId} has no answer to verify yet (status ${record.status})`, { field: 'runId' });
    const method = (record.plan as StoredPlan).explain.chosen.choice.verification;
    const verifier = this.plugins.verifiers.find((candidate) => candidate.method === (method === 'none' ? 'citation' : method))!;
    return verifier.verify({ goal: record.goal, answer: reasoned.answer, citations: reasoned.citations, context: context.items });
  }

  /**
   * Decides a paused approval gate as `principal`; approving resumes the run (also after a
   * restart), rejecting ends it. The decider must hold the gate's role and may not approve a run
   * they started (facade/approval-authority.ts); the audit row records them and the goal as it is now.
   */
  async approve(runId: string, nodeId: string, decision: 'approved' | 'rejected', principal: Principal, comment = ''): Promise<RunResult> {
    const decider = validateDecisionInput(decision, principal, comment);
    await recordGateDecision(this.plugins.runStore, await this.loadRun(runId, await this.accessFor(decider)), nodeId, decision, decider, comment);
    if (this.queued) {
      // A worker resumes it; this waits as run() does.
      if ((await this.plugins.runStore.setStatus(runId, 'queued', { pendingNodeId: null, onlyIf: ['awaiting_approval'] })) !== false) await this.plugins.scheduler.enqueue!(runId, { resumed: true });
      return this.withCalibration(await awaitQueuedRun(this.plugins, runId, { pollMs: this.config.execution.poll_ms, pickupTimeoutMs: this.config.execution.pickup_timeout_ms }));
    }
    const result = await continueRun(this.plugins, this.config, (await this.plugins.runStore.loadRun(runId))!, { ownership: this.ownership });
    this.learner.observeRun(result);
    return this.withCalibration(result);
  }

  /**
   * The evidence a run put in front of the model, numbered as its citations are: what a citation opens.
   * Principal arguments here and below: omitted only by in-process callers that own the data
   * directory (the CLI, tests); every API surface passes the caller (server/api/runtime-port.ts).
   */
  async evidence(runId: string, principal?: Principal): Promise<readonly ContextItem[]> {
    const access = principal && (await this.accessFor(principal));
    const record = await this.loadRun(runId, access);
    const items = answerOutputsOf((record.plan as StoredPlan).explain.graph, record.nodeOutcomes).context?.items ?? [];
    return access ? items.filter((item) => access.mayReadSource(item.hit.sourceName)) : items;
  }

  async getRun(runId: string, principal?: Principal): Promise<{ run: RunResult; spans: readonly Span[] }> {
    const record = await this.loadRun(runId, principal && (await this.accessFor(principal)));
    const { explain } = record.plan as StoredPlan;
    return { run: await this.withCalibration(toRunResult(record, explain, explain.graph)), spans: await this.plugins.traceSink.spansOf(runId) };
  }

  /** With `principal`, only runs they may read (access/principal-access.ts), paged over what they may read. */
  async listRuns(options: Partial<RunListOptions> & { readonly principal?: Principal } = {}): Promise<readonly RunSummary[]> {
    const filter = validatedRunListFilter(options);
    return options.principal ? visibleRuns(this.plugins.runStore, await this.accessFor(options.principal), filter) : this.plugins.runStore.listRuns(filter);
  }

  /**
   * Runs paused at an approval gate, newest first, each with what approving releases and why it was
   * gated. With `principal`, only runs over sources that principal may read; with `startedBy`, only
   * that user's runs.
   */
  async pendingApprovals(options: { readonly limit?: number; readonly principal?: Principal; readonly startedBy?: string } = {}): Promise<readonly PendingApproval[]> {
    const limit = pageLimit(options.limit, 50, 200);
    const access = options.principal ? await this.accessFor(options.principal) : undefined;
    return pendingApprovals(this.plugins.runStore, limit, { user: options.startedBy, mayRead: access?.mayReadRun, decider: access?.principal });
  }

  /**
   * The principal's own runs waiting at a gate, with the draft withheld: the starter sees what
   * they wait for, not the answer an approver has not released yet.
   */
  async waitingRunsOf(options: { readonly principal: Principal; readonly limit?: number }): Promise<readonly WaitingRun[]> {
    const waiting = await this.pendingApprovals({ limit: options.limit, principal: options.principal, startedBy: options.principal.user });
    return waiting.map(withoutDraft);
  }

  /** Completed runs' answers the principal may read (every source of the run readable to them), newest first. */
  async recentAnswers(options: { readonly principal: Principal; readonly limit?: number }): Promise<readonly RecentAnswer[]> {
    const limit = pageLimit(options.limit, 20, 100);
    return recentAnswers(this.plugins.runStore, (await this.accessFor(options.principal)).mayReadRun, limit);
  }

  /** The append-only approval audit log, newest first; with `principal`, only rows of runs they may read. */
  async approvalLog(options: { readonly limit?: number; readonly offset?: number; readonly runId?: string; readonly principal?: Principal } = {}): Promise<readonly ApprovalAuditEntry[]> {
    const limit = pageLimit(options.limit, 50, 1000);
    if (!this.plugins.runStore.listDecisions) throw new ContextRuntimeError('INVALID_CONFIG', 'this run store keeps no approval audit log');
    const filter = { limit, offset: options.offset, runId: options.runId };
    const runStore = this.plugins.runStore as typeof this.plugins.runStore & Required<Pick<typeof this.plugins.runStore, 'listDecisions'>>;
    return options.principal ? visibleDecisions(runStore, await this.accessFor(options.principal), filter) : runStore.listDecisions(filter);
  }

  /** Walks the audit log's hash chain (`context-runtime audit verify`): which rows, if any, were changed, removed or reordered. */
  async verifyApprovalLog(): Promise<AuditVerification> {
    if (!this.plugins.runStore.verifyDecisions) throw new ContextRuntimeError('INVALID_CONFIG', 'this run store keeps no approval audit log');
    return this.plugins.runStore.verifyDecisions();
  }

  /** Sources, with `principal` only those they may read. */
  async sources(principal?: Principal): Promise<readonly SourceInfo[]> {
    return principal ? (await this.accessFor(principal)).readableSources : this.plugins.knowledge.sources();
  }

  /** In-process ingest (the CLI without a server): the caller already reads this machine's files as itself. */
  async ingest(path: string, options: LocalIngestOptions = {}): Promise<IngestReport> {
    return this.afterIngest(await ingestLocalPath(this.plugins, this.underIngestDeadline, path, options));
  }

  /** A path on the server's disk named by a remote caller: admins only, below ingest.allowed_roots only (the ingester confines it). */
  async ingestServerPath(path: string, options: { readonly source?: string; readonly principal: Principal; readonly signal?: AbortSignal }): Promise<IngestReport> {
    return this.afterIngest(await ingestServerPath(this.plugins, this.underIngestDeadline, path, options));
  }

  /** Files a browser or the CLI uploaded. A new source is anyone's (operator and up); a new version of an existing one is an admin's. */
  async ingestUpload(files: readonly UploadedFile[], options: { readonly source: string; readonly principal: Principal; readonly signal?: AbortSignal }): Promise<IngestReport> {
    return this.afterIngest(await ingestUploadedFiles(this.plugins, this.underIngestDeadline, files, options));
  }

  /** `signal`: the caller's (Ctrl-C, a closed connection); ingest.timeout_ms bounds every ingest whatever the caller. */
  private readonly underIngestDeadline: UnderDeadline = (signal, work) => underIngestDeadline({ ...(signal ? { signal } : {}), timeoutMs: this.config.ingest.timeout_ms }, work);

  private async afterIngest(report: IngestReport): Promise<IngestReport> {
    // After the derived indexes and knowledge sync too (the store's hook fires at its own write):
    // nothing an ingest wrote may be missing from the next plan.
    this.sourceReads.invalidate(`ingest of ${report.sources.map((source) => source.source).join(', ') || 'nothing'}`);
    if (this.plugins.planCache) for (const result of report.sources) if (result.changed) await this.plugins.planCache.invalidateSource(result.source);
    return report;
  }

  /** Cost-model calibration: per estimated field and intent class. */
  statistics(): Promise<readonly FieldStatistics[]> {
    return new CostEstimator(this.plugins.observationStore, this.plugins.costModel.version).statistics();
  }

  /** The /calibration dashboard: every estimator's statistics, trend over time and estimate-vs-actual points. */
  async calibration(options: CalibrationReportOptions = {}): Promise<CalibrationReport> {
    const store = this.plugins.observationStore;
    return store.calibrationReport ? store.calibrationReport(options) : calibrationReport(await store.all(), options);
  }

  /**
   * The Knowledge plugin itself (sources, versions, lineage, contradictions); with `principal`, its
   * page-facing parts scoped to what they may read (access/scoped-knowledge.ts).
   */
  knowledge(): KnowledgePlugin;
  knowledge(principal: Principal): Promise<ScopedKnowledge>;
  knowledge(principal?: Principal): KnowledgePlugin | Promise<ScopedKnowledge> {
    if (principal === undefined) return this.plugins.knowledge;
    return this.accessFor(principal).then((access) => scopedKnowledge(this.plugins.knowledge, access));
  }

  /** The Plan Cache plugin (stats, invalidation); undefined when none is wired or plan_cache.enabled is false. */
  planCache(): PlanCachePlugin | undefined {
    return this.config.plan_cache.enabled ? this.plugins.planCache : undefined;
  }

  capabilities() {
    return { store: this.plugins.storeCapabilities, retrievers: this.plugins.retrievers.map((retriever) => retriever.capabilities()), tiers: this.plugins.router.tiers() };
  }

  /** The learning loop: arms with their statistics, and people's thumbs on runs (learning happens off the response path). */
  learning() {
    return Object.freeze({
      policy: this.learner.policy,
      settings: this.learner.settings,
      arms: () => this.learner.armSummaries(),
      /** A vote on a run the voter may not read is refused as if the run did not exist: a vote must not probe run ids. */
      feedback: async (runId: string, voter: Principal, thumb: Thumb) => {
        if (thumb !== 'up' && thumb !== 'down') throw invalidInput('thumb', `expected "up" or "down", got ${JSON.stringify(thumb)}`);
        const access = await this.accessFor(voter);
        await this.loadRun(runId, access);
        return this.learner.feedback(runId, access.principal.user.trim(), thumb);
      },
      /** Resolves when every queued update has been applied (tests, shutdown). */
      drain: () => this.learner.drain(),
    });
  }

  async close(): Promise<void> {
    // Runs still executing keep their `running` record: a stale owner is what the next start recovers.
    this.sweeps.stop();
    // Its alive mark goes too (before the database closes), so those runs become orphans once their heartbeat is stale.
    await this.ownership.close().catch(() => undefined);
    await this.learnerInstance?.drain();
    // Plan-cache rows and counters still queued behind requests land before the database closes.
    await this.plugins.planCache?.flush?.().catch((error: unknown) => console.warn(`[context-runtime] plan cache writes at close: ${error instanceof Error ? error.message : String(error)}`));
    await this.plugins.close?.();
  }

  /** EXPLAIN ANALYZE shows the estimator's calibration (field × intent class) beside each misestimate. */
  private async withCalibration(result: RunResult): Promise<RunResult> {
    if (!result.explain.analyze) return result;
    const state = await learningStateFor(this.plugins.observationStore, result.explain.costModel.version);
    return { ...result, explain: attachCalibration(result.explain, (field) => state.calibration(field, result.explain.intent.primary)) };
  }

  /** The one access check for one principal and request (access/principal-access.ts). */
  private async accessFor(principal: Principal): Promise<PrincipalAccess> {
    // No default principal here: ANONYMOUS would read everything an operator may.
    if (principal === undefined || principal === null) throw invalidInput('principal', 'expected the user whose permissions decide what they may read');
    return principalAccess(this.plugins.policy, validatePrincipal(principal), await this.plugins.knowledge.sources());
  }

  /** A run the principal may not read is reported exactly as one that does not exist. */
  private async loadRun(runId: string, access?: PrincipalAccess) {
    if (typeof runId !== 'string' || runId.trim() === '') throw invalidInput('runId', 'expected a run id');
    const record = await this.plugins.runStore.loadRun(runId);
    if (!record || (access && !access.mayReadRun(record))) throw new ContextRuntimeError('NOT_FOUND', `run ${runId} does not exist`, { field: 'runId' });
    return record;
  }
}
