/**
 * The `planner` method: for each query the runtime plans as it would for a user
 * (`runtime.plan({ goal })`: IntentAnalyzer → candidates → CostModel → Optimizer → graph), then
 * only the retrieval part of the chosen graph runs: its first attempt's retrieve and fuse nodes (a
 * verification gate's retry attempts run only when a verdict fails, and none is reached here), through the
 * runtime's own node executor and registered retrievers. The context is packed with the plan's
 * assemble node (its budget, final_k and source coverage), without compression or a model call.
 */
import { assembleContext } from '../../server/runtime/execution/assemble-context';
import { createNodeExecutor, type RetrievedOutput } from '../../server/runtime/execution/node-executors';
import type { ExecutionGraph, GraphNode } from '../../server/runtime/ir/graph';
import type { PlannedRequest } from '../../server/runtime/facade/plan-request';
import type { Hit } from '../../server/runtime/types';
import type { BeirQuery } from './beir-dataset';
import type { BenchRuntime } from './bench-runtime';
import { itemsOf, type QueryRun, queryRun, type RunEnvironment } from './method-runs';
import { type PlannerOverhead, timedRetrievers } from './planner-overhead';

const RETRIEVAL_KINDS = new Set<GraphNode['kind']>(['retrieve', 'fuse', 'rerank']);

/**
 * Nodes that run only when a branch takes them, and everything downstream of them: a required
 * verification's retry attempts (retrieve-retry2-… behind `gate`). The bench executes retrieval
 * only, so no verdict exists and no gate asks for another attempt; a run would skip them too when
 * the first attempt verifies. Running them anyway (s23) timed retrievals whose hits were never scored.
 */
export function gatedNodes(graph: ExecutionGraph): ReadonlySet<string> {
  const branches = new Set(graph.nodes.filter((node) => node.kind === 'branch').map((node) => node.id));
  const gated = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const node of graph.nodes) {
      if (gated.has(node.id) || branches.has(node.id)) continue;
      if (node.inputs.some((input) => branches.has(input) || gated.has(input))) {
        gated.add(node.id);
        grew = true;
      }
    }
  }
  return gated;
}

/**
 * Retrieval nodes that wait for a model call, and retrievals downstream of them: a decomposing
 * reasoner's bridge hop (retrieve-hop1 searches with the name reason-hop1 read) or a mixture's
 * sub-question retrievals. Retrieval-only execution calls no model, so such a plan is scored on the
 * retrieval its first model call reads (the first hop's evidence).
 */
export function modelFedNodes(graph: ExecutionGraph): ReadonlySet<string> {
  const kindOf = new Map(graph.nodes.map((node) => [node.id, node.kind]));
  const fed = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const node of graph.nodes) {
      if (fed.has(node.id) || !RETRIEVAL_KINDS.has(node.kind)) continue;
      const waitsForModel = node.inputs.some((input) => fed.has(input) || (kindOf.has(input) && !RETRIEVAL_KINDS.has(kindOf.get(input)!) && kindOf.get(input) !== 'branch'));
      if (waitsForModel) {
        fed.add(node.id);
        grew = true;
      }
    }
  }
  return fed;
}

/** The first attempt's retrieval nodes that need no model call, in an order where every input comes first (the graph lists them so; checked anyway). */
export function retrievalOrder(graph: ExecutionGraph): GraphNode[] {
  const gated = gatedNodes(graph);
  const fed = modelFedNodes(graph);
  const pending = graph.nodes.filter((node) => RETRIEVAL_KINDS.has(node.kind) && !gated.has(node.id) && !fed.has(node.id));
  const ids = new Set(pending.map((node) => node.id));
  const done = new Set<string>();
  const ordered: GraphNode[] = [];
  while (pending.length > 0) {
    const index = pending.findIndex((node) => node.inputs.every((input) => done.has(input) || !ids.has(input)));
    if (index < 0) throw new Error(`retrieval nodes form a cycle: ${pending.map((node) => node.id).join(', ')}`);
    const [node] = pending.splice(index, 1);
    ordered.push(node);
    done.add(node.id);
  }
  return ordered;
}

/** "bm25", "hybrid+dense", "bm25+feedback": the methods of the first attempt's retrieve nodes (what runs), for the choice tally. */
export const choiceOf = (graph: ExecutionGraph): string =>
  retrievalOrder(graph)
    .filter((node) => node.kind === 'retrieve')
    .map((node) => (node.kind === 'retrieve' ? `${node.method}${node.feedback ? '(feedback)' : node.focus === 'entities' ? '(entities)' : ''}` : ''))
    .join('+');

/** `spent` (optional) adds up the time the retrieve nodes spend inside the retrievers' own search calls. */
export async function executeRetrieval(bench: BenchRuntime, planned: PlannedRequest, spent?: { ms: number }): Promise<readonly Hit[]> {
  const { explain, graph } = planned;
  const executor = createNodeExecutor({
    goal: planned.request.goal,
    identifiers: explain.intent.identifiers.map((identifier) => identifier.value),
    entities: [...new Set([...explain.intent.entities, ...explain.intent.identifiers.map((identifier) => identifier.value)])],
    retrievers: spent ? timedRetrievers(bench.plugins.retrievers, spent) : new Map(bench.plugins.retrievers.map((retriever) => [retriever.method, retriever])),
    router: bench.plugins.router,
    reasoners: new Map(),
    compressions: new Map(),
    verifiers: new Map(),
    countTokens: bench.plugins.countTokens,
    modelTimeoutMs: 60_000,
  });
  const outputs = new Map<string, unknown>();
  const signal = new AbortController().signal;
  for (const node of retrievalOrder(graph)) {
    const inputs = new Map(node.inputs.filter((input) => outputs.has(input)).map((input) => [input, outputs.get(input)]));
    outputs.set(node.id, (await executor(node, { attempt: 1, inputs, signal })).output);
  }
  const compress = graph.nodes.find((node) => node.kind === 'compress');
  const last = compress?.inputs[0] ?? [...outputs.keys()].pop();
  return (outputs.get(last ?? '') as RetrievedOutput | undefined)?.hits ?? [];
}

/** `overhead` (optional) records each query's path, plan() and retriever-search times. */
export function plannerRunner(bench: BenchRuntime, environment: RunEnvironment, overhead?: PlannerOverhead): (query: BeirQuery) => Promise<QueryRun> {
  return async (query) => {
    const started = performance.now();
    const planned = await bench.runtime.plan({ goal: query.text });
    const planMs = performance.now() - started;
    const spent = { ms: 0 };
    const hits = await executeRetrieval(bench, planned, spent);
    const latencyMs = performance.now() - started;
    // What plan() queued behind the request (the plan-cache row write, a miss's near-miss diagnosis)
    // runs here, off the record, and is reported on its own: left to drain while the next query runs,
    // its PGlite statements landed inside that query's awaits and were timed as plan() stages and as
    // the retrievers' own search (HotpotQA, session 41: search p50 17.4 → 7.4 ms once flushed).
    const behindStarted = performance.now();
    await bench.plugins.planCache?.flush?.();
    overhead?.record({ pathMs: latencyMs, planMs, retrieverMs: spent.ms, behindMs: performance.now() - behindStarted, stages: planned.timings });
    const assemble = planned.graph.nodes.find((node) => node.kind === 'assemble');
    const context =
      assemble?.kind === 'assemble'
        ? assembleContext(itemsOf(hits), assemble.tokenBudget, assemble.finalK, assemble.coverSources)
        : assembleContext(itemsOf(hits), environment.budget, 8);
    return queryRun(environment, query, hits, context, latencyMs, choiceOf(planned.graph));
  };
}
