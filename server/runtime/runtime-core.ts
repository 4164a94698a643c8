/**
 * The runtime's run side: wiring, planning, execution, approvals, cancellation, ingest and
 * shutdown. ContextRuntime (index.ts) adds the read side (runs, approvals, audit, sources,
 * calibration, learning) on top; both share the one access check (`accessFor`, `loadRun`).
 */
import type { RuntimeConfig } from './config/config-schema';
import type { VerificationResult } from './contracts/verifier';
import { learningStateFor } from './costmodel/calibration-state';
import { attachCalibration } from './explain/analyze-calibration';
import { ContextRuntimeError, invalidInput } from './errors';
import type { ExplainResult, RunResult, SimulateResult } from './explain/explain-types';
import type { ExecutionGraph } from './ir/graph';
import { validateGraph } from './ir/validate-graph';
import { answerOutputsOf } from './ir/node-outputs';
import { BanditLearner, learningSettingsOf } from './learning/bandit-learner';
import { applyEditedGraph } from './facade/edited-plan';
import { continueRun, startRun, type StoredPlan } from './facade/execute-run';
import { principalAccess, type PrincipalAccess } from './access/principal-access';
import { withSourceScope } from './access/source-scope-policy';
import { cachedKnowledge, SourceReadCache } from './knowledge/source-read-cache';
import { wireModelCache } from './modelcache/model-cache-wiring';
import { RunLimiter } from './facade/run-limits';
import { RunOwnership } from './facade/run-ownership';
import type { RecoveredRun } from './facade/run-recovery';
import { OrphanSweeps } from './facade/orphan-sweeps';
import { awaitQueuedRun, executeQueuedWave } from './facade/queued-run';
import { planRequest, type PlannedRequest } from './facade/plan-request';
import type { RuntimePlugins } from './facade/runtime-plugins';
import { simulatePlan } from './facade/simulate-plan';
import { contextForPlan, validateTokenBudget, type GoalContext } from './facade/context-for-goal';
import { traceDecision } from './observability/decision-trace';
import { validatePrincipal, validateRunRequest } from './facade/validate-request';
import type { IngestReport, UploadedFile } from './contracts/store';
import { requireAdmin } from './facade/ingest-request';
import { ingestLocalPath, ingestServerPath, ingestUploadedFiles, type LocalIngestOptions, type UnderDeadline } from './facade/ingest-entry';
import { recordGateDecision, validateDecisionInput } from './facade/decide-approval';
import { cancelRun } from './facade/cancel-run';
import { underIngestDeadline } from './facade/ingest-deadline';
import type { RetentionReport } from './contracts/retention';
import type { Principal } from './types';
import type { RunOptions } from './facade/run-progress';

export abstract class ContextRuntimeCore {
  /** This process as the owner of the runs it executes (heartbeat, cancel). */
  private readonly ownership: RunOwnership;
  protected readonly sweeps: OrphanSweeps;

  protected readonly plugins: RuntimePlugins;
  /**
   * Source list and fingerprints between writes (knowledge/source-read-cache.ts). A config change
   * builds a new runtime, and with it an empty cache; every source write below invalidates it.
   */
  private readonly sourceReads: SourceReadCache;

  protected constructor(
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
  protected get learner(): BanditLearner {
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
  protected get queued(): boolean {
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
  protected async withCalibration(result: RunResult): Promise<RunResult> {
    if (!result.explain.analyze) return result;
    const state = await learningStateFor(this.plugins.observationStore, result.explain.costModel.version);
    return { ...result, explain: attachCalibration(result.explain, (field) => state.calibration(field, result.explain.intent.primary)) };
  }

  /** The one access check for one principal and request (access/principal-access.ts). */
  protected async accessFor(principal: Principal): Promise<PrincipalAccess> {
    // No default principal here: ANONYMOUS would read everything an operator may.
    if (principal === undefined || principal === null) throw invalidInput('principal', 'expected the user whose permissions decide what they may read');
    return principalAccess(this.plugins.policy, validatePrincipal(principal), await this.plugins.knowledge.sources());
  }

  /** A run the principal may not read is reported exactly as one that does not exist. */
  protected async loadRun(runId: string, access?: PrincipalAccess) {
    if (typeof runId !== 'string' || runId.trim() === '') throw invalidInput('runId', 'expected a run id');
    const record = await this.plugins.runStore.loadRun(runId);
    if (!record || (access && !access.mayReadRun(record))) throw new ContextRuntimeError('NOT_FOUND', `run ${runId} does not exist`, { field: 'runId' });
    return record;
  }
}
