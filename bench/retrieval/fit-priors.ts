/**
 * Fits the shipped method priors and reranker from every set's records (bench:retrieval --records)
 * and prints them as fitted-prior-ratios.ts and rerank-model.ts want them, with the out-of-fold
 * evidence that decides what the planner prefers: the reranker's gain per set, 5-fold over the
 * pooled sets and leaving each set out.
 *
 *   npx tsx bench/retrieval/fit-priors.ts /tmp/scifact.records.json /tmp/musique.records.json …
 */
import { FITTED_METHODS } from '../../server/adapters/retrievers/fitted-prior-ratios';
import { RERANK_FEATURES } from '../../server/adapters/retrievers/rerank-features';
import { rankWith, trainPairwise } from './pairwise-trainer';
import { BASELINE_METHOD, DEFAULT_CROSS_VALIDATION, type FittedPriors, fitPriors, RERANK_TRAINING, rerankOutOfFold } from './prior-fitting';
import { type QueryRecord, readRecords, scoreRanking, trainingQueryOf } from './query-records';

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const keyOf = (record: QueryRecord) => `${record.set}/${record.id}`;

function describe(fit: FittedPriors): string {
  const fusion = Object.entries(fit.fusion).map(([pair, ratios]) => `    fused ${pair} / better member: ${Object.entries(ratios).map(([intent, ratio]) => `${intent} ${ratio!.toFixed(3)}`).join(', ')}`);
  return Object.entries(fit.classSizes)
    .sort((left, right) => right[1] - left[1])
    .map(([intent, size]) => `    ${intent} (${size}): ${FITTED_METHODS.map((method) => `${method} ${fit.ratios[method][intent].toFixed(3)}`).join(', ')}`)
    .concat(fusion)
    .join('\n');
}

const scaled = (weights: readonly number[]): string => `{ ${RERANK_FEATURES.map((name, index) => `${name}: ${(weights[index] / (Math.abs(weights[0]) || 1)).toFixed(4)}`).join(', ')} }`;

function main(): void {
  const paths = process.argv.slice(2);
  if (paths.length === 0) {
    console.error('usage: npx tsx bench/retrieval/fit-priors.ts RECORDS.json [RECORDS.json …] (written by bench:retrieval --records)');
    process.exit(2);
  }
  const records = readRecords(paths);
  const sets = [...new Set(records.map((record) => record.set))];
  console.log(`${records.length} records from ${sets.map((set) => `${set} (${records.filter((record) => record.set === set).length})`).join(', ')}; folds ${DEFAULT_CROSS_VALIDATION.folds}, seed ${DEFAULT_CROSS_VALIDATION.seed}`);

  // The reranker's out-of-fold gain over bm25, per set: pooled 5-fold, and trained on the other sets only.
  const pooled = rerankOutOfFold(records, DEFAULT_CROSS_VALIDATION);
  console.log('\nrerank out-of-fold gain over bm25 (metric of each set: nDCG@10 SciFact, Recall@5 multi-hop):');
  for (const set of sets) {
    const own = records.filter((record) => record.set === set);
    const others = records.filter((record) => record.set !== set);
    const heads = others.map(trainingQueryOf).filter((query) => query !== undefined);
    const leftOut = heads.length > 0 ? fitPriors(others) : undefined;
    const lodoGain = leftOut?.reranker ? mean(own.map((record) => rerankScore(record, leftOut.reranker!.weights) - record.scores[BASELINE_METHOD])) : Number.NaN;
    const inSample = mean(own.map((record) => (record.scores.rerank ?? Number.NaN) - record.scores[BASELINE_METHOD]));
    console.log(`  ${set}: shipped model (trained on SciFact train) ${inSample.toFixed(4)}; pooled 5-fold ${mean(own.map((record) => pooled.get(keyOf(record))! - record.scores[BASELINE_METHOD])).toFixed(4)}; trained on the other sets ${lodoGain.toFixed(4)}`);
    if (leftOut) console.log(`    fitted without ${set}: reranker gain on its own data ${leftOut.reranker?.oofGain.toFixed(4)}; ratios\n${describe(leftOut)}`);
  }

  const fit = fitPriors(records);
  console.log(`\nfitted on all ${records.length} records: reranker out-of-fold gain ${fit.reranker?.oofGain.toFixed(4)} → ${fit.reranker && fit.reranker.oofGain > 0 ? 'preferred where its ratio > 1' : 'not preferred'}`);
  console.log(describe(fit));
  console.log('\nFITTED_PRIOR_RATIOS = {');
  for (const method of FITTED_METHODS) console.log(`  ${method}: { ${Object.entries(fit.ratios[method]).map(([intent, ratio]) => `${intent}: ${ratio.toFixed(3)}`).join(', ')} },`);
  console.log('}');
  console.log('FITTED_FUSION_RATIOS = {');
  for (const [pair, ratios] of Object.entries(fit.fusion)) console.log(`  '${pair}': { ${Object.entries(ratios).map(([intent, ratio]) => `${intent}: ${ratio!.toFixed(3)}`).join(', ')} },`);
  console.log('}');
  if (fit.reranker) {
    console.log(`rerank model (with cosine), oofGain ${fit.reranker.oofGain.toFixed(4)}: ${scaled(fit.reranker.weights)}`);
    const lexicalTraining = { ...RERANK_TRAINING, use: RERANK_TRAINING.use.filter((index) => RERANK_FEATURES[index] !== 'cosine') };
    const lexical = trainPairwise(records.map(trainingQueryOf).filter((query) => query !== undefined), RERANK_FEATURES.length, lexicalTraining);
    const baseline = new Map(records.map((record) => [keyOf(record), record.scores[BASELINE_METHOD]]));
    const lexicalGain = mean([...rerankOutOfFold(records, DEFAULT_CROSS_VALIDATION, lexicalTraining)].map(([key, score]) => score - baseline.get(key)!));
    console.log(`rerank model (lexical), oofGain ${lexicalGain.toFixed(4)}: ${scaled(lexical)}`);
  }
}

function rerankScore(record: QueryRecord, weights: readonly number[]): number {
  const query = trainingQueryOf(record);
  return query ? scoreRanking(record.metric, rankWith(query, weights), new Set(record.gold)) : Number.NaN;
}

main();
