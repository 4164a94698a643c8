/**
 * The approval inbox: every run paused at an approve node, with what approving releases and why
 * the plan was gated. An approver decides on evidence, so each entry carries the gate's stored
 * reason, the intent signals and policy reasons behind it, the draft answer waiting behind the gate
 * and the nodes that will still run after it — read from the durable run record, not re-planned.
 */
import type { RunRecord, RunStorePlugin } from '../contracts/run-store';
import type { VerificationResult } from '../contracts/verifier';
import type { RunResult } from '../explain/explain-types';
import type { Principal } from '../types';
import { type DecisionRights, decisionRights } from './approval-authority';
import { type ExecutionGraph, modelTokensOf } from '../ir/graph';
import { answerOutputsOf } from '../ir/node-outputs';
import { applicableRules } from '../planner/rules';
import { toRunResult, type StoredPlan } from './execute-run';

export interface PendingApproval {
  readonly run: RunResult;
  readonly user: string;
  readonly createdAt: string;
  /** When the run paused at the gate (its last status change). */
  readonly waitingSince: string;
  readonly gate: { readonly nodeId: string; readonly reason: string; readonly approverRole: string };
  /** Why the plan has a gate: the planner rules that demand one, intent classes and the analyzer signals that set them, and the policy's reasons. */
  readonly why: {
    readonly rules: readonly { readonly rule: string; readonly why: string }[];
    readonly intentClasses: readonly string[];
    readonly signals: readonly string[];
    readonly policyReasons: readonly string[];
  };
  /** The answer approving releases (already reasoned and verified before the gate). */
  readonly draft?: {
    readonly answer: string;
    readonly citations: number;
    readonly models: readonly string[];
    readonly verification?: Pick<VerificationResult, 'method' | 'passed' | 'confidence'>;
  };
  /** Nodes downstream of the gate: they run only once it is approved. */
  readonly after: readonly string[];
  readonly spent: { readonly costUsd: number; readonly tokens: number; readonly latencySeconds: number };
  /** What the principal who asked may decide here (the same rule the decision enforces); absent when no principal asked. */
  readonly rights?: DecisionRights;
}

/** Intent classes that carry a gate or a policy restriction; their signals explain the gate. */
const GATING_CLASSES = ['high_risk', 'sensitive'];

export interface PendingFilter {
  /** Only runs this user started (an operator's own waiting runs). */
  readonly user?: string;
  /** Only runs the caller may read (run-access.ts): a paused run's draft is made of its sources. */
  readonly mayRead?: (record: RunRecord) => boolean;
  /** The principal reading the inbox: each entry says what they may decide (their own run: reject only). */
  readonly decider?: Principal;
}

export async function pendingApprovals(runStore: RunStorePlugin, limit: number, filter: PendingFilter = {}): Promise<readonly PendingApproval[]> {
  const paused = await runStore.listRuns({ limit, status: 'awaiting_approval', ...(filter.user !== undefined ? { user: filter.user } : {}) });
  const records = await Promise.all(paused.map((summary) => runStore.loadRun(summary.id)));
  const waiting = records.filter((record): record is RunRecord => record?.status === 'awaiting_approval' && record.pendingNodeId !== undefined);
  return Object.freeze(waiting.filter((record) => filter.mayRead?.(record) ?? true).map((record) => describePending(record, filter.decider)));
}

export function describePending(record: RunRecord, decider?: Principal): PendingApproval {
  const { explain } = record.plan as StoredPlan;
  const graph = explain.graph;
  const gateNode = graph.nodes.find((node) => node.id === record.pendingNodeId);
  const { reasoned, verification } = answerOutputsOf(graph, record.nodeOutcomes);
  let costUsd = 0;
  let tokens = 0;
  let latencySeconds = 0;
  const kindOf = new Map(graph.nodes.map((node) => [node.id, node.kind]));
  for (const [nodeId, outcome] of record.nodeOutcomes) {
    costUsd += outcome.actual.costUsd;
    tokens += modelTokensOf(kindOf.get(nodeId) ?? '', outcome.actual);
    latencySeconds += outcome.actual.latencySeconds;
  }
  const approverRole = gateNode?.kind === 'approve' ? gateNode.approverRole : 'approver';
  return Object.freeze({
    run: toRunResult(record, explain, graph),
    user: record.user,
    createdAt: record.createdAt,
    waitingSince: record.updatedAt,
    gate: {
      nodeId: record.pendingNodeId!,
      reason: gateNode?.kind === 'approve' ? gateNode.reason : 'unknown gate',
      approverRole,
    },
    why: {
      rules: applicableRules(explain.intent)
        .filter((rule) => rule.approval)
        .map((rule) => ({ rule: `intent.${rule.intent}.approval`, why: rule.why })),
      intentClasses: explain.intent.classes,
      signals: explain.intent.signals.filter((signal) => GATING_CLASSES.some((intentClass) => signal.startsWith(intentClass))),
      policyReasons: explain.verificationPlan.reasons,
    },
    ...(reasoned
      ? {
          draft: {
            answer: reasoned.answer,
            citations: reasoned.citations.length,
            models: reasoned.modelCalls.map((call) => call.modelId),
            ...(verification ? { verification: { method: verification.method, passed: verification.passed, confidence: verification.confidence } } : {}),
          },
        }
      : {}),
    after: downstreamOf(graph, record.pendingNodeId!),
    spent: { costUsd, tokens, latencySeconds },
    ...(decider ? { rights: decisionRights(record, approverRole, decider) } : {}),
  });
}

/** Every node reachable from `nodeId` along input edges, in graph order (a fixed point: node order need not be topological). */
function downstreamOf(graph: ExecutionGraph, nodeId: string): string[] {
  const reached = new Set([nodeId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const node of graph.nodes) {
      if (!reached.has(node.id) && node.inputs.some((input) => reached.has(input))) {
        reached.add(node.id);
        grew = true;
      }
    }
  }
  reached.delete(nodeId);
  return graph.nodes.filter((node) => reached.has(node.id)).map((node) => node.id);
}

/** A paused run as the user who started it sees it: why and where it waits, without the draft. */
export type WaitingRun = Omit<PendingApproval, 'draft'> & {
  /** True when an answer is drafted behind the gate: it is released to its asker only by an approver's decision. */
  readonly draftWithheld: boolean;
};

/** The gate exists so nobody reads the answer before a human approves it, the asker included. */
export function withoutDraft({ draft, ...entry }: PendingApproval): WaitingRun {
  return Object.freeze({ ...entry, draftWithheld: draft !== undefined });
}
