/**
 * Turns the chosen candidate (a planning object) into an Execution Graph (an execution object),
 * with a per-node estimate split from the candidate's totals so EXPLAIN ANALYZE can diff each node.
 *
 *   retrieve(method)… → [retrieve(feedback)] → [fuse] → compress → assemble → reason → [verify] → [approve]
 *
 * Incident and multi-hop goals need evidence from several kinds of source at once (the failure in
 * the logs, its cause in git, the fix in the runbook), so their retrieval is stratified per source;
 * incidents add, when logs or events are in scope, a failure-cause hop and a feedback hop that
 * re-queries with the evidence terms, and a hop to the changes the evidence names by quoted title
 * (quoted-title-hop.ts). A goal naming an instant ("at 09:00 on 14 April 2026") adds a search of the
 * stamped sources restricted to that moment (timeWindowHop), whatever its intent class.
 */
import { SETTING_LOOKUP_K, settingLookupHop } from './setting-lookup';
import type { RetrieverCapabilities, TimeWindow } from '../contracts/retriever';
import { retrievalSpendOf } from '../costmodel/retrieval-spend';
import { mixedDebateShares } from '../costmodel/call-tiers';
import type { ModelCapabilities } from '../contracts/model';
import { FAILURE_CAUSE_SIGNALS } from './failure-signals';
import { decompositionHops } from './decomposition-hops';
import { mixtureNodes } from './mixture-nodes';
import type { MixtureShape } from '../contracts/reasoner';
import { MIXTURE_MODEL_ROUNDS } from '../costmodel/units';
import { verificationGate, type VerificationGateInput } from './verification-gate';
import { MAX_FOLLOWED_TITLES } from './quoted-title-hop';
import { NAMED_KIND_ITEMS } from './assemble-context';
import { createGraph, createNode, type ExecutionGraph, type GraphNode, type NodeEstimate, type RetrieveNode } from '../ir/graph';
import type { CandidateEstimates, CandidatePlan, SourceKind } from '../types';

export interface GraphBuildInput {
  readonly candidate: CandidatePlan;
  readonly estimates: CandidateEstimates;
  readonly sources: readonly string[];
  readonly retrievers: readonly RetrieverCapabilities[];
  readonly tokenBudget: number;
  readonly finalK: number;
  readonly meanChunkTokens: number;
  readonly localOnly: boolean;
  readonly requireCitations: boolean;
  readonly approvalReason: string;
  readonly maxOutputTokens: number;
  readonly retry: { readonly maxAttempts: number; readonly backoffMs: number };
  readonly nodeTimeoutMs: number;
  readonly intentClasses: readonly string[];
  /** Sources holding observations (logs, events): where failure causes are looked for. */
  readonly observationSources: readonly string[];
  /**
   * The moments the goal names (text/moment-terms.ts askedWindows) and the sources in scope whose
   * chunks carry timestamps (logs, events, metrics): a hop searches only what was stamped then.
   */
  readonly timeWindows?: {
    readonly windows: readonly TimeWindow[];
    readonly sources: readonly string[];
    /** The windows are the day of an event the goal's record is anchored to: narrowed at run time to the moment the first retrieval dates it. */
    readonly anchored?: boolean;
  };
  /** The git sources a setting lookup searches, when the goal asks for a configured value (execution/setting-lookup.ts). */
  /** The git sources a setting lookup searches, and the setting words the goal describes (text/setting-behaviours.ts). */
  readonly settingLookup?: { readonly sources: readonly string[]; readonly terms?: readonly string[] };
  /** The kinds of the sources in scope: over several, a graph walk is fused with a lexical list (retrievalMethods). */
  readonly scopedKinds?: readonly SourceKind[];
  /** Kinds of source the goal names by word (planner/named-source-kinds.ts): the context keeps the best item of each. */
  readonly coverKinds?: readonly SourceKind[];
  /** Bridge hops the chosen reasoner runs as graph nodes (a decomposition: 1); absent = 0. */
  readonly bridgeHops?: number;
  /** The chosen reasoner's calls as graph nodes (a mixture: workers or solvers, then one answering node); absent = one call. */
  readonly mixture?: MixtureShape & { readonly modelCalls: number };
  /**
   * A mixed-tier debate's call tiers in call order (its solvers, then its judge: call-tiers.ts): each
   * reason node gets the share of the candidate's model totals its tier's price and speed make. Absent: even shares.
   */
  readonly callTiers?: readonly ModelCapabilities[];
  /**
   * The checks after the answer beyond the candidate's method (output schema, judge) and, when
   * verification is required, the retry attempts behind a gate (verification-gate.ts). Absent: the
   * candidate's verify node alone, which never gates.
   */
  readonly gate?: Pick<VerificationGateInput, 'outputSchema' | 'judge' | 'required' | 'retries' | 'budgetNote'>;
}

/** Feedback hop: expansion terms drawn from this many top documents (RM3 papers use 5–10). */
const FEEDBACK_DOCUMENTS = 6;
const FEEDBACK_TERMS = 8;

/** Verification is string work over the answer; it rounds to a few milliseconds. */
const VERIFY_SECONDS = 0.005;
const LOCAL_STEP_SECONDS = 0.002;

const estimateOf = (tokens: number, costUsd: number, latencySeconds: number): NodeEstimate => ({ tokens: Math.round(tokens), costUsd, latencySeconds });

/**
 * A retrieve node's estimate: evidence tokens, the method's latency, and what its model calls cost
 * (an LLM reranker reports cost and tokens per search). A per-source node searches once per source.
 */
function retrieveEstimate(capability: RetrieverCapabilities | undefined, retrievedTokens: number, searches: number): NodeEstimate {
  const latencySeconds = ((capability?.latencyMs ?? 5) / 1000) * searches;
  const modelTokens = (capability?.tokensPerQuery ?? 0) * searches;
  return { ...estimateOf(retrievedTokens, (capability?.costUsdPerQuery ?? 0) * searches, latencySeconds), ...(modelTokens > 0 ? { modelTokens: Math.round(modelTokens) } : {}) };
}

/**
 * The goal names a moment ("at midnight UTC on 8 March 2026", "on Monday 9 March"): a search of the
 * stamped sources restricted to chunks stamped then, by the first retriever that can filter by time.
 * Ranked over every line and row, the one written at that moment is one of hundreds sharing the
 * goal's words (issue 10, freight dev d22: the 00:00 metrics row was never retrieved). None without
 * a dated moment, a stamped source in scope or a retriever that can filter.
 */
function timeWindowHop(input: GraphBuildInput, retrievedTokens: number, firstRetrieval: string): RetrieveNode | undefined {
  const asked = input.timeWindows;
  if (!asked || asked.windows.length === 0 || asked.sources.length === 0) return undefined;
  const capability = input.retrievers.find((retriever) => retriever.available && retriever.timeWindows);
  if (!capability) return undefined;
  const span = asked.windows.map((window) => `${window.from}–${window.to}${window.anyYear ? ' (any year)' : ''}`).join(', ');
  // Anchored to an event, it waits for the first retrieval, whose hits say when the event happened.
  const anchored = asked.anchored ? { anchoredOn: firstRetrieval } : {};
  return createNode('retrieve', {
    id: `retrieve-${capability.method}-moment`,
    inputs: asked.anchored ? [firstRetrieval] : [],
    ...anchored,
    method: capability.method,
    sources: asked.sources,
    sourceKinds: input.candidate.sourceKinds,
    k: input.candidate.topK,
    within: asked.windows,
    retry: input.retry,
    timeoutMs: input.nodeTimeoutMs,
    estimate: retrieveEstimate(capability, retrievedTokens, 1),
    note: asked.anchored ? `lines and rows stamped near the event the goal's record is anchored to, on its day (${span}), narrowed to the hours the first retrieval dates it` : `lines and rows stamped at the moment the goal names (${span})`,
  });
}

const coverKindsOf = (input: GraphBuildInput) =>
  input.coverKinds && input.coverKinds.length > 0 ? { coverKinds: input.coverKinds, note: `keeps the best retrieved items (up to ${NAMED_KIND_ITEMS}) of each kind of source the goal names or asks for (${input.coverKinds.join(', ')})` } : {};

/** The lexical list a graph walk over mixed sources is fused with. */
const LEXICAL_METHOD = 'bm25';

/**
 * The candidate's retrieval methods, and beside a graph walk over sources of several kinds (docs,
 * logs, commits) a bm25 search fused with it by RRF. On such a corpus every log line names its
 * service, so the entity graph's hubs take the walk's mass, and its passage seeds (5 % of it) leave
 * the question's own words little say: asked when eta-api next reported how many trucks had their
 * features once the new Redis settings were live, the walk brought other eta-api lines, and the
 * 11:21 stats line the words point at came only with bm25 (freight dev d98). Freight dev: 2 of 14
 * graph plans gained, none lost (key fact 81.5 → 83.3 %), tune and billing unchanged. Over one kind
 * of passage (HotpotQA's Wikipedia paragraphs) the walk stays alone: fused with bm25 there, the
 * answer was in the context for 82 questions of 100 instead of 84.
 */
function retrievalMethods(input: GraphBuildInput): readonly string[] {
  const { retrieval } = input.candidate;
  const mixed = new Set(input.scopedKinds ?? []).size > 1;
  const lexical = input.retrievers.some((retriever) => retriever.method === LEXICAL_METHOD && retriever.available);
  return mixed && lexical && retrieval.length === 1 && retrieval[0] === 'graph' ? [...retrieval, LEXICAL_METHOD] : retrieval;
}

export function buildExecutionGraph(input: GraphBuildInput): ExecutionGraph {
  const { candidate, estimates } = input;
  const nodes: GraphNode[] = [];
  const retrieveIds: string[] = [];
  let retrievalSeconds = 0;
  const retrievedTokens = candidate.topK * input.meanChunkTokens;
  const multiEvidence = input.intentClasses.includes('incident') || input.intentClasses.includes('multi_hop');
  const perSource = multiEvidence && input.sources.length > 1;
  for (const method of retrievalMethods(input)) {
    const capability = input.retrievers.find((retriever) => retriever.method === method);
    const estimate = retrieveEstimate(capability, retrievedTokens, perSource ? input.sources.length : 1);
    const latencySeconds = (capability?.latencyMs ?? 5) / 1000;
    retrievalSeconds = candidate.shape === 'parallel' ? Math.max(retrievalSeconds, latencySeconds) : retrievalSeconds + latencySeconds;
    const id = `retrieve-${method}`;
    retrieveIds.push(id);
    nodes.push(
      createNode('retrieve', {
        id,
        inputs: candidate.shape === 'sequential' && retrieveIds.length > 1 ? [retrieveIds[retrieveIds.length - 2]] : [],
        method,
        sources: input.sources,
        sourceKinds: candidate.sourceKinds,
        k: candidate.topK,
        perSource,
        retry: input.retry,
        timeoutMs: input.nodeTimeoutMs,
        estimate,
      }),
    );
  }
  if (input.intentClasses.includes('incident') && input.observationSources.length > 0) {
    // Two more hops on the first method: the failure's cause in observations (entities + cause
    // words, logs and events only), then the change behind it (entities + the cause's own terms).
    // Incidents only: on multi-hop question sets a feedback hop fused into the first hop lost
    // nDCG@10 (bench:retrieval: RM3 feedback on bm25 0.547 → 0.544 on MuSiQue, 0.811 → 0.805 on HotpotQA).
    // And only with logs or events in scope: the cause probe looks for failure words in
    // observations and the feedback hop seeds from them, so over documents alone both hops search
    // prose for words like "failure" (SciFact's 13 "incident" claims — "kidney failure", "protein
    // degradation" — lost 0.147 nDCG@10 against bm25 with the hops, issue 16).
    const first = candidate.retrieval[0];
    const capability = input.retrievers.find((retriever) => retriever.method === first);
    const observations = input.observationSources;
    const hop = (id: string, fields: { sources: readonly string[]; inputs: readonly string[]; note: string } & Partial<Pick<RetrieveNode, 'queryExpansion' | 'feedback'>>) => {
      const estimate = retrieveEstimate(capability, retrievedTokens, Math.max(1, fields.sources.length));
      retrievalSeconds += estimate.latencySeconds;
      retrieveIds.push(id);
      nodes.push(
        createNode('retrieve', {
          id,
          method: first,
          sourceKinds: candidate.sourceKinds,
          k: candidate.topK,
          perSource: fields.sources.length > 1,
          focus: 'entities',
          retry: input.retry,
          timeoutMs: input.nodeTimeoutMs,
          estimate,
          ...fields,
        }),
      );
    };
    hop(`retrieve-${first}-causes`, { sources: observations, inputs: [], queryExpansion: FAILURE_CAUSE_SIGNALS, note: 'failure causes in logs and events' });
    const seedNode = retrieveIds[retrieveIds.length - 1];
    hop(`retrieve-${first}-feedback`, {
      sources: input.sources,
      inputs: [seedNode],
      // Seeds are observations (what happened), not documentation or changes (candidate causes).
      feedback: { fromNode: seedNode, documents: FEEDBACK_DOCUMENTS, terms: FEEDBACK_TERMS, seedKinds: ['logs', 'events'] },
      note: "evidence → cause hop: the query expanded with the previous hop's evidence terms",
    });
    // The change the evidence names by its quoted title (a postmortem's timeline), one search per title.
    const titlesId = `retrieve-${first}-titles`;
    const titlesEstimate = retrieveEstimate(capability, Math.min(retrievedTokens, MAX_FOLLOWED_TITLES * input.meanChunkTokens), MAX_FOLLOWED_TITLES);
    retrievalSeconds += titlesEstimate.latencySeconds;
    nodes.push(
      createNode('retrieve', {
        id: titlesId,
        inputs: [retrieveIds[0]],
        method: first,
        sources: input.sources,
        sourceKinds: candidate.sourceKinds,
        k: MAX_FOLLOWED_TITLES,
        quotedTitlesFrom: retrieveIds[0],
        retry: input.retry,
        timeoutMs: input.nodeTimeoutMs,
        estimate: titlesEstimate,
        note: 'changes the evidence names by quoted title',
      }),
    );
    retrieveIds.push(titlesId);
  }
  const stamped = timeWindowHop(input, retrievedTokens, retrieveIds[0]);
  if (stamped) {
    retrievalSeconds += stamped.estimate?.latencySeconds ?? 0;
    nodes.push(stamped);
    retrieveIds.push(stamped.id);
  }
  const lookup = input.settingLookup
    ? settingLookupHop({ sources: input.settingLookup.sources, terms: input.settingLookup.terms ?? [], retrievers: input.retrievers, sourceKinds: candidate.sourceKinds, retry: input.retry, timeoutMs: input.nodeTimeoutMs, estimateOf: (capability) => retrieveEstimate(capability, Math.min(retrievedTokens, SETTING_LOOKUP_K * input.meanChunkTokens), 1) })
    : undefined;
  if (lookup) {
    retrievalSeconds += lookup.estimate?.latencySeconds ?? 0;
    nodes.push(lookup);
    retrieveIds.push(lookup.id);
  }
  // The lookup's part is added to the context, not traded for a retrieved item (it takes the last place).
  const contextK = input.finalK + (lookup ? 1 : 0);
  let last = retrieveIds[retrieveIds.length - 1];
  if (retrieveIds.length > 1) {
    nodes.push(createNode('fuse', { id: 'fuse', inputs: retrieveIds, strategy: 'rrf', rrfK: 60, k: candidate.topK, estimate: estimateOf(retrievedTokens, 0, LOCAL_STEP_SECONDS) }));
    last = 'fuse';
  }
  const contextTokens = Math.min(input.tokenBudget, estimates.tokens.value);
  const compressEstimate = estimateOf(retrievedTokens * (1 - estimates.contextLoss.value), 0, LOCAL_STEP_SECONDS);
  const assembleEstimate = estimateOf(Math.min(contextTokens, input.finalK * input.meanChunkTokens), 0, LOCAL_STEP_SECONDS);
  const verifySeconds = candidate.verification === 'none' ? 0 : VERIFY_SECONDS;
  const retrieverSpend = retrievalSpendOf(candidate.retrieval, (method) => input.retrievers.find((retriever) => retriever.method === method));
  const hops = input.bridgeHops ?? 0;
  const first = nodes.find((node): node is RetrieveNode => node.kind === 'retrieve')!;
  const hopRetrievalSeconds = hops * (first.estimate?.latencySeconds ?? 0);
  const reasonSeconds = Math.max(0.001, estimates.latencySeconds.value - retrievalSeconds - hopRetrievalSeconds - verifySeconds - 3 * LOCAL_STEP_SECONDS);
  // The candidate's model totals (its retrievers' spend is on their nodes) split evenly over the reason calls;
  // a mixture's time over its rounds (its branches run side by side).
  const mixture = input.mixture;
  const share = 1 / (mixture ? mixture.modelCalls : hops + 1);
  const timeShare = mixture ? 1 / (MIXTURE_MODEL_ROUNDS[mixture.layout] ?? mixture.modelCalls) : share;
  const modelTokens = Math.max(0, estimates.tokens.value - retrieverSpend.tokens);
  const modelUsd = Math.max(0, estimates.costUsd.value - retrieverSpend.costUsd);
  // A mixed-tier debate: each call's own share (its tier's price and speed); the judge is the last call.
  const shares = input.callTiers ? mixedDebateShares(input.callTiers, modelTokens) : undefined;
  const callEstimateOf = (call: number): NodeEstimate | undefined => {
    const callShare = shares?.[call];
    return callShare ? estimateOf(modelTokens * callShare.tokens, modelUsd * callShare.costUsd, reasonSeconds * callShare.seconds) : undefined;
  };
  const reason = {
    strategy: candidate.reasoning,
    tier: candidate.modelTier,
    localOnly: input.localOnly,
    requireCitations: input.requireCitations,
    maxOutputTokens: input.maxOutputTokens,
    retry: { maxAttempts: 1, backoffMs: 0 },
    estimate: callEstimateOf((shares?.length ?? 0) - 1) ?? estimateOf(modelTokens * share, modelUsd * share, reasonSeconds * timeShare),
    note: 'model tier fallback happens inside the router, so the node itself is not retried',
  };
  let bridges: readonly string[] = [];
  if (hops > 0) {
    const decomposed = decompositionHops({
      evidence: last,
      hops,
      retrieve: { method: first.method, sources: first.sources, sourceKinds: first.sourceKinds, k: first.k, retry: first.retry, timeoutMs: first.timeoutMs, estimate: first.estimate ?? estimateOf(retrievedTokens, 0, LOCAL_STEP_SECONDS) },
      compress: { method: candidate.compression, estimate: compressEstimate },
      assemble: { tokenBudget: input.tokenBudget, finalK: input.finalK, estimate: assembleEstimate },
      reason,
      fuseEstimate: estimateOf(retrievedTokens, 0, LOCAL_STEP_SECONDS),
    });
    nodes.push(...decomposed.nodes);
    last = decomposed.last;
    bridges = decomposed.bridges;
  }
  nodes.push(createNode('compress', { id: 'compress', inputs: [last], method: candidate.compression, estimate: compressEstimate }));
  nodes.push(createNode('assemble', { id: 'assemble', inputs: ['compress'], tokenBudget: input.tokenBudget, finalK: contextK, coverSources: multiEvidence, ...coverKindsOf(input), estimate: assembleEstimate }));
  let answerInputs: readonly string[] = bridges;
  if (mixture) {
    const { estimate: judgeEstimate, note: _note, ...fields } = reason;
    const evenEstimate = estimateOf(modelTokens * share, modelUsd * share, reasonSeconds * timeShare);
    const mixed = mixtureNodes({
      shape: mixture,
      assemble: 'assemble',
      reason: fields,
      callEstimate: shares ? judgeEstimate : evenEstimate,
      ...(candidate.solverTiers ? { branchTiers: candidate.solverTiers } : {}),
      ...(shares ? { branchEstimates: shares.slice(0, -1).map((_, call) => callEstimateOf(call)!) } : {}),
      retrieve: { method: first.method, sources: first.sources, sourceKinds: first.sourceKinds, k: first.k, perSource: first.perSource, retry: first.retry, timeoutMs: first.timeoutMs, estimate: first.estimate ?? estimateOf(retrievedTokens, 0, LOCAL_STEP_SECONDS) },
      compress: { method: candidate.compression, estimate: compressEstimate },
      assembleFields: { tokenBudget: input.tokenBudget, finalK: contextK, ...coverKindsOf(input), estimate: assembleEstimate },
    });
    nodes.push(...mixed.nodes);
    answerInputs = mixed.answerInputs;
  }
  const answerNote = mixture ? (mixture.layout === 'debate' ? 'the judge: reads the solvers beside the context and writes the cited answer' : "merges the grounded workers' answers into the cited answer over the plan's context") : undefined;
  const answer = createNode('reason', { ...reason, id: 'reason', inputs: ['assemble', ...answerInputs], ...(answerNote ? { note: answerNote } : {}) });
  nodes.push(answer);
  const gate = input.gate ?? { outputSchema: false, required: false, retries: [] };
  const checks = verificationGate({
    ...gate,
    method: candidate.verification,
    verifyEstimate: estimateOf(0, 0, VERIFY_SECONDS),
    answer,
    assemble: 'assemble',
    retrieve: { sources: first.sources, sourceKinds: first.sourceKinds, perSource: first.perSource, retry: first.retry, timeoutMs: first.timeoutMs },
    compress: { method: candidate.compression, estimate: compressEstimate },
    assembleFields: { tokenBudget: input.tokenBudget, finalK: input.finalK, coverSources: multiEvidence, ...coverKindsOf(input), estimate: assembleEstimate },
    fuseEstimate: estimateOf(retrievedTokens, 0, LOCAL_STEP_SECONDS),
  });
  nodes.push(...checks.nodes);
  const waitFor = checks.verdicts.length > 0 ? checks.verdicts : ['reason'];
  if (candidate.approval) {
    // After every attempt: the ones a passing gate skipped count as done for the approval.
    nodes.push(createNode('approve', { id: 'approve', inputs: waitFor, reason: input.approvalReason, approverRole: 'approver', estimate: estimateOf(0, 0, 0) }));
  }
  return createGraph(nodes);
}
