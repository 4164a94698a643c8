/**
 * execute(): runs a planned Execution Graph through the scheduler, persisting every node outcome
 * (so approval gates survive restarts), tracing every node and model call, and feeding the
 * estimate-vs-actual pairs to the CostEstimator when the run completes.
 */
import { randomUUID } from 'node:crypto';
import type { RunRecord, RunStatus } from '../contracts/run-store';
import type { NodeExecutor, NodeOutcome } from '../contracts/scheduler';
import type { VerificationResult } from '../contracts/verifier';
import { valuesWithSources } from '../explain/contradiction-text';
import type { ExplainResult, RunResult } from '../explain/explain-types';
import { createNodeExecutor, type ExecutionDependencies } from '../execution/node-executors';
import { principalAccess } from '../access/principal-access';
import { cachedRouter } from '../modelcache/cached-router';
import { ANONYMOUS } from './validate-request';
import { answersGoal, type ExecutionGraph } from '../ir/graph';
import { answerNodeOf, answerOutputsOf, findNodesByRole, outputOf, verdictNodeOf } from '../ir/node-outputs';
import { RunTracer } from '../observability/run-tracer';
import { traceNode, traceSkippedNode } from '../observability/node-trace';
import { NodeSpanIds } from '../observability/trace-parent';
import { isSensitivePlan, tracePlanning } from '../observability/plan-trace';
import type { RuntimeConfig } from '../config/config-schema';
import type { RunRequest } from '../types';
import { scopeContradictions } from '../knowledge/goal-contradictions';
import { buildAnalyze } from './explain-builder';
import { storedExplain } from '../explain/stored-explain';
import { budgetLimitsShown } from '../explain/budget-text';
import type { PlannedRequest } from './plan-request';
import type { RuntimePlugins } from './runtime-plugins';
import type { RunOwnership } from './run-ownership';
import { withProgress, type RunProgressListener } from './run-progress';
import { nextWave } from './next-wave';
import { nodeDeadline } from './node-deadline';
import { recordRunFailure } from './run-failure-record';
import { ContextRuntimeError } from '../errors';
import { budgetLimitsOf, RunBudget } from '../execution/run-budget';
import { type BudgetSettled, budgetSettled } from './budget-settled';
import { OutcomeCheckpoint } from './outcome-checkpoint';
import { toolReadsFor } from './tool-reads';
import { OBSERVED_ENDS, observe, sumActuals } from './run-observation';

/** What a run record keeps to resume: the validated request and the whole plan. */
export interface StoredPlan {
  readonly request: RunRequest;
  readonly explain: ExplainResult;
}

export interface StoredResult {
  readonly answer?: string;
  readonly citations: RunResult['citations'];
  readonly verification?: VerificationResult;
  readonly caveats: readonly string[];
  /** The answer's summary node in the Knowledge Layer (stale once a cited source changes). */
  readonly answerNodeId?: string;
  /** Set when verification was required and failed on every attempt: the run ends `unverified`. */
  readonly unverified?: { readonly attempts: number; readonly reasons: readonly string[] };
}

export interface ContinueOptions {
  readonly tracer?: RunTracer;
  readonly onProgress?: RunProgressListener;
  /** Records this process as the run's owner (heartbeat) and lets a cancel abort it. */
  readonly ownership?: RunOwnership;
  /**
   * Executes only the next wave with unfinished nodes, then hands the run back to the job engine
   * (status `queued`, the next wave enqueued): a job engine has no DAGs, so the graph becomes one
   * job per wave and any worker may take the next one.
   */
  readonly oneWave?: boolean;
  /**
   * The caller has just written the record `running` under this owner (startRun): claiming it again
   * would be one more statement per run that cannot change anything. A cancel landing meanwhile
   * still wins: every later write is conditional on `running`, and the heartbeat stops the run.
   */
  readonly justCreated?: boolean;
}

/**
 * Records a planned run and executes it here, or with `queued` (a job engine executes runs) records
 * it `queued`, enqueues its first wave and returns at once: a worker process executes it.
 */
export async function startRun(plugins: RuntimePlugins, config: RuntimeConfig, planned: PlannedRequest, options: Omit<ContinueOptions, 'tracer' | 'oneWave'> & { readonly queued?: boolean } = {}): Promise<RunResult> {
  const runId = randomUUID();
  const tracer = new RunTracer(runId, plugins.traceSink);
  tracePlanning(tracer, planned, 'plan').end();
  const plan: StoredPlan = { request: planned.request, explain: storedExplain(planned.explain, config.retention.rejected_candidates_kept) };
  const owner = options.ownership && !options.queued ? { owner: options.ownership.instanceId } : {};
  const status = options.queued ? 'queued' : 'running';
  const user = planned.request.principal?.user ?? 'anonymous';
  await plugins.runStore.createRun({ id: runId, goal: planned.request.goal, planHash: planned.explain.planHash, plan, user, status, ...owner }).catch(async (error: unknown) => {
    // A connection lost mid-insert may have lost only the answer: the record may be there, `running`.
    if (!options.queued && !(error instanceof ContextRuntimeError && error.code === 'CONFLICT')) await recordRunFailure(plugins.runStore, runId, `the run stopped before it started: ${error instanceof Error ? error.message : String(error)}`, owner);
    throw error;
  });
  // The record as just written, not read back: reading the plan JSON back cost a round trip per
  // run (bench:loc --queries). This run itself keeps the whole EXPLAIN the caller planned.
  const now = new Date().toISOString();
  const record: RunRecord = { id: runId, goal: planned.request.goal, status, planHash: planned.explain.planHash, plan: { ...plan, explain: planned.explain }, user, createdAt: now, updatedAt: now, nodeOutcomes: new Map(), skipped: [], decisions: new Map(), ...owner };
  if (!options.queued) return continueRun(plugins, config, record, { ...options, tracer, justCreated: true });
  await tracer.flush();
  if (!plugins.scheduler.enqueue) throw new Error('this scheduler executes runs in process: it cannot queue one');
  await plugins.scheduler.enqueue(runId);
  return toRunResult(record, planned.explain, planned.explain.graph);
}

/** Sources flagged sensitive (at ingest or by the sticky flag) and those config names. */
async function sensitiveSourcesOf(plugins: RuntimePlugins, config: RuntimeConfig): Promise<readonly string[]> {
  const flagged = (await plugins.knowledge.sources()).filter((source) => source.sensitive).map((source) => source.name);
  return [...new Set([...flagged, ...config.policy.sensitive_sources])];
}

/**
 * Executes a run from its saved node outcomes (a fresh start, an approved gate, or an orphan a
 * restart recovered). Whatever throws marks the run failed with the reason before it propagates;
 * spans written so far are flushed either way.
 */
export async function continueRun(plugins: RuntimePlugins, config: RuntimeConfig, record: RunRecord, options: ContinueOptions = {}): Promise<RunResult> {
  const tracer = options.tracer ?? new RunTracer(record.id, plugins.traceSink);
  const signal = options.ownership?.begin(record.id);
  try {
    return await executeRecord(plugins, config, record, tracer, signal, options);
  } catch (error) {
    const reason = `the run stopped: ${error instanceof Error ? error.message : String(error)}`;
    // When this write fails too (the database is gone), it is retried until the database answers (run-failure-record.ts).
    await recordRunFailure(plugins.runStore, record.id, reason, options.ownership ? { owner: options.ownership.instanceId } : {});
    throw error;
  } finally {
    options.ownership?.end(record.id);
    // The first line only: a failed insert's message goes on to quote its parameters (span attributes, goals).
    await tracer.flush().catch((error: unknown) => console.warn(`run ${record.id}: spans were not written: ${(error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200)}`));
  }
}

/** The node executor for one planned request: its goal, its plan's identifiers, and the plugins that run each node kind. */
export async function nodeExecutorFor(plugins: RuntimePlugins, config: RuntimeConfig, request: RunRequest, explain: ExplainResult, budget?: RunBudget): Promise<NodeExecutor> {
  const graph = explain.graph;
  return createNodeExecutor({
    goal: request.goal,
    identifiers: explain.intent.identifiers.map((identifier) => identifier.value),
    entities: [...new Set([...explain.intent.entities, ...explain.intent.identifiers.map((identifier) => identifier.value)])],
    retrievers: new Map(plugins.retrievers.map((retriever) => [retriever.method, retriever])),
    rerankers: new Map((plugins.rerankers ?? []).map((reranker) => [reranker.method, reranker])),
    router: plugins.router,
    ...(await modelCacheRouting(plugins, request, explain)),
    ...(await toolReadsFor(plugins, request, explain)),
    reasoners: new Map(plugins.reasoners.map((reasoner) => [reasoner.strategy, reasoner])),
    compressions: new Map(plugins.compressions.map((compression) => [compression.method, compression])),
    ...(plugins.knowledge.compressedContexts ? { compressedContexts: plugins.knowledge.compressedContexts } : {}),
    verifiers: new Map(plugins.verifiers.map((verifier) => [verifier.method, verifier])),
    countTokens: plugins.countTokens,
    modelTimeoutMs: config.scheduler.node_timeout_ms,
    // The plan's local-only flag and the sensitive sources reach every model-calling plugin, which refuses a non-local model itself.
    localOnly: findNodesByRole(graph, 'reason').some((node) => node.localOnly),
    sensitiveSources: await sensitiveSourcesOf(plugins, config),
    sensitiveContent: config.policy.sensitive_content,
    ...(request.output_schema ? { outputSchema: request.output_schema } : {}),
    graph,
    ...(budget ? { budget } : {}),
  });
}

/**
 * With the model-context cache on: each reason node calls through it, its hits checked against
 * this caller's rights (the same policy that planned the run, API-key scope included) and the
 * sources' current versions.
 */
async function modelCacheRouting(plugins: RuntimePlugins, request: RunRequest, explain: ExplainResult): Promise<Pick<ExecutionDependencies, 'routerFor'>> {
  const cache = plugins.modelContextCache;
  if (!cache) return {};
  const access = principalAccess(plugins.policy, request.principal ?? ANONYMOUS, await plugins.knowledge.sources());
  const currentVersions = async () => new Map((await plugins.knowledge.sources()).map((source) => [source.name, source.versionId]));
  return {
    routerFor: (items, router) => cachedRouter(router, cache, { items, intentClass: explain.intent.primary, mayReadSources: (names) => access.mayReadSources(names), currentVersions }),
  };
}

async function executeRecord(plugins: RuntimePlugins, config: RuntimeConfig, record: RunRecord, tracer: RunTracer, signal: AbortSignal | undefined, options: ContinueOptions): Promise<RunResult> {
  const { request, explain } = record.plan as StoredPlan;
  const graph = explain.graph;
  const attempts = new Map<string, number>();
  const skipped = new Set(record.skipped);
  // Each node attempt runs under its span's id, so a model call's own telemetry joins the run's trace beneath it.
  const nodeSpans = new NodeSpanIds(record.id);
  // The request's limits at run time: a resumed run's budget starts from what its recorded nodes spent.
  const kinds = new Map(graph.nodes.map((node) => [node.id, node.kind]));
  const budget = new RunBudget(budgetLimitsOf(explain.constraints), { outcomes: record.nodeOutcomes, kindOf: (nodeId) => kinds.get(nodeId) ?? '' });
  const checkpoint = new OutcomeCheckpoint(plugins.runStore, record.id, () => tracer.flushBatched());
  const nodeExecutor = nodeSpans.wrap(await nodeExecutorFor(plugins, config, request, explain, budget));
  const executor: NodeExecutor = async (node, context) => {
    await checkpoint.before(node);
    return nodeExecutor(node, context);
  };
  // Conditional: a cancel (or another process finishing the run) that landed since the record was read wins.
  const claimed = options.justCreated || (await plugins.runStore.setStatus(record.id, 'running', { pendingNodeId: null, ...(options.ownership ? { owner: options.ownership.instanceId } : {}), onlyIf: ['queued', 'running', 'awaiting_approval'] }));
  if (claimed === false) return toRunResult((await plugins.runStore.loadRun(record.id))!, explain, graph);
  // A resumed run (approval, recovery, the next wave on a worker) has a fresh tracer: it learns the plan's sensitivity here.
  if (isSensitivePlan(explain)) tracer.markSensitive();
  const runSpan = tracer.start('run', 'run', undefined, { goal: request.goal, planHash: explain.planHash, candidate: explain.chosen.id });
  budget.begin();
  const planned = plugins.scheduler.schedule(graph, { concurrency: config.scheduler.concurrency });
  const cut = options.oneWave ? nextWave(planned, record, graph) : { schedule: planned, more: false };
  const decisions = new Map([...record.decisions].map(([nodeId, decision]) => [nodeId, decision.decision]));
  const hooks = withProgress(record.id, graph, explain.planHash, {
      onNodeDone: async (node, outcome, attempt) => {
        attempts.set(node.id, attempt);
        traceNode(tracer, runSpan.id, node, outcome, attempt, plugins.router.tiers(), nodeSpans.of(node.id, attempt));
        // Written at once only when losing it would cost money or a decision again (outcome-checkpoint.ts).
        await checkpoint.done(node, outcome, attempt);
      },
      onNodeSkipped: async (node, reason) => {
        checkpoint.skipped(node.id);
        skipped.add(node.id);
        traceSkippedNode(tracer, runSpan.id, node, reason);
      },
      onNodeFailed: (node, error, attempt, willRetry) => {
        const id = nodeSpans.of(node.id, attempt);
        tracer.record(`node.${node.id}.attempt${attempt}`, 'node', 0, { kind: node.kind, error: error instanceof Error ? error.message : String(error), willRetry }, runSpan.id, id ? { id } : {});
      },
    }, options.onProgress);
  const control = { signal, nodeTimeoutMs: nodeDeadline(config, plugins.router.tiers().length) };
  let result = await plugins.scheduler.run(graph, cut.schedule, executor, { completed: record.nodeOutcomes, skipped: new Set(record.skipped), decisions }, hooks, control);
  let more = cut.more;
  // One job's wave done: when all that remains would only be skipped (a gate's untaken retry), it
  // is skipped here rather than in jobs of its own (next-wave.ts).
  if (more && result.status === 'completed') {
    const rest = nextWave(planned, { nodeOutcomes: result.outcomes, skipped: [...skipped] }, graph);
    if (!rest.work) {
      result = await plugins.scheduler.run(graph, rest.schedule, executor, { completed: result.outcomes, skipped: new Set(skipped), decisions }, hooks, control);
      more = false;
    }
  }
  if (more && result.status === 'completed') {
    // Before the requeue: the worker that takes the next wave starts from the saved outcomes.
    await checkpoint.write();
    runSpan.end({ attributes: { status: 'queued' } });
    await tracer.flush();
    return requeue(plugins, record, explain, attempts);
  }
  const finished = await settle(plugins, record, budgetSettled(result, budget, graph), explain, checkpoint);
  const totals = sumActuals(graph, result.outcomes);
  runSpan.end({ tokens: totals.tokens, costUsd: totals.costUsd, status: result.status === 'failed' ? 'error' : 'ok', attributes: { status: result.status } });
  await tracer.flush();
  const answered = finished.status === 'completed' || finished.status === 'unverified';
  // An edited graph's actuals do not describe the candidate the cost model estimated: not learned from.
  // Failed and rejected runs are observed too (issue 16.3): what they spent, and accuracy 0 / risk 1,
  // so a plan shape that often fails is not estimated from its successes alone. An unverified run
  // answered: its failed verdict is the evidence the estimates need.
  if (OBSERVED_ENDS.has(finished.status) && !explain.edited) await observe(plugins, record.id, explain, result.outcomes, finished.stored, finished.status);
  // An answered run's record is what this process just wrote: built here, not read back (bench:loc
  // --queries: the plan and every node outcome's JSON again). Any other end may race a cancel: read.
  const reloaded = answered ? completedRecord(record, finished.status, finished.stored, result.outcomes, [...skipped]) : (await plugins.runStore.loadRun(record.id))!;
  return toRunResult(reloaded, explain, graph, attempts, result.status === 'failed' ? result.nodeId : undefined);
}

/** The record `settle` left behind for an answered run: no pending gate, no owner, the result stored. */
function completedRecord(record: RunRecord, status: RunStatus, stored: StoredResult | undefined, outcomes: ReadonlyMap<string, NodeOutcome>, skipped: readonly string[]): RunRecord {
  const { pendingNodeId: _pendingNodeId, owner: _owner, ...kept } = record;
  return { ...kept, status, ...(stored !== undefined ? { result: stored } : {}), updatedAt: new Date().toISOString(), nodeOutcomes: outcomes, skipped };
}

/**
 * Hands a run whose wave finished back to the engine. The status is written first: a worker takes
 * a job only for a `queued` run, so a job that started before the write would find nothing to do.
 * A cancel that landed meanwhile wins (the write is conditional on `running`).
 */
async function requeue(plugins: RuntimePlugins, record: RunRecord, explain: ExplainResult, attempts: ReadonlyMap<string, number>): Promise<RunResult> {
  const written = await plugins.runStore.setStatus(record.id, 'queued', { pendingNodeId: null, onlyIf: ['running'] });
  if (written !== false) await plugins.scheduler.enqueue?.(record.id, { resumed: true });
  return toRunResult((await plugins.runStore.loadRun(record.id))!, explain, explain.graph, attempts);
}

/**
 * Writes the run's end: its status, with the outcomes still waiting in the checkpoint saved in the
 * same write (the status's totals are summed from them).
 */
async function settle(plugins: RuntimePlugins, record: RunRecord, result: BudgetSettled, explain: ExplainResult, checkpoint: OutcomeCheckpoint): Promise<{ status: RunStatus; stored?: StoredResult }> {
  // Every write is conditional on `running`: a cancel that landed meanwhile is never overwritten.
  const onlyIf: readonly RunStatus[] = ['running'];
  // Aborted by a cancel (which wrote `cancelled` first) or because another process took the run
  // over after this one's heartbeat went stale: either way the record is not this process's to write.
  if (result.status === 'cancelled') {
    await checkpoint.write();
    return { status: 'cancelled' };
  }
  if (result.status === 'awaiting_approval') {
    await checkpoint.writeWithStatus('awaiting_approval', { pendingNodeId: result.nodeId, onlyIf });
    return { status: 'awaiting_approval' };
  }
  if (result.status === 'rejected') {
    await checkpoint.writeWithStatus('rejected', { pendingNodeId: null, onlyIf });
    return { status: 'rejected' };
  }
  if (result.status === 'failed') {
    await checkpoint.writeWithStatus('failed', { error: `node ${result.nodeId} failed: ${result.error}`, pendingNodeId: null, onlyIf });
    return { status: 'failed' };
  }
  let stored: StoredResult;
  try {
    const composed = await composeResult(plugins, result.outcomes, explain, result.budgetCaveat);
    const answerNodeId = await recordAnswer(plugins, record.id, explain.goal, composed);
    stored = answerNodeId ? { ...composed, answerNodeId } : composed;
  } catch (error) {
    // The run is failed with this reason (continueRun): what its nodes did is still kept, as a settled run's is.
    await checkpoint.write();
    throw error;
  }
  // A result is incomplete until it passes its verification policy: a required verdict that failed on every attempt ends it unverified.
  const status: RunStatus = stored.unverified ? 'unverified' : 'completed';
  const written = await checkpoint.writeWithStatus(status, { result: stored, pendingNodeId: null, onlyIf });
  return written === false ? { status: 'cancelled' } : { status, stored };
}

/**
 * A cited answer becomes derived knowledge (contracts/knowledge.ts recordAnswer). Unverified or
 * failed-verification answers are kept too, marked by the run's own record; an answer without
 * citations has nothing to be derived from and is not kept. Recording must not fail the run.
 */
async function recordAnswer(plugins: RuntimePlugins, runId: string, goal: string, result: StoredResult): Promise<string | undefined> {
  const chunkIds = [...new Set(result.citations.map((citation) => citation.chunkId))];
  if (!result.answer || chunkIds.length === 0 || !plugins.knowledge.recordAnswer) return undefined;
  try {
    return await plugins.knowledge.recordAnswer({ runId, goal, text: result.answer, chunkIds });
  } catch (error) {
    console.warn(`run ${runId}: the answer was not recorded as knowledge: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

async function composeResult(plugins: RuntimePlugins, outcomes: ReadonlyMap<string, NodeOutcome>, explain: ExplainResult, budgetCaveat?: string): Promise<StoredResult> {
  const { reasoned, verification, context } = answerOutputsOf(explain.graph, outcomes);
  // Every model call of the plan (a decomposition's hops too, a judge too) may have fallen back.
  const modelCalls = [...findNodesByRole(explain.graph, 'reason').flatMap((node) => outputOf(outcomes, node)?.modelCalls ?? []), ...findNodesByRole(explain.graph, 'verify').flatMap((node) => (outputOf(outcomes, node)?.modelCalls ?? []).slice(-1))];
  const caveats: string[] = budgetCaveat ? [budgetCaveat] : [];
  const unverified = unverifiedOf(explain.graph, outcomes, verification);
  if (unverified) caveats.push(`Not a verified answer: verification failed on ${unverified.attempts === 1 ? 'its only attempt' : `all ${unverified.attempts} attempts`} — ${unverified.reasons.join('; ')}`);
  else if (verification && !verification.passed) caveats.push(`Verification (${verification.method}) failed: ${verification.checks.filter((check) => !check.passed).map((check) => check.detail).join('; ')}`);
  for (const call of modelCalls) for (const fallback of call.fallbacks) caveats.push(`Model tier ${fallback.tier} failed (${fallback.error}); answered by tier ${call.tier}.`);
  // Every model-calling node reports what it held back from a non-local tier; the caveat counts them all.
  const held = findNodesByRole(explain.graph, 'reason').reduce(
    (sum, node) => {
      const passages = outputOf(outcomes, node)?.sensitivePassages;
      return { withheld: sum.withheld + (passages?.withheld ?? 0), redacted: sum.redacted + (passages?.redacted ?? 0) };
    },
    { withheld: 0, redacted: 0 },
  );
  if (held.withheld) caveats.push(`${held.withheld} passage(s) holding personal data or secrets were not sent to the non-local model tier (policy.sensitive_content).`);
  if (held.redacted) caveats.push(`${held.redacted} passage(s) went to the non-local model tier with personal data and secrets redacted (policy.sensitive_content: redact).`);
  if (explain.verificationPlan.requireCitations && reasoned && reasoned.citations.length === 0) caveats.push('The answer cites no evidence although citations were required.');
  if (context && context.dropped.length > 0) caveats.push(`${context.dropped.length} retrieved chunk(s) did not fit the context (${context.dropped.reduce((sum, item) => sum + item.tokens, 0)} tokens).`);
  const found = context ? await plugins.knowledge.contradictions(context.items.map((item) => item.hit.chunkId)) : [];
  // Retrieved context is wider than the goal: only disagreements the goal or its answer touches are caveats.
  const { concerning } = scopeContradictions(found, explain.intent, { text: reasoned?.answer ?? '', citations: reasoned?.citations ?? [] });
  for (const contradiction of concerning) {
    caveats.push(`Sources disagree on ${contradiction.subject} ${contradiction.attribute}: ${valuesWithSources(contradiction)}.`);
  }
  return { answer: reasoned?.answer, citations: reasoned?.citations ?? [], verification, caveats, ...(unverified ? { unverified } : {}) };
}

/** A required verdict that failed: how many attempts ran and why the last one failed. */
function unverifiedOf(graph: ExecutionGraph, outcomes: ReadonlyMap<string, NodeOutcome>, verification: VerificationResult | undefined): StoredResult['unverified'] {
  if (!verification || verification.passed || !verdictNodeOf(graph, answerNodeOf(graph, outcomes))?.required) return undefined;
  const attempts = findNodesByRole(graph, 'reason').filter((node) => answersGoal(node) && outcomes.has(node.id)).length;
  return { attempts, reasons: verification.checks.filter((check) => !check.passed).map((check) => `${check.name}: ${check.detail}`) };
}

export function toRunResult(record: RunRecord, explain: ExplainResult, graph: ExecutionGraph, attempts: ReadonlyMap<string, number> = new Map(), failedNodeId?: string): RunResult {
  const stored = record.result as StoredResult | undefined;
  const pendingNode = record.pendingNodeId ? graph.nodes.find((node) => node.id === record.pendingNodeId) : undefined;
  return {
    runId: record.id,
    status: record.status,
    answer: stored?.answer,
    citations: stored?.citations ?? [],
    verification: stored?.verification,
    caveats: stored?.caveats ?? [],
    ...(stored?.answerNodeId ? { answerNodeId: stored.answerNodeId } : {}),
    pendingApproval: pendingNode?.kind === 'approve' ? { nodeId: pendingNode.id, reason: pendingNode.reason } : undefined,
    error: record.error,
    explain: { ...explain, tokenBudget: spentBudget(explain, record), analyze: buildAnalyze(graph, record, attempts, failedNodeId, budgetLimitsShown(explain.constraints)) },
  };
}

/** The token budget as spent: what went into the context by source, and what was compressed or dropped. */
function spentBudget(explain: ExplainResult, record: RunRecord): ExplainResult['tokenBudget'] {
  const { context } = answerOutputsOf(explain.graph, record.nodeOutcomes);
  if (!context) return explain.tokenBudget;
  return { ...explain.tokenBudget, bySource: context.bySource, dropped: context.dropped, compressedTokensRemoved: context.compressedTokensRemoved };
}
