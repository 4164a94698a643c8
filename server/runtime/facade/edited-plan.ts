/**
 * "Re-run an edited plan": an operator hands back an Execution Graph (typically one EXPLAIN showed,
 * with retrievals added, split per source or re-wired) and the runtime executes it for the goal.
 * The goal is planned as usual first, so policy, source selection and the approval/verification
 * gates are the planner's; the edit may reshape the graph but never widen that envelope:
 *   - retrievals read only the sources the plan selected (policy-allowed, not stale);
 *   - every method, tier, strategy, reranker and verifier must be a registered, available plugin;
 *   - a local-only plan stays local-only, a verified plan keeps its verify node, a gated plan keeps
 *     its approval node where the planner put it, and nothing can drop either from the run
 *     (edited-plan-gates.ts);
 *   - estimates are the planner's (by node id, else by kind), never the caller's, so an edit
 *     cannot make EXPLAIN ANALYZE look better than it is; a rerank node the planner did not place
 *     is estimated from its reranker's reported latency and cost;
 *   - a retriever or reranker that sends passages off the machine is refused where the plan is local-only.
 * Nodes are found by role (kind and purpose), not by id: a mixture's workers, critic or solvers
 * must be wired as their purpose needs (edited-plan-mixtures.ts).
 */
import { z } from 'zod';
import type { RuntimeConfig } from '../config/config-schema';
import { ContextRuntimeError } from '../errors';
import { answersGoal, createGraph, createNode, type ExecutionGraph, type GraphNode, type NodeEstimate } from '../ir/graph';
import { sha256Hex } from '../ir/plan-hash';
import { canonicalJson } from '../ir/serialize-graph';
import { validateGraph } from '../ir/validate-graph';
import { contextNodeOf, findNodesByRole } from '../ir/node-outputs';
import type { RerankerCapabilities } from '../contracts/reranker';
import type { PlannedRequest } from './plan-request';
import type { RuntimePlugins } from './runtime-plugins';
import { editedNodeSchema, type EditedNode } from './edited-node-schema';
import { checkGates } from './edited-plan-gates';
import { checkReasonWiring } from './edited-plan-mixtures';

/** Large enough for per-source × per-method × per-variant fan-out; bounded so one request cannot queue thousands of searches. */
export const MAX_EDITED_NODES = 500;

/** Kinds the executor can wire in an edited plan today (branch/merge outputs cannot feed compress). */
const EDITABLE_KINDS = new Set(['retrieve', 'fuse', 'rerank', 'compress', 'assemble', 'reason', 'verify', 'approve', 'branch']);

const graphSchema = z.object({ version: z.literal(1), nodes: z.array(z.unknown()).min(1).max(MAX_EDITED_NODES) });

const fail = (field: string, message: string) => new ContextRuntimeError('INVALID_GRAPH', message, { field });

export function applyEditedGraph(planned: PlannedRequest, edited: unknown, plugins: RuntimePlugins, config: RuntimeConfig): PlannedRequest {
  const started = performance.now();
  const document = graphSchema.safeParse(edited);
  if (!document.success) {
    const issue = document.error.issues[0];
    throw fail(['graph', ...(issue?.path ?? []).map(String)].join('.'), `graph: ${issue?.message ?? 'invalid'} (expected {version: 1, nodes: [1..${MAX_EDITED_NODES} nodes]})`);
  }
  const parsed: EditedNode[] = document.data.nodes.map((raw, index) => {
    const node = editedNodeSchema.safeParse(raw);
    if (node.success) return node.data;
    const issue = node.error.issues[0];
    const id = typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : String(index);
    throw fail(`graph.nodes.${id}${issue?.path.length ? `.${issue.path.join('.')}` : ''}`, `node ${id}: ${issue?.message ?? 'invalid'}`);
  });
  const estimates = plannerEstimates(parsed, planned.graph, plugins);
  const nodes = parsed.map((node) => createNode(node.kind, { ...node, estimate: estimates.get(node.id) } as never) as GraphNode);
  const graph = createGraph(nodes);
  validateGraph(graph);
  checkEnvelope(graph, planned, plugins, config);
  const planHash = sha256Hex(canonicalJson({ base: planned.explain.planHash, graph })).slice(0, 32);
  return {
    ...planned,
    graph,
    timings: { ...planned.timings, 'planner.edited_graph': performance.now() - started },
    explain: { ...planned.explain, graph, planHash, edited: { basePlanHash: planned.explain.planHash, plannerNodes: planned.graph.nodes.length, nodes: graph.nodes.length } },
  };
}

const NO_ESTIMATE: NodeEstimate = Object.freeze({ tokens: 0, costUsd: 0, latencySeconds: 0 });

function plannerEstimates(nodes: readonly EditedNode[], plannedGraph: ExecutionGraph, plugins: RuntimePlugins): ReadonlyMap<string, NodeEstimate> {
  const plannedById = new Map(plannedGraph.nodes.map((node) => [node.id, node]));
  const editedById = new Map(nodes.map((node) => [node.id, node]));
  const estimates = new Map<string, NodeEstimate>();
  const estimateOf = (node: EditedNode, visiting: ReadonlySet<string>): NodeEstimate => {
    const known = estimates.get(node.id);
    if (known) return known;
    const same = plannedById.get(node.id);
    const method = node.kind === 'retrieve' ? node.method : undefined;
    const sibling =
      same && same.kind === node.kind && same.estimate
        ? same
        : (plannedGraph.nodes.find((candidate) => candidate.kind === node.kind && (method === undefined || (candidate.kind === 'retrieve' && candidate.method === method))) ?? plannedGraph.nodes.find((candidate) => candidate.kind === node.kind));
    let estimate = sibling?.estimate ?? NO_ESTIMATE;
    if (!sibling?.estimate && node.kind === 'rerank') {
      // The planner places no rerank nodes yet: the reranker's own figures, passing on its input's evidence.
      const input = editedById.get(node.inputs[0] ?? '');
      const passed = input && !visiting.has(input.id) ? estimateOf(input, new Set([...visiting, node.id])).tokens : 0;
      estimate = rerankEstimate(plugins.rerankers?.find((reranker) => reranker.method === node.method)?.capabilities(), passed);
    }
    estimates.set(node.id, estimate);
    return estimate;
  };
  for (const node of nodes) estimateOf(node, new Set([node.id]));
  return estimates;
}

function rerankEstimate(capabilities: RerankerCapabilities | undefined, tokens: number): NodeEstimate {
  const modelTokens = capabilities?.tokensPerQuery ?? 0;
  return { tokens, costUsd: capabilities?.costUsdPerQuery ?? 0, latencySeconds: (capabilities?.latencyMs ?? 0) / 1000, ...(modelTokens > 0 ? { modelTokens } : {}) };
}

function checkEnvelope(graph: ExecutionGraph, planned: PlannedRequest, plugins: RuntimePlugins, config: RuntimeConfig): void {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const allowedSources = new Set(planned.explain.selectedSources);
  const retrievers = new Map(plugins.retrievers.map((retriever) => [retriever.method, retriever.capabilities()]));
  const rerankers = new Map((plugins.rerankers ?? []).map((reranker) => [reranker.method, reranker.capabilities()]));
  const tiers = new Map(plugins.router.tiers().map((tier) => [tier.name, tier]));
  const plannedReasons = findNodesByRole(planned.graph, 'reason');
  const plannedLocalOnly = plannedReasons.some((node) => node.localOnly);
  const plannedMaxOutputTokens = Math.max(0, ...plannedReasons.map((node) => node.maxOutputTokens));
  const kindOf = (id: string) => byId.get(id)?.kind;
  const isBridge = (id: string) => { const found = byId.get(id); return found?.kind === 'reason' && found.purpose === 'bridge'; };
  const isDecompose = (id: string) => { const found = byId.get(id); return found?.kind === 'reason' && found.purpose === 'decompose'; };
  const evidence = (id: string) => kindOf(id) === 'retrieve' || kindOf(id) === 'fuse' || kindOf(id) === 'rerank';
  // A verification gate (verification-gate.ts): a retry attempt's retrievals start behind it.
  const gate = (id: string) => kindOf(id) === 'branch';
  for (const node of graph.nodes) {
    const field = `graph.nodes.${node.id}`;
    if (!EDITABLE_KINDS.has(node.kind)) throw fail(field, `node ${node.id}: ${node.kind} nodes cannot be executed in an edited plan (editable kinds: ${[...EDITABLE_KINDS].join(', ')})`);
    if (node.timeoutMs !== undefined && node.timeoutMs > config.scheduler.node_timeout_ms) throw fail(`${field}.timeoutMs`, `node ${node.id}: timeoutMs may not exceed the configured ${config.scheduler.node_timeout_ms} ms`);
    switch (node.kind) {
      case 'retrieve': {
        const capability = retrievers.get(node.method);
        if (!capability?.available) throw fail(`${field}.method`, `node ${node.id}: retriever "${node.method}" is ${capability ? `unavailable (${capability.unavailableReason ?? 'no reason given'})` : `not registered (registered: ${[...retrievers.keys()].join(', ')})`}`);
        if (plannedLocalOnly && capability.sendsPassagesOffMachine) throw fail(`${field}.method`, `node ${node.id}: policy keeps this goal on local models; retriever "${node.method}" sends passages to a remote model`);
        const outside = node.sources.filter((source) => !allowedSources.has(source));
        if (outside.length > 0) throw fail(`${field}.sources`, `node ${node.id}: sources ${outside.join(', ')} are outside what the plan may read (${[...allowedSources].join(', ')})`);
        if (node.feedback && (!node.inputs.includes(node.feedback.fromNode) || !evidence(node.feedback.fromNode))) throw fail(`${field}.feedback.fromNode`, `node ${node.id}: feedback must come from one of its retrieve/fuse inputs`);
        if (node.quotedTitlesFrom !== undefined && (!node.inputs.includes(node.quotedTitlesFrom) || !evidence(node.quotedTitlesFrom))) throw fail(`${field}.quotedTitlesFrom`, `node ${node.id}: quotedTitlesFrom must name one of its retrieve/fuse inputs`);
        if (node.within !== undefined && !capability.timeWindows) throw fail(`${field}.within`, `node ${node.id}: retriever "${node.method}" cannot search by time window (methods that can: ${[...retrievers.values()].filter((found) => found.timeWindows).map((found) => found.method).join(', ') || 'none'})`);
        if (node.anchoredOn !== undefined && (node.within === undefined || !node.inputs.includes(node.anchoredOn) || !evidence(node.anchoredOn))) throw fail(`${field}.anchoredOn`, `node ${node.id}: anchoredOn must name one of its retrieve/fuse inputs, on a node searching within a time window`);
        if (node.lookupOnly && !capability.lookupOnly) throw fail(`${field}.lookupOnly`, `node ${node.id}: retriever "${node.method}" cannot search lookup-only passages (methods that can: ${[...retrievers.values()].filter((found) => found.lookupOnly).map((found) => found.method).join(', ') || 'none'})`);
        if (node.bridgeFrom !== undefined && (!node.inputs.includes(node.bridgeFrom) || !isBridge(node.bridgeFrom))) throw fail(`${field}.bridgeFrom`, `node ${node.id}: bridgeFrom must name one of its inputs, a reason node with purpose bridge`);
        if (node.subQuestionOf !== undefined && (!node.inputs.includes(node.subQuestionOf.node) || !isDecompose(node.subQuestionOf.node))) throw fail(`${field}.subQuestionOf`, `node ${node.id}: subQuestionOf must name one of its inputs, a reason node with purpose decompose`);
        if (!node.inputs.every((input) => evidence(input) || gate(input) || input === node.bridgeFrom || input === node.subQuestionOf?.node)) throw fail(`${field}.inputs`, `node ${node.id}: a retrieval may only wait for other retrievals, fusions, a verification gate, or the bridge hop or decompose node it searches for`);
        break;
      }
      case 'fuse':
        if (node.inputs.length === 0 || !node.inputs.every(evidence)) throw fail(`${field}.inputs`, `node ${node.id}: fuse needs retrieve, fuse or rerank inputs`);
        break;
      case 'rerank': {
        const capability = rerankers.get(node.method);
        if (!capability?.available) throw fail(`${field}.method`, `node ${node.id}: reranker "${node.method}" is ${capability ? `unavailable (${capability.unavailableReason ?? 'no reason given'})` : 'not registered'} (registered: ${[...rerankers.keys()].join(', ') || 'none'})`);
        if (plannedLocalOnly && capability.sendsPassagesOffMachine) throw fail(`${field}.method`, `node ${node.id}: policy keeps this goal on local models; reranker "${node.method}" sends passages to a remote model`);
        if (node.inputs.length !== 1 || !evidence(node.inputs[0])) throw fail(`${field}.inputs`, `node ${node.id}: rerank takes exactly one retrieve, fuse or rerank input`);
        break;
      }
      case 'compress':
        if (!plugins.compressions.some((compression) => compression.method === node.method)) throw fail(`${field}.method`, `node ${node.id}: compression "${node.method}" is not registered`);
        if (node.inputs.length !== 1 || !evidence(node.inputs[0])) throw fail(`${field}.inputs`, `node ${node.id}: compress takes exactly one retrieve, fuse or rerank input`);
        break;
      case 'assemble':
        if (node.inputs.length !== 1 || kindOf(node.inputs[0]) !== 'compress') throw fail(`${field}.inputs`, `node ${node.id}: assemble takes exactly one compress input`);
        if (node.tokenBudget > planned.explain.tokenBudget.budget) throw fail(`${field}.tokenBudget`, `node ${node.id}: the plan's context budget is ${planned.explain.tokenBudget.budget} tokens`);
        break;
      case 'reason': {
        const tier = tiers.get(node.tier);
        if (!tier?.available) throw fail(`${field}.tier`, `node ${node.id}: model tier "${node.tier}" is ${tier ? 'unavailable' : 'not configured'}`);
        const reasoner = plugins.reasoners.find((candidate) => candidate.strategy === node.strategy);
        if (!reasoner) throw fail(`${field}.strategy`, `node ${node.id}: reasoning strategy "${node.strategy}" is not registered`);
        if (reasoner.requiresToolCalls && tier.capabilities.toolCalls !== true) throw fail(`${field}.tier`, `node ${node.id}: ${node.strategy} needs a tier with tool calls (config tools: true), and "${node.tier}" has none`);
        if (node.maxOutputTokens > plannedMaxOutputTokens) throw fail(`${field}.maxOutputTokens`, `node ${node.id}: the plan allows ${plannedMaxOutputTokens} output tokens`);
        if (plannedLocalOnly && (!node.localOnly || tier.capabilities.local !== true)) throw fail(`${field}.localOnly`, `node ${node.id}: policy keeps this goal on local models`);
        break;
      }
      case 'verify':
        if (node.method === 'llm_judge') {
          const judge = node.tier === undefined ? undefined : tiers.get(node.tier);
          if (!judge?.available) throw fail(`${field}.tier`, `node ${node.id}: the judge's model tier "${node.tier ?? ''}" is ${judge ? 'unavailable' : 'not configured'}`);
          if (plannedLocalOnly && judge.capabilities.local !== true) throw fail(`${field}.tier`, `node ${node.id}: policy keeps this goal on local models`);
        } else if (node.method === 'output_schema') {
          if (planned.request.output_schema === undefined) throw fail(`${field}.method`, `node ${node.id}: the request carries no output_schema to check`);
        } else if (!plugins.verifiers.some((verifier) => verifier.method === node.method)) throw fail(`${field}.method`, `node ${node.id}: verifier "${node.method}" is not registered`);
        break;
      case 'branch': {
        // Only the gate a required verification puts after its verdict: "<verify input>.passed".
        const [source, property] = node.condition.split('.');
        if (property !== 'passed' || kindOf(source) !== 'verify' || !node.inputs.includes(source)) throw fail(`${field}.condition`, `node ${node.id}: a branch in an edited plan gates on one of its verify inputs ("<verify id>.passed")`);
        break;
      }
    }
  }
  // Found by role, not by id: a decomposition's bridge hops are reason nodes too, but only one node answers.
  const reasons = findNodesByRole(graph, 'reason');
  // A retry attempt's answering node sits behind a verification gate; exactly one answers first.
  const behindGate = (id: string, seen = new Set<string>()): boolean => !seen.has(id) && (gate(id) || (byId.get(id)?.inputs ?? []).some((input) => behindGate(input, seen.add(id))));
  const answering = reasons.filter(answersGoal);
  const answers = answering.filter((node) => !behindGate(node.id));
  if (answers.length !== 1) throw fail('graph.nodes', `an edited plan has exactly one reason node that answers first (found ${answers.length})`);
  // Each reason node reads what its purpose needs: bridge hops' names, a mixture's sub-questions, workers or solvers.
  checkReasonWiring(graph, plugins);
  const answer = answers[0];
  const context = contextNodeOf(graph, answer)!;
  const plannedVerify = findNodesByRole(planned.graph, 'verify')[0];
  const verifies = findNodesByRole(graph, 'verify');
  if (plannedVerify && !verifies.some((verify) => verify.method === plannedVerify.method)) throw fail('graph.nodes.verify', `the plan verifies with ${plannedVerify.method}; an edit may not drop or change that`);
  for (const verify of verifies) {
    // Each check reads one answering node (the first answer, or a retry's) and that node's context.
    const checked = answering.find((node) => verify.inputs.includes(node.id)) ?? answer;
    const checkedContext = contextNodeOf(graph, checked) ?? context;
    if (!verify.inputs.includes(checked.id) || !verify.inputs.includes(checkedContext.id)) throw fail(`graph.nodes.${verify.id}.inputs`, `node ${verify.id}: needs the answering reason node (${checked.id}) and its assemble node (${checkedContext.id}) as inputs`);
  }
  // A required verification stays required: an edit may not turn "unverified" into "completed".
  if (findNodesByRole(planned.graph, 'verify').some((node) => node.required) && !verifies.some((node) => node.required && node.inputs.includes(answer.id))) throw fail('graph.nodes.verify', 'the plan requires verification; an edit must keep a verify node with required: true reading the answer');
  checkGates(graph, planned.graph);
}
