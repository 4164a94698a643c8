/**
 * The out-of-fold summary bench:retrieval prints under its table: each method's acceptance metric
 * in sample and out of fold, the planner against bm25 and the best single method, and what each
 * fold's fit decided.
 */
import type { BeirDataset } from './beir-dataset';
import type { OutOfFoldResult } from './out-of-fold-runs';
import type { FittedPriors } from './prior-fitting';
import { metricOf } from './query-records';
import type { MethodFigures } from './report-table';

/** Methods with nothing fitted on labels: their in-sample figure is already out of sample. */
const UNFITTED = new Set(['bm25', 'dense', 'hybrid', 'rm3', 'graph', 'fulltext', 'exact']);

export function primaryFigure(dataset: BeirDataset, figure: MethodFigures | undefined): number {
  if (!figure || figure.skipped) return Number.NaN;
  return metricOf(dataset) === 'ndcg@10' ? figure.ndcg10 : 100 * (figure.recall['R@5'] ?? Number.NaN);
}

const show = (value: number, metric: string): string => (Number.isNaN(value) ? '–' : metric === 'ndcg@10' ? value.toFixed(4) : value.toFixed(1));

export function formatOutOfFold(dataset: BeirDataset, figures: readonly MethodFigures[], result: OutOfFoldResult): string {
  const metric = metricOf(dataset);
  const byMethod = new Map(figures.map((figure) => [figure.method, figure]));
  const value = (method: string) => primaryFigure(dataset, byMethod.get(method));
  const lines = [`out of fold (${result.label}), ${metric === 'ndcg@10' ? 'nDCG@10' : 'Recall@5 (%)'}:`, '', `| method | in sample | out of fold (${result.label}) |`, '|---|---:|---:|'];
  for (const figure of figures.filter((entry) => !entry.method.includes('('))) {
    const oof = UNFITTED.has(figure.method) ? value(figure.method) : value(`${figure.method} (${result.label})`);
    lines.push(`| ${figure.method} | ${show(value(figure.method), metric)} | ${show(oof, metric)}${UNFITTED.has(figure.method) ? ' (nothing fitted)' : ''} |`);
  }
  const singles = [...UNFITTED].filter((method) => byMethod.has(method)).map((method) => [method, value(method)] as const);
  if (byMethod.has(`rerank (${result.label})`)) singles.push(['rerank', value(`rerank (${result.label})`)]);
  const [bestMethod, best] = singles.filter(([, score]) => !Number.isNaN(score)).sort((left, right) => right[1] - left[1])[0] ?? ['–', Number.NaN];
  const planner = value(`planner (${result.label})`);
  const bm25 = value('bm25');
  const point = metric === 'ndcg@10' ? 0.01 : 1;
  lines.push('');
  lines.push(`planner out of fold ${show(planner, metric)}: ${planner >= bm25 ? '≥' : '<'} bm25 ${show(bm25, metric)}; best single method out of fold ${bestMethod} ${show(best, metric)}, planner ${planner >= best - point ? 'within' : 'NOT within'} 1 point (${show(planner - best, metric)})`);
  for (const { fold, heldOut, fit } of result.fits) {
    const classes = Object.entries(fit.classSizes).sort((left, right) => right[1] - left[1]).map(([intent, size]) => `${intent} ${size}: ${Object.entries(fit.ratios).map(([method, ratios]) => `${method} ${ratios[intent]?.toFixed(3)}`).join(', ')}`);
    lines.push(`fold ${fold}: ${heldOut} held out; fitted on ${fit.queries}; rerank out-of-fold gain ${fit.reranker ? fit.reranker.oofGain.toFixed(4) : '–'} (${fit.reranker && fit.reranker.oofGain > 0 ? 'preferred where its ratio > 1' : 'not preferred'}); ratios to bm25 by class: ${classes.join('; ')}; fused / better member: ${fusionText(fit.fusion)}`);
  }
  return lines.join('\n');
}

/** "graph+rm3 multi_hop 0.981, …" (fusion-fitting.ts), or "none measured". */
function fusionText(fusion: FittedPriors['fusion']): string {
  const entries = Object.entries(fusion).flatMap(([pair, ratios]) => Object.entries(ratios).map(([intent, ratio]) => `${pair} ${intent} ${ratio!.toFixed(3)}`));
  return entries.length > 0 ? entries.join(', ') : 'none measured';
}
