/**
 * Executes one Execution Graph node through the plugins. Outputs are plain JSON, because the
 * scheduler persists them: a run paused at an approval gate resumes from them after a restart.
 */
import type { CompressedContextStore, CompressionPlugin } from '../contracts/compression';
import { compressionLineage } from '../compression/compression-lineage';
import { compressionKey, keepCompression, servedCompression } from '../compression/compressed-context-reuse';
import type { KnowledgeFact, ReasonerPlugin, ReasonResult } from '../contracts/reasoner';
import type { RerankerPlugin } from '../contracts/reranker';
import type { RetrievalQuery, RetrievalSpend, RetrieverPlugin } from '../contracts/retriever';
import type { CallAdmission, RouterPlugin } from '../contracts/router';
import type { NodeExecutor, NodeOutcome } from '../contracts/scheduler';
import type { VerifierPlugin, VerificationResult } from '../contracts/verifier';
import { ContextRuntimeError } from '../errors';
import type { SensitiveContentMode } from '../policy/sensitive-content-detector';
import { answersGoal, type ExecutionGraph, type GraphNode, type NodeOfKind } from '../ir/graph';
import { mixtureInputs, subQuestionFor } from './mixture-inputs';
import { type AssembledContext, type BranchOutput, type CompressedOutput, type RetrievedOutput, type SourceSearch, typedInputs } from '../ir/node-outputs';
import type { ContextItem, Hit } from '../types';
import { assembleContext } from './assemble-context';
import { keepCompetitiveSources } from './competitive-sources';
import { canScope, keepSourcesAboutGoal, scopeToEntities } from './entity-scope';
import { seriesSummariesFirst } from './series-summaries-first';
import { asksExtreme } from '../text/reading-question';
import { excludedTerms, withoutSetAside } from '../text/set-aside-phrases';
import { followQuotedTitles, TITLE_SEARCH_K } from './quoted-title-hop';
import { compoundNames, joinedPattern, namedEntities } from '../text/named-entities';
import { feedbackTerms } from './query-feedback';
import { reciprocalRankFusion } from './rrf-fusion';
import { goalNames, withSearchLeaders } from './fusion-leaders';
import { kindsNamedByWord } from '../planner/named-source-kinds';
import { searchEachTimed, searchInTurn } from './search-calls';
import { lookupParts, settingChanges, settingLookupRank, withSettingChange, withSettingLookup } from './setting-lookup';
import { askedSettingTerms } from '../planner/setting-question';
import { judgeGroundedness } from '../verification/groundedness-judge';
import { outputSchemaCheck } from '../verification/output-schema-verifier';
import { foldVerdicts } from '../verification/verdict-chain';
import type { RunBudget } from './run-budget';
import { runTools } from './run-tools';
import { CROSSING_OVERFETCH, EVENT_OVERFETCH, nearestEventFirst, stampedSearchOf } from './event-anchored-window';

/** How many times k a search over several sources asks for, so k hits remain once scoped to the goal. */
const SCOPED_OVERFETCH = 2;
/**
 * How much further a source's list is read for its series summaries when a goal asks for an extreme:
 * kafka-2's disk series was 6th of kdp-metrics, under five windows of rows repeating the goal's
 * connector name (freight dev d82), with 3 kept per source.
 */
const SUMMARY_OVERFETCH = 3;

export interface ExecutionDependencies {
  readonly goal: string;
  readonly identifiers: readonly string[];
  /** The goal's entities and identifiers: the query of an entity-focused retrieval. */
  readonly entities: readonly string[];
  readonly retrievers: ReadonlyMap<string, RetrieverPlugin>;
  /** Rerankers by method, for `rerank` nodes; absent = none registered. */
  readonly rerankers?: ReadonlyMap<string, RerankerPlugin>;
  readonly router: RouterPlugin;
  /**
   * The router one reason node calls through, given its context and the attempt's own router (the
   * model-context cache wraps the budget-admitted router, so a hit spends nothing); absent = that router.
   */
  readonly routerFor?: (context: readonly ContextItem[], router: RouterPlugin) => RouterPlugin;
  readonly reasoners: ReadonlyMap<string, ReasonerPlugin>;
  readonly compressions: ReadonlyMap<string, CompressionPlugin>;
  /** Where lossy compressions are kept and served again while their sources are current; absent = always computed. */
  readonly compressedContexts?: CompressedContextStore;
  readonly verifiers: ReadonlyMap<string, VerifierPlugin>;
  readonly countTokens: (text: string) => number;
  readonly modelTimeoutMs: number;
  /** The plan keeps passages on local models: every model-calling plugin is told, and refuses a non-local one itself. */
  readonly localOnly?: boolean;
  /** Sources whose passages never reach a non-local model (flagged at ingest or in config). */
  readonly sensitiveSources?: readonly string[];
  /** What a reasoner does with a passage holding personal data or secrets bound for a non-local tier. */
  readonly sensitiveContent?: SensitiveContentMode;
  /** The request's output_schema (a JSON Schema), for `output_schema` verify nodes; absent = none asked for. */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  /** The graph being run: a verify node finds its answer and context among its inputs by their kind. */
  readonly graph?: ExecutionGraph;
  /** The run's budget: every node runs under its deadline, every model call is admitted by it first. */
  readonly budget?: RunBudget;
  /**
   * What a tool-calling reasoner's tools may read: the plan's sources this run's principal may read,
   * and the Knowledge Layer's facts about a subject (filtered to those sources). Absent: no sources.
   */
  readonly toolReads?: { readonly sources: readonly string[]; readonly facts?: (entity: string) => Promise<readonly KnowledgeFact[]> };
}

export type { CompressedOutput, RetrievedOutput, SourceSearch } from '../ir/node-outputs';

/** Small k: across sources, rank position matters more than the sources' incomparable raw scores. */
const STRATIFIED_RRF_K = 10;

function only<T>(inputs: ReadonlyMap<string, unknown>): T {
  const values = [...inputs.values()];
  if (values.length === 0) throw new ContextRuntimeError('NODE_FAILED', 'node has no completed input');
  return values[values.length - 1] as T;
}

function plugin<T>(registry: ReadonlyMap<string, T>, key: string, what: string): T {
  const found = registry.get(key);
  if (!found) throw new ContextRuntimeError('NODE_FAILED', `no ${what} plugin "${key}" is registered`);
  return found;
}

type Step = Omit<NodeOutcome, 'actual'> & { tokens: number; costUsd: number; modelTokens?: number };

/** Sums what a model-calling plugin (an LLM reranker) reports per call: the node's model cost. */
function spendCollector() {
  let tokens = 0;
  let costUsd = 0;
  return {
    onSpend: (spend: RetrievalSpend) => {
      tokens += spend.inputTokens + spend.outputTokens;
      costUsd += spend.costUsd;
    },
    step: (hits: readonly Hit[]) => ({ tokens: hits.reduce((sum, hit) => sum + hit.tokens, 0), costUsd, ...(tokens > 0 ? { modelTokens: tokens } : {}) }),
  };
}

function reranker(registry: ReadonlyMap<string, RerankerPlugin> | undefined, method: string): RerankerPlugin {
  const found = registry?.get(method);
  const registered = [...(registry?.keys() ?? [])].join(', ') || 'none';
  if (!found) throw new ContextRuntimeError('NODE_FAILED', `no reranker "${method}" is registered (registered: ${registered})`);
  const capabilities = found.capabilities();
  if (!capabilities.available) throw new ContextRuntimeError('NODE_FAILED', `reranker "${method}" is unavailable: ${capabilities.unavailableReason ?? 'no reason given'} (registered: ${registered})`);
  return found;
}

/** The names a bridge reason node (the retrieve node's `bridgeFrom` input) found; none when it found none. */
function bridgeNames(graph: ExecutionGraph | undefined, node: NodeOfKind<'retrieve'>, inputs: ReadonlyMap<string, unknown>): readonly string[] {
  if (!graph) throw new ContextRuntimeError('NODE_FAILED', `retrieve node ${node.id}: the executor was not given the graph`);
  const hop = typedInputs(graph, node, inputs).find((input) => input.node.id === node.bridgeFrom);
  if (hop?.kind !== 'reason') throw new ContextRuntimeError('NODE_FAILED', `retrieve node ${node.id}: bridgeFrom ${node.bridgeFrom} is not a completed reason input`);
  return hop.output.bridge ?? [];
}

/**
 * A record the evidence names by its quoted title is found twice over: by the evidence that names it
 * and by its title's own search. As one list of RRF it ranked below every hit two searches shared,
 * and the final cut dropped it (issue 10, freight tune q15: the commit behind the outage, 11th).
 */
const NAMED_RECORD_WEIGHT = 2;


function retrieveNodeOf(graph: ExecutionGraph | undefined, nodeId: string): NodeOfKind<'retrieve'> | undefined {
  const node = graph?.nodes.find((candidate) => candidate.id === nodeId);
  return node?.kind === 'retrieve' ? node : undefined;
}

export function createNodeExecutor(dependencies: ExecutionDependencies): NodeExecutor {
  // What the goal is about: the analyzer's entities, plus identifier-shaped names it may not list ("mq.tallybox.internal").
  // Not what it sets aside: "Besides fct_deliveries and fct_on_time_rate, which other marts were skipped?"
  // is answered by the log lines naming neither (freight dev d63).
  const setAside = excludedTerms(dependencies.goal);
  const asked = (entity: string) => !setAside.has(entity.toLowerCase());
  const askedEntities = dependencies.entities.filter(asked);
  const named = [...new Set([...askedEntities, ...namedEntities(dependencies.goal).filter(asked)])];
  // The goal as searched and reranked, read once per run rather than per node.
  const searchedGoal = withoutSetAside(dependencies.goal);
  // A goal naming nothing identifier-shaped is scoped by its spaced compounds ("vehicle positions")
  // that the hits write as one name ("vehicle-positions"), if any: see writesJoined.
  // Each compound's pattern is built once and every hit lowered once per search: compiled per hit and
  // compound, this check took ~1 ms of a HotpotQA query's planner path (bench:retrieval).
  const compounds = named.length > 0 ? [] : compoundNames(dependencies.goal).map((compound) => ({ compound, pattern: joinedPattern(compound) }));
  const anchorsIn = (lists: readonly (readonly Hit[])[]): readonly string[] => {
    if (named.length > 0 || compounds.length === 0) return named;
    const texts = lists.flatMap((list) => list.map((hit) => `${hit.title}\n${hit.text}`.toLowerCase()));
    return compounds.filter(({ pattern }) => texts.some((text) => pattern.test(text))).map(({ compound }) => compound);
  };
  const modelPolicy = { localOnly: dependencies.localOnly ?? false, sensitiveSources: dependencies.sensitiveSources ?? [] };
  // `signal` aborts when the node times out or the run is cancelled: it reaches every retriever,
  // reranker and model call, so a fallback or a retry never starts while the old call still runs.
  // `calls` are the node attempt's own: with a budget, each model call (a tier's, a rerank batch's) is admitted by it before it starts.
  const steps: { [K in GraphNode['kind']]: (node: NodeOfKind<K>, inputs: ReadonlyMap<string, unknown>, signal: AbortSignal, calls: NodeCalls) => Promise<Step> } = {
    async retrieve(node, inputs, signal, calls) {
      const retriever = plugin(dependencies.retrievers, node.method, 'retriever');
      const seedKinds = node.feedback?.seedKinds;
      const firstHop = node.feedback ? ((inputs.get(node.feedback.fromNode) as RetrievedOutput | undefined)?.hits ?? []) : [];
      const seed = firstHop.filter((hit) => !seedKinds || seedKinds.includes(hit.sourceKind));
      const feedback = node.feedback ? feedbackTerms(dependencies.goal, seed, node.feedback.documents, node.feedback.terms, firstHop) : [];
      if (node.lookupOnly) {
        const spend = spendCollector();
        const query = { text: [searchedGoal, ...(node.queryExpansion ?? [])].join(' '), k: node.k, sources: node.sources, identifiers: dependencies.identifiers, onSpend: spend.onSpend, signal, ...modelPolicy };
        const hits = await lookupParts(retriever, node, query, (found) => anchorsIn([found]));
        const changes = await settingChanges(retriever, query, dependencies.goal, askedSettingTerms(dependencies.goal), (found) => anchorsIn([found]));
        return { output: { hits, expansion: [], settingChanges: changes } satisfies RetrievedOutput, ...spend.step([...hits, ...changes]) };
      }
      if (node.quotedTitlesFrom !== undefined) {
        const seedHits = (inputs.get(node.quotedTitlesFrom) as RetrievedOutput | undefined)?.hits ?? [];
        const spend = spendCollector();
        const titleQuery = (text: string): RetrievalQuery => ({ text, k: TITLE_SEARCH_K, sources: node.sources, identifiers: [], onSpend: spend.onSpend, signal, ...modelPolicy, ...(calls.admit ? { admit: calls.admit } : {}) });
        // One statement for every title where the retriever can batch them (bench:loc: 4 BM25 statements, ~12 ms of the engine's thread, per incident run).
        const searchTitles = async (titles: readonly string[]) => (retriever.searchMany ? retriever.searchMany(titles, titleQuery('')) : searchInTurn(titles, (title) => retriever.search(titleQuery(title))));
        const hits = (await followQuotedTitles(seedHits, searchTitles)).map((hit) => ({ ...hit, method: node.method }));
        signal.throwIfAborted();
        return { output: { hits, expansion: [] } satisfies RetrievedOutput, ...spend.step(hits) };
      }
      const bridge = node.bridgeFrom === undefined ? undefined : bridgeNames(dependencies.graph, node, inputs);
      const subQuestion = node.subQuestionOf === undefined ? undefined : subQuestionFor(dependencies.graph, node, node.subQuestionOf, inputs);
      // A second hop with no bridge to look for would only repeat the first search; a worker slot with no sub-question has nothing to search for.
      if ((bridge !== undefined && bridge.length === 0) || subQuestion === '') return { output: { hits: [], expansion: [] } satisfies RetrievedOutput, tokens: 0, costUsd: 0 };
      const expansion = [...(node.queryExpansion ?? []), ...feedback, ...(bridge ?? [])];
      // What the goal sets aside ("besides X and Y, which other …") is not searched for, nor reranked by: it fetched the records naming X and Y.
      const base = subQuestion ?? (node.focus === 'entities' && askedEntities.length > 0 ? askedEntities.join(' ') : searchedGoal);
      const text = expansion.length ? `${base} ${expansion.join(' ')}` : base;
      // A question for an extreme over a series ("the highest reading") is answered by the series' summary, not by one of its rows.
      const extreme = asksExtreme(subQuestion ?? dependencies.goal);
      // A model-calling retriever (an LLM reranker) reports its spend per search; it is this node's cost.
      const spend = spendCollector();
      const onSpend = spend.onSpend;
      // A stamped search anchored to an event or a day's bound: narrowed, looking further, its hits ordered by nearness (event-anchored-window.ts).
      const { within, ordering, narrowed } = stampedSearchOf(dependencies.goal, node, (id) => (inputs.get(id) as RetrievedOutput | undefined)?.hits ?? []);
      const search = (sources: readonly string[], k: number) => retriever.search({ text, k: ordering ? k * (ordering.crossing ? CROSSING_OVERFETCH : EVENT_OVERFETCH) : k, sources, identifiers: dependencies.identifiers, onSpend, signal, ...modelPolicy, ...(calls.admit ? { admit: calls.admit } : {}), ...(within ? { within } : {}) });
      let hits: readonly Hit[];
      let searches: SourceSearch[] | undefined;
      if (node.perSource && node.sources.length > 1) {
        // Each source answers with its own best; RRF then interleaves them (rank 1 of every source first).
        const perSourceK = Math.max(3, Math.ceil(node.k / node.sources.length));
        // Asked for an extreme, a source's series summary may rank below its first few rows: look further, then keep perSourceK.
        const searchK = extreme ? perSourceK * SUMMARY_OVERFETCH : perSourceK;
        const timed = retriever.searchEach ? await searchEachTimed(retriever.searchEach.bind(retriever), { text, k: searchK, sources: node.sources, identifiers: dependencies.identifiers, onSpend, signal, ...modelPolicy }) : await Promise.all(
          node.sources.map(async (source) => {
            const startedAtMs = Date.now();
            const started = performance.now();
            const list = await search([source], searchK);
            return { list, search: { source, hits: list.length, startedAtMs, latencyMs: performance.now() - started } };
          }),
        );
        signal.throwIfAborted();
        searches = timed.map((entry) => entry.search);
        // Only sources that speak about the goal's subject; in an entity-focused hop, only hits that do.
        const lists = timed.map((entry) => (extreme ? seriesSummariesFirst(entry.list, subQuestion ?? dependencies.goal).slice(0, perSourceK) : entry.list));
        const aboutGoal = scopeToEntities(lists, anchorsIn(lists), node.focus === 'entities');
        // Only where scores share one scale: otherwise each source's leader is all a source can be judged by.
        const scoped = retriever.capabilities().sharedScoreScale ? keepCompetitiveSources(aboutGoal) : aboutGoal;
        hits = reciprocalRankFusion(scoped, STRATIFIED_RRF_K, node.k).map((hit) => ({ ...hit, method: node.method }));
      } else {
        // Over several sources, scoping below drops the ones not about the goal after the search: ask for
        // more, so k remain (freight dev d58: 13 of 20 hits were the demo's, the context kept 7 items and
        // the eta-api log line asked about, 9th of the freight hits, was not among them).
        const searched = await search(node.sources, node.sources.length > 1 ? node.k * SCOPED_OVERFETCH : node.k);
        signal.throwIfAborted();
        // A sub-question may be about the bridge, which the goal's own names do not mention: its hits stay.
        // The anchors are read off the first k, as without the extra hits: the goal's subject is what leads the list.
        const anchors = () => anchorsIn([searched.slice(0, node.k)]);
        const scopedHits = node.focus === 'entities' ? scopeToEntities([searched], anchors(), true)[0] : subQuestion !== undefined || !canScope(searched) ? searched : keepSourcesAboutGoal(searched, anchors());
        // The per-source lists above already lead with their summaries.
        // Ordered by nearness to an event below, the extra hits stay until then.
        hits = extreme ? seriesSummariesFirst(scopedHits.slice(0, node.k), subQuestion ?? dependencies.goal) : ordering ? scopedHits : scopedHits.slice(0, node.k);
      }
      if (ordering) hits = nearestEventFirst(hits, ordering).slice(0, node.k);
      return {
        output: { hits, expansion, ...(searches ? { searches } : {}), ...(narrowed && within ? { narrowedTo: within } : {}) } satisfies RetrievedOutput,
        ...spend.step(hits),
      };
    },
    async fuse(node, inputs) {
      const all = node.inputs.map((input) => ({ list: (inputs.get(input) as RetrievedOutput | undefined)?.hits ?? [], search: retrieveNodeOf(dependencies.graph, input) }));
      // A setting lookup's parts are placed, not fused: beside one general list that list keeps its order.
      const general = all.filter(({ search }) => !search?.lookupOnly);
      const [lists, searches] = [general.map(({ list }) => list), general.map(({ search }) => search)];
      const fused = lists.length === 1 ? lists[0].slice(0, node.k) : reciprocalRankFusion(lists, node.rrfK, node.k, searches.map((search) => (search?.quotedTitlesFrom !== undefined ? NAMED_RECORD_WEIGHT : 1)));
      // A summary one list ranks first keeps its source's first place after fusion (see retrieve).
      const ranked = asksExtreme(dependencies.goal) ? seriesSummariesFirst(fused, dependencies.goal) : fused;
      const lookups = node.inputs.filter((input) => retrieveNodeOf(dependencies.graph, input)?.lookupOnly).map((input) => inputs.get(input) as RetrievedOutput | undefined);
      const withPart = withSettingLookup(withSearchLeaders(ranked, lists, searches, kindsNamedByWord(dependencies.goal), dependencies.goal), lookups.map((output) => output?.hits ?? []), settingLookupRank(dependencies.graph), goalNames(dependencies.goal));
      const hits = withSettingChange(withPart, lookups.map((output) => output?.settingChanges ?? []), settingLookupRank(dependencies.graph));
      return { output: { hits } satisfies RetrievedOutput, tokens: hits.reduce((sum, hit) => sum + hit.tokens, 0), costUsd: 0 };
    },
    async rerank(node, inputs, signal, calls) {
      const chosen = reranker(dependencies.rerankers, node.method);
      const first = node.inputs[0] === undefined ? undefined : (inputs.get(node.inputs[0]) as RetrievedOutput | undefined);
      if (!first) throw new ContextRuntimeError('NODE_FAILED', `rerank node ${node.id} has no completed retrieve or fuse input`);
      const spend = spendCollector();
      const hits = await chosen.rerank({ text: searchedGoal, identifiers: dependencies.identifiers, hits: first.hits, topN: node.topN, onSpend: spend.onSpend, signal, ...modelPolicy, ...(calls.admit ? { admit: calls.admit } : {}) });
      return { output: { hits } satisfies RetrievedOutput, ...spend.step(hits) };
    },
    async compress(node, inputs) {
      const { hits } = only<RetrievedOutput>(inputs);
      const items: ContextItem[] = hits.map((hit, index) => ({ ref: index + 1, hit, text: hit.text, tokens: hit.tokens, compressed: false }));
      const compressor = plugin(dependencies.compressions, node.method, 'compression');
      const store = node.method === 'none' ? undefined : dependencies.compressedContexts;
      const key = store && compressionKey(node.method, dependencies.goal, items);
      const served = store && key ? await servedCompression(store, key, items) : undefined;
      if (served) return { output: served, tokens: served.tokensAfter, costUsd: 0 };
      const result = compressor.compress(dependencies.goal, items, dependencies.countTokens);
      const lineage = compressionLineage(node.method, items);
      const storedAs = store && key ? await keepCompression(store, key, dependencies.goal, result, lineage) : undefined;
      const output: CompressedOutput = { items: result.items, tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter, omitted: result.omitted, lineage, ...(storedAs ? { storedAs } : {}) };
      return { output, tokens: result.tokensAfter, costUsd: 0 };
    },
    async assemble(node, inputs) {
      const assembled = assembleContext(only<CompressedOutput>(inputs), node.tokenBudget, node.finalK, node.coverSources, node.coverKinds);
      return { output: assembled satisfies AssembledContext, tokens: assembled.tokens, costUsd: 0 };
    },
    async reason(node, inputs, signal, calls) {
      // With the graph: the assemble input is the context, and bridge hops among the inputs pass on their names.
      const typed = dependencies.graph ? typedInputs(dependencies.graph, node, inputs) : [];
      // A mixture's decompose and critic calls read no passages; every other reason node reads one assemble input.
      const readsNoContext = node.purpose === 'decompose' || node.purpose === 'critic';
      const context = typed.flatMap((input) => (input.kind === 'assemble' ? [input.output] : [])).at(-1) ?? (readsNoContext ? undefined : only<AssembledContext>(inputs));
      const items = context?.items ?? [];
      const bridge = typed.flatMap((input) => (input.kind === 'reason' ? (input.output.bridge ?? []) : []));
      const mixture = mixtureInputs(node, typed);
      // A worker slot the decompose node left empty: no call, nothing spent (the fan-out was fixed when planning).
      if (mixture.question === '') return { output: { answer: '', citations: [], modelCalls: [], idle: true } satisfies ReasonResult, tokens: 0, costUsd: 0 };
      const reasoner = plugin(dependencies.reasoners, node.strategy, 'reasoner');
      const tools = reasoner.requiresToolCalls ? toolsFor(node, calls) : undefined;
      const result: ReasonResult = await reasoner.reason(
        { ...(tools ? { tools } : {}), goal: mixture.question ?? dependencies.goal, context: items, tier: node.tier, requireCitations: node.requireCitations, localOnly: node.localOnly || modelPolicy.localOnly, maxOutputTokens: node.maxOutputTokens, timeoutMs: dependencies.modelTimeoutMs, sensitiveSources: modelPolicy.sensitiveSources, sensitiveContent: dependencies.sensitiveContent ?? 'local_only', signal, ...(node.purpose ? { purpose: node.purpose } : {}), ...(node.slot !== undefined ? { slot: node.slot } : {}), ...(bridge.length > 0 ? { bridge } : {}), ...(mixture.findings ? { findings: mixture.findings } : {}), ...(dependencies.outputSchema && answersGoal(node) ? { outputSchema: dependencies.outputSchema } : {}) },
        dependencies.routerFor?.(items, calls.router) ?? calls.router,
      );
      const tokens = result.modelCalls.reduce((sum, call) => sum + call.usage.inputTokens + call.usage.outputTokens, 0);
      const costUsd = result.modelCalls.reduce((sum, call) => sum + call.costUsd, 0);
      return { output: (mixture.question !== undefined ? { ...result, question: mixture.question } : result) satisfies ReasonResult, tokens, costUsd };
    },
    async verify(node, inputs, signal, calls) {
      if (!dependencies.graph) throw new ContextRuntimeError('NODE_FAILED', `verify node ${node.id}: the executor was not given the graph`);
      const typed = typedInputs(dependencies.graph, node, inputs);
      const reasoned = typed.flatMap((input) => (input.kind === 'reason' && answersGoal(input.node) ? [input.output] : [])).at(-1);
      const context = typed.flatMap((input) => (input.kind === 'assemble' ? [input.output] : [])).at(-1);
      const earlier = typed.flatMap((input) => (input.kind === 'verify' ? [input.output] : []));
      if (!reasoned || !context) throw new ContextRuntimeError('NODE_FAILED', `verify node ${node.id} needs a completed reason and assemble input`);
      if (node.method === 'output_schema') {
        if (!dependencies.outputSchema) throw new ContextRuntimeError('NODE_FAILED', `verify node ${node.id}: the request carries no output_schema`);
        return { output: foldVerdicts(node.method, earlier, [outputSchemaCheck(dependencies.outputSchema, reasoned.answer)]), tokens: 0, costUsd: 0 };
      }
      if (node.method === 'llm_judge') {
        // A judge is asked only about an answer the cheap checks passed: a failed one retries (or ends unverified) either way.
        if (earlier.some((result) => !result.passed)) return { output: foldVerdicts(node.method, earlier, []), tokens: 0, costUsd: 0 };
        if (!node.tier) throw new ContextRuntimeError('NODE_FAILED', `verify node ${node.id}: llm_judge names no model tier`);
        const { check, call } = await judgeGroundedness(
          { goal: dependencies.goal, answer: reasoned.answer, context: context.items, tier: node.tier, localOnly: (node.localOnly ?? false) || modelPolicy.localOnly, sensitiveSources: modelPolicy.sensitiveSources, sensitiveContent: dependencies.sensitiveContent ?? 'local_only', timeoutMs: dependencies.modelTimeoutMs, signal },
          // The judge is a model call like any other: the run budget admits it first.
          calls.router,
        );
        const modelTokens = call.usage.inputTokens + call.usage.outputTokens;
        return { output: foldVerdicts(node.method, earlier, [check], [call]), tokens: 0, costUsd: call.costUsd, modelTokens };
      }
      const result: VerificationResult = plugin(dependencies.verifiers, node.method, 'verifier').verify({ goal: dependencies.goal, answer: reasoned.answer, citations: reasoned.citations, context: context.items });
      return { output: earlier.length > 0 ? foldVerdicts(node.method, earlier, result.checks) : result, tokens: 0, costUsd: 0 };
    },
    async approve() {
      throw new ContextRuntimeError('NODE_FAILED', 'approve nodes are decided by a person, not executed');
    },
    async branch(node, inputs) {
      const [source, field] = node.condition.split('.');
      const value = Boolean((inputs.get(source) as Record<string, unknown> | undefined)?.[field]);
      return { output: { condition: node.condition, value } satisfies BranchOutput, takenBranch: value ? node.whenTrue : node.whenFalse, tokens: 0, costUsd: 0 };
    },
    async merge(_node, inputs) {
      return { output: Object.fromEntries(inputs), tokens: 0, costUsd: 0 };
    },
  };

  /** The run's tools for a tool-calling reason node: `retrieve` searches with the plan's first retrieval method. */
  const toolsFor = (node: NodeOfKind<'reason'>, calls: NodeCalls) => {
    const method = dependencies.graph?.nodes.find((candidate): candidate is NodeOfKind<'retrieve'> => candidate.kind === 'retrieve')?.method ?? 'bm25';
    const reads = dependencies.toolReads;
    return runTools({
      retrievers: dependencies.retrievers,
      retrieveMethod: method,
      sources: reads?.sources ?? [],
      ...(reads?.facts ? { facts: reads.facts } : {}),
      localOnly: node.localOnly || modelPolicy.localOnly,
      sensitiveSources: modelPolicy.sensitiveSources,
      ...(calls.admit ? { admit: calls.admit } : {}),
    });
  };

  const execute = async (node: GraphNode, inputs: ReadonlyMap<string, unknown>, signal: AbortSignal, calls: NodeCalls): Promise<NodeOutcome> => {
    const started = performance.now();
    const step = await (steps[node.kind] as (node: GraphNode, inputs: ReadonlyMap<string, unknown>, signal: AbortSignal, calls: NodeCalls) => Promise<Step>)(node, inputs, signal, calls);
    // A plugin that ignored the abort still has its late result dropped here.
    signal.throwIfAborted();
    const latencySeconds = (performance.now() - started) / 1000;
    const actual = { tokens: step.tokens, costUsd: step.costUsd, latencySeconds, ...(step.modelTokens ? { modelTokens: step.modelTokens } : {}) };
    return { output: step.output, takenBranch: step.takenBranch, actual };
  };
  const budget = dependencies.budget;
  return (node, context) =>
    budget
      ? budget.runNode(node, context.signal, (signal, admit) => execute(node, context.inputs, signal, { router: admittedRouter(dependencies.router, admit), admit }))
      : execute(node, context.inputs, context.signal, { router: dependencies.router });
}

/** How one node attempt calls models: the router, and the budget's admission for plugins calling a model themselves. */
interface NodeCalls {
  readonly router: RouterPlugin;
  readonly admit?: CallAdmission;
}

/** The router as one node attempt sees it: every call it makes, fallbacks included, asks `admit` first. */
function admittedRouter(router: RouterPlugin, admit: CallAdmission): RouterPlugin {
  return { contract: router.contract, tiers: () => router.tiers(), countTokens: (tier, text) => router.countTokens(tier, text), complete: (tier, request, options) => router.complete(tier, request, { ...options, admit }) };
}
