/**
 * Renders EXPLAIN as an indented tree, the way psql prints a PostgreSQL plan: the final node on
 * top, its inputs indented under "->", estimates in parentheses and, with ANALYZE, actuals beside.
 */
import { valuesWithSources } from './contradiction-text';
import type { GraphNode } from '../ir/graph';
import type { Estimate } from '../types';
import { formatCalibration } from './analyze-calibration';
import { compressionText } from './compression-text';
import { modelCallsText } from './model-call-text';
import { toolLoopText } from './tool-loop-text';
import { riskReadingText } from './risk-reading-text';
import type { AnalyzedNode, ExplainResult, NodeCalibration } from './explain-types';
import { rejectedCountsByStage, rejectedTruncationNote } from './stored-explain';
import { type BudgetLimitsShown, budgetUsedText } from './budget-text';

const money = (usd: number) => `$${usd < 0.01 && usd > 0 ? usd.toFixed(6) : usd.toFixed(4)}`;
const range = (estimate: Estimate, format: (value: number) => string) => `${format(estimate.value)} [${format(estimate.low)}–${format(estimate.high)}]`;
const seconds = (value: number) => `${value < 1 ? value.toFixed(3) : value.toFixed(2)} s`;
const tokens = (value: number) => `${Math.round(value)}`;

function describeNode(node: GraphNode): string {
  switch (node.kind) {
    case 'retrieve': {
      const query = [node.focus === 'entities' ? 'query=entities' : 'query=goal', node.queryExpansion?.length ? `+${node.queryExpansion.length} ${node.lookupOnly ? 'setting' : 'cause'} terms` : '', node.feedback ? `+feedback from ${node.feedback.fromNode}` : '', node.bridgeFrom ? `+bridge from ${node.bridgeFrom}` : ''].filter(Boolean).join(' ');
      return `Retrieve ${node.method}${node.perSource ? ' per source' : ''} k=${node.k} ${query} sources=${node.sources.join(',') || '(none)'}`;
    }
    case 'fuse': return `Fuse ${node.strategy} k=${node.rrfK}`;
    case 'rerank': return `Rerank ${node.method} top=${node.topN}`;
    case 'compress': return `Compress ${node.method}`;
    case 'assemble': return `Assemble budget=${node.tokenBudget} tokens, final_k=${node.finalK}`;
    case 'reason': return `Reason ${node.strategy}${node.purpose === 'bridge' ? ' bridge hop' : node.purpose && node.purpose !== 'answer' ? ` ${node.purpose}${node.slot !== undefined ? ` ${node.slot + 1}` : ''}` : ''} tier=${node.tier}${node.localOnly ? ' (local only)' : ''}`;
    case 'verify': return `Verify ${node.method}${node.tier ? ` tier=${node.tier}` : ''}${node.required ? ' (required: a failed verdict retries or ends unverified)' : ''}`;
    case 'approve': return `Approve (gate: ${node.reason})`;
    case 'branch': return `Branch if ${node.condition}`;
    case 'merge': return 'Merge';
  }
}

/** The estimator's track record for this intent class, so a misestimate can be weighed. */
function calibrationNote(calibration: NodeCalibration): string {
  return `[calibration ${calibration.tokens.estimator}/${calibration.tokens.intentClass}: tokens ${formatCalibration(calibration.tokens, tokens)}; cost ${formatCalibration(calibration.costUsd, money)}; time ${formatCalibration(calibration.latencySeconds, seconds)}]`;
}

function nodeLine(node: GraphNode, analyzed: AnalyzedNode | undefined, limits: BudgetLimitsShown | undefined): string {
  const estimate = node.estimate;
  let line = describeNode(node);
  // Model tokens a non-reason node spent (an LLM reranker) are shown beside its evidence tokens.
  const spent = (figures: { readonly modelTokens?: number }) => (figures.modelTokens ? ` model tokens=${tokens(figures.modelTokens)}` : '');
  if (estimate) line += `  (est tokens=${tokens(estimate.tokens)}${spent(estimate)} cost=${money(estimate.costUsd)} time=${seconds(estimate.latencySeconds)})`;
  if (analyzed?.actual) {
    const factor = analyzed.misestimate!.latencySeconds;
    line += `  (actual tokens=${tokens(analyzed.actual.tokens)}${spent(analyzed.actual)} cost=${money(analyzed.actual.costUsd)} time=${seconds(analyzed.actual.latencySeconds)} attempts=${analyzed.attempts}; time ${factor.direction === 'exact' ? 'on estimate' : `${factor.direction}-estimated ×${factor.factor.toFixed(1)}`})`;
    if (analyzed.calibration) line += `  ${calibrationNote(analyzed.calibration)}`;
    if (analyzed.modelCalls?.some((call) => call.cache !== 'off' || call.providerCachedInputTokens)) line += `  ${modelCallsText(analyzed.modelCalls)}`;
    if (analyzed.compression) line += `  ${compressionText(analyzed.compression)}`;
    if (analyzed.toolLoop) line += `  ${toolLoopText(analyzed.toolLoop)}`;
    if (analyzed.budget) line += `  [run budget used: ${budgetUsedText(analyzed.budget, limits)}]`;
  } else if (analyzed) line += `  (${analyzed.status})`;
  return line;
}

export function renderExplainTree(explain: ExplainResult): string {
  const lines: string[] = [];
  const analyzed = new Map((explain.analyze?.nodes ?? []).map((node) => [node.nodeId, node]));
  const byId = new Map(explain.graph.nodes.map((node) => [node.id, node]));
  const consumed = new Set(explain.graph.nodes.flatMap((node) => node.inputs));
  const printed = new Set<string>();
  const walk = (node: GraphNode, depth: number) => {
    // The graph is a DAG; like psql's tree, each node is printed once, under its first consumer.
    if (printed.has(node.id)) return;
    const prefix = depth === 0 ? '' : `${'      '.repeat(depth - 1)}  ->  `;
    lines.push(`${prefix}${nodeLine(node, analyzed.get(node.id), explain.analyze?.limits)}`);
    printed.add(node.id);
    for (const input of node.inputs) walk(byId.get(input)!, depth + 1);
  };
  lines.push(`Plan ${explain.planHash}  (plan cache ${explain.planCache.status}, planned in ${explain.planningMs.toFixed(2)} ms, cost model ${explain.costModel.version})`);
  const cache = explain.planCache;
  if (cache.status === 'hit' && cache.servedIntent !== undefined) lines.push(`Plan cache: hit (${cache.tier ?? 'store'}), planned for "${cache.servedIntent}", similarity ${(cache.similarity ?? 1).toFixed(3)}`);
  if (cache.nearMiss) lines.push(`Plan cache: near miss on "${cache.nearMiss.intent}" (similarity ${cache.nearMiss.similarity.toFixed(3)}, threshold ${cache.nearMiss.threshold}): differs in ${cache.nearMiss.differs.join(', ')}${cache.nearMiss.invalidatedReason ? ` (${cache.nearMiss.invalidatedReason})` : ''}`);
  lines.push(`Intent: ${explain.intent.classes.join(', ')}${explain.intent.entities.length ? `; entities: ${explain.intent.entities.join(', ')}` : ''}${explain.intent.identifiers.length ? `; identifiers: ${explain.intent.identifiers.map((identifier) => `${identifier.kind}=${identifier.value}`).join(', ')}` : ''}`);
  const risk = riskReadingText(explain.intent);
  if (risk) lines.push(risk);
  lines.push(`Chosen: ${explain.chosen.description}  (score ${explain.chosen.score.total.toFixed(3)})`);
  if (explain.estimator) lines.push(`Estimator: ${explain.estimator.name}${explain.estimator.name === explain.estimator.prior ? ' (no observations yet)' : ` over ${explain.estimator.prior}, ${explain.estimator.samples} runs behind the least-observed field`}`);
  if (explain.reasonerGain) lines.push(`Reasoner gain: ${explain.reasonerGain.text}`);
  if (explain.learning) {
    const { learning } = explain;
    const safety = learning.risked === undefined ? '' : `; risked ${learning.risked.toFixed(3)} of ${learning.allowance.toFixed(3)} allowed`;
    lines.push(`Bandit: arm ${learning.arm} (${learning.samples ?? 0} runs), estimate ${learning.estimate.mean.toFixed(3)} + bonus ${learning.estimate.bonus.toFixed(3)} = ${learning.estimate.upper.toFixed(3)}${learning.explored ? ' (explored: best mean was ' + learning.greedyArm + ')' : ''}${safety}; PlanScore alone: ${learning.optimizerCandidateId}`);
  }
  lines.push(`Estimated: cost ${range(explain.estimates.costUsd, money)}, latency ${range(explain.estimates.latencySeconds, seconds)}, tokens ${range(explain.estimates.tokens, tokens)}, accuracy ${range(explain.estimates.accuracy, (value) => value.toFixed(2))}`);
  lines.push('');
  for (const root of explain.graph.nodes.filter((node) => !consumed.has(node.id))) walk(root, 0);
  if (explain.analyze) {
    const totals = explain.analyze.totals;
    lines.push('', `Run ${explain.analyze.runId}: ${explain.analyze.status}; actual tokens=${tokens(totals.actual.tokens)} cost=${money(totals.actual.costUsd)} time=${seconds(totals.actual.latencySeconds)} (estimated tokens=${tokens(totals.estimate.tokens)} cost=${money(totals.estimate.costUsd)} time=${seconds(totals.estimate.latencySeconds)})`);
    const last = explain.analyze.nodes.reduce<AnalyzedNode['budget']>((latest, node) => (node.budget && (!latest || node.budget.elapsedSeconds >= latest.elapsedSeconds) ? node.budget : latest), undefined);
    if (last && explain.analyze.limits) lines.push(`Run budget: ${budgetUsedText(last, explain.analyze.limits)}`);
    if (explain.analyze.calibration) lines.push(`Estimator ${calibrationNote(explain.analyze.calibration)} (coverage = share of past actuals inside the p05–p95 interval)`);
  }
  const feasible = explain.candidates.filter((candidate) => candidate.feasible);
  const rejectedByStage = rejectedCountsByStage(explain);
  const cuts = [...rejectedByStage].reduce((sum, [stage, count]) => sum + (stage === 'dominated' ? 0 : count), 0);
  lines.push('', `Candidates: ${explain.enumerated} enumerated, ${cuts} rule/capability cuts; best feasible:`);
  for (const candidate of feasible.slice(0, 5)) lines.push(`  ${candidate.chosen ? '*' : ' '} ${candidate.score.total.toFixed(3)}  ${candidate.description}`);
  for (const candidate of explain.candidates.filter((entry) => !entry.feasible).slice(0, 3)) lines.push(`  x ${candidate.description}: ${candidate.violations.map((violation) => violation.message).join('; ')}`);
  if (explain.rejectedCandidates.length) {
    lines.push('Rejected candidates:');
    const dominated = rejectedByStage.get('dominated') ?? 0;
    const truncated = rejectedTruncationNote(explain);
    if (truncated) lines.push(`  (${truncated}: this run's stored EXPLAIN)`);
    for (const rejected of explain.rejectedCandidates.filter((entry) => entry.stage !== 'dominated')) {
      lines.push(`  - [${rejected.stage}] ${'description' in rejected.candidate ? rejected.candidate.description : rejected.candidate.id}: ${rejected.reason} (rule ${rejected.rule})`);
    }
    if (dominated) lines.push(`  - [dominated] ${dominated} candidates no better on any estimate than a surviving one (rule optimizer.dominated; --json lists ${truncated ? 'the best of them' : 'them'})`);
  }
  lines.push(`Sources: ${explain.selectedSources.join(', ') || '(none)'}`);
  for (const rejected of explain.rejectedSources) lines.push(`  - rejected ${rejected.source} (${rejected.reason}): ${rejected.detail}`);
  for (const contradiction of explain.contradictions ?? []) lines.push(`Contradiction: ${contradiction.subject} ${contradiction.attribute}: ${valuesWithSources(contradiction)}`);
  // Listed so "why no caveat?" has an answer, and marked so nobody reads them as the goal's.
  for (const contradiction of explain.otherContradictions ?? []) lines.push(`Contradiction (not about this goal, no caveat): ${contradiction.subject} ${contradiction.attribute}: ${valuesWithSources(contradiction)}`);
  lines.push(`Token budget: ${explain.tokenBudget.budget} tokens, final_k ${explain.tokenBudget.finalK}, estimated context ${explain.tokenBudget.estimatedContextTokens} tokens`);
  lines.push(`Verification: ${explain.verificationPlan.method}${explain.verificationPlan.requireCitations ? ', citations required' : ''}${explain.verificationPlan.approval ? ', human approval' : ''}${explain.verificationPlan.reasons.length ? ` — ${explain.verificationPlan.reasons.join('; ')}` : ''}`);
  const missing = Object.values(explain.capabilities.store.missing);
  if (missing.length) lines.push(`Store (${explain.capabilities.store.backend}): ${missing.join('; ')}`);
  return lines.join('\n');
}
