/**
 * Trains the rerank retriever's linear model on one dataset split and reports how well it
 * generalises (k-fold cross-validation over the split's queries, three shuffles).
 *
 *   npx tsx bench/retrieval/train-reranker.ts --dataset ../shared/datasets/scifact --split train [--top-n 30]
 *
 * Features come from RerankRetriever.scoreHead, the code path search() ranks with, over a fresh
 * PGlite holding the corpus (bench-database.ts). Prints the weights as rerank-model.ts wants them.
 */
import { rmSync } from 'node:fs';
import { openStores } from '../../server/adapters/db/open-stores';
import { DenseRetriever } from '../../server/adapters/retrievers/dense-retriever';
import { RERANK_FEATURES } from '../../server/adapters/retrievers/rerank-features';
import { BM25_ORDER_MODEL } from '../../server/adapters/retrievers/rerank-model';
import { RerankRetriever } from '../../server/adapters/retrievers/rerank-retriever';
import { loadBeirDataset } from './beir-dataset';
import { ingestDataset } from './bench-database';
import { RETRIEVAL_DEPTH } from './method-runs';
import { crossValidated, meanNdcg, type TrainingQuery, trainPairwise } from './pairwise-trainer';

const SEEDS = [7, 11, 13];
const FOLDS = 5;

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<void> {
  const dataset = loadBeirDataset(argument('--dataset') ?? '../shared/datasets/scifact', argument('--split') ?? 'train');
  const topN = Number(argument('--top-n') ?? 30);
  const corpus = await ingestDataset(dataset);
  const stores = await openStores({ dataDir: corpus.dataDir });
  const queries: TrainingQuery[] = [];
  try {
    const [bm25] = stores.retrievers;
    const dense = stores.dense instanceof DenseRetriever ? stores.dense : undefined;
    // A model naming the embedder makes scoreHead compute the cosine feature too.
    const extractor = new RerankRetriever(stores.database, bm25, {
      topN,
      model: { ...BM25_ORDER_MODEL, cosineEmbedderId: dense?.embedder.id },
      ...(dense ? { dense } : {}),
    });
    for (const query of dataset.queries) {
      const { hits, features } = await extractor.scoreHead({ text: query.text, k: RETRIEVAL_DEPTH, sources: [corpus.sourceName] }, RETRIEVAL_DEPTH);
      const documents = hits.map((hit) => corpus.documentOf.get(hit.chunkId) ?? hit.chunkId);
      queries.push({ id: query.id, features, documents: documents.slice(0, features.length), tail: documents.slice(features.length), gold: dataset.qrels.get(query.id)! });
    }
  } finally {
    await stores.close();
    rmSync(corpus.root, { recursive: true, force: true });
  }

  const width = RERANK_FEATURES.length;
  const all = RERANK_FEATURES.map((_, index) => index);
  const settings = [
    { name: 'with cosine', use: all },
    { name: 'lexical only', use: all.filter((index) => RERANK_FEATURES[index] !== 'cosine') },
  ];
  const bm25Only = RERANK_FEATURES.map((name) => (name === 'bm25' ? 1 : 0));
  console.log(`${dataset.name}/${dataset.split}: ${queries.length} queries, head ${topN}; first stage (bm25, compounds split) nDCG@10 ${meanNdcg(queries, bm25Only).toFixed(4)}`);
  for (const setting of settings) {
    const options = { l2: 1e-3, epochs: 400, learningRate: 1, use: setting.use };
    const weights = trainPairwise(queries, width, options);
    const folds = SEEDS.map((seed) => crossValidated(queries, width, options, FOLDS, seed));
    const scale = Math.abs(weights[0]) || 1;
    console.log(`\n${setting.name}: nDCG@10 trained and scored on the whole split ${meanNdcg(queries, weights).toFixed(4)}; ${FOLDS}-fold CV ${folds.map((value) => value.toFixed(4)).join(' / ')} (seeds ${SEEDS.join(', ')})`);
    console.log(`  weights: { ${RERANK_FEATURES.map((name, index) => `${name}: ${(weights[index] / scale).toFixed(4)}`).join(', ')} }`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
