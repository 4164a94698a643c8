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
import { CostEstimator, type FieldStatistics } from './costmodel/cost-estimator';
import { calibrationReport, type CalibrationReport, type CalibrationReportOptions } from './costmodel/calibration-report';
import { ContextRuntimeError, invalidInput } from './errors';
import type { RunResult } from './explain/explain-types';
import { answerOutputsOf } from './ir/node-outputs';
import type { Thumb } from './learning/bandit-store';
import { toRunResult, type StoredPlan } from './facade/execute-run';
import { pendingApprovals, type PendingApproval, type WaitingRun, withoutDraft } from './facade/approval-inbox';
import { recentAnswers, type RecentAnswer } from './facade/recent-answers';
import { scopedKnowledge, type ScopedKnowledge } from './access/scoped-knowledge';
import { visibleDecisions, visibleRuns } from './access/visible-runs';
import { registeredRuntimeFactory, type RuntimeFactoryOptions } from './facade/runtime-factory';
import type { RuntimePlugins } from './facade/runtime-plugins';
import { pageLimit, validatedRunListFilter } from './facade/list-options';
import type { KnowledgePlugin } from './contracts/knowledge';
import type { PlanCachePlugin } from './contracts/plan-cache';
import type { ContextItem, Principal, SourceInfo } from './types';
import { ContextRuntimeCore } from './runtime-core';

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

export class ContextRuntime extends ContextRuntimeCore {
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

}
