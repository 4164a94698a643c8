/**
 * Answer quality on a BEIR-layout multi-hop set (issue 15, point 3):
 *   npm run bench:answers -- --dataset musique|hotpotqa|<folder> [--split train] [--modes single_shot,decomposition,planner] [--json FILE] [--verbose]
 * Ingests the corpus into a fresh embedded database (bench/retrieval's ingest), opens the runtime
 * over it with the offline default reader, and runs every question of the split once per mode:
 * a fixed reasoner (only that Reasoner plugin registered while it runs, so the planner cannot pick
 * another) or `planner` (every reasoner registered: the cost model chooses). Scores EM / F1 / gold
 * in answer (short-answer-scoring.ts) and gold in the assembled context, split by question
 * position: odd positions (0-based) are the tuning half, even positions are held out and only
 * ever printed as totals.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReasonerPlugin } from '../../server/runtime/contracts/reasoner';
import type { ExecutionGraph } from '../../server/runtime/ir/graph';
import { answerOutputsOf, findNodesByRole, outputOf } from '../../server/runtime/ir/node-outputs';
import { loadBeirDataset } from '../retrieval/beir-dataset';
import { ingestDataset } from '../retrieval/bench-database';
import { openBenchRuntime } from '../retrieval/bench-runtime';
import { answerInContext } from '../retrieval/metrics';
import { PROVIDER_DEFAULTS } from '../../server/adapters/models/model-defaults';
import { type ArmSettings, armCompressions, type CompressionArm, writeArmConfig } from './compression-arms';
import { printCompressionTable, printDatasetTables, type DatasetOutcome } from './dataset-answer-tables';
import { goldPosition, scoreGoldCitations } from './gold-passage-figures';
import { fitReasonerGains, gainsConfig, type AnsweredQuestion } from './reasoner-gain-fit';
import { scoreShortAnswer } from './short-answer-scoring';

export interface DatasetAnswerOptions {
  readonly dataset: string;
  readonly split: string;
  readonly modes: readonly string[];
  readonly json?: string;
  readonly verbose: boolean;
  /** Only the first N questions (a quick look while tuning). */
  readonly limit?: number;
  /** Only one half: `tune` while tuning, so held-out questions are not even run. */
  readonly half?: 'tune' | 'heldout';
  /**
   * A JSON this bench wrote for another set (single_shot and decomposition modes): reasoner gains
   * are fitted on it (reasoner-gain-fit.ts) and given to the planner here, out of fold.
   */
  readonly fitGainsFrom?: string;
  /** Compression arms (compression-arms.ts); default `off` alone, the runtime as a user gets it. */
  readonly compression?: readonly CompressionArm[];
  readonly armSettings?: ArmSettings;
}

const NAMED: Readonly<Record<string, string>> = { musique: 'musique-train100', hotpotqa: 'hotpotqa-train100' };

/** A folder as given, else a named set under ../shared/datasets seen from the checkout or a worktree of it. */
export function resolveDatasetFolder(name: string): string {
  const folder = NAMED[name] ?? name;
  const candidates = [resolve(folder), ...['../shared/datasets', '../../shared/datasets'].map((base) => resolve(base, folder))];
  const found = candidates.find((candidate) => existsSync(join(candidate, 'queries.jsonl')));
  if (!found) throw new Error(`--dataset ${name}: no queries.jsonl in ${candidates.join(' or ')}`);
  return found;
}


export async function runDatasetAnswers(options: DatasetAnswerOptions): Promise<void> {
  const dataset = loadBeirDataset(resolveDatasetFolder(options.dataset), options.split);
  const questions = dataset.queries.filter((query) => dataset.qrels.has(query.id) && (query.answers?.length ?? 0) > 0).slice(0, options.limit);
  const started = performance.now();
  const corpus = await ingestDataset(dataset);
  // Defaults as a user gets them; no plan cache, so a mode never reuses another mode's plan. No
  // learning either: the bandit and learned-v2 learn from every run, so a mode run later would plan
  // from what the earlier modes taught (measured: the planner mode chose single_shot for all 100
  // MuSiQue questions and still scored F1 2.0 / in-context 66 against fixed single_shot's 2.1 / 69,
  // its retrieval moved by 200 runs of learning), and the comparison would be of learning states.
  const reasonerGains = options.fitGainsFrom ? fittedGains(options.fitGainsFrom) : undefined;
  const shared = { learning: { enabled: false, learned_estimates: false }, ...(reasonerGains ? { costmodel: { reasoner_gains: reasonerGains } } : {}) };
  const arms = options.compression ?? ['off'];
  const settings = options.armSettings ?? { budget: 500 };
  const outcomes: DatasetOutcome[] = [];
  console.log(`${dataset.name} (${options.split}): ${dataset.documents.length} documents ingested in ${((performance.now() - started) / 1000).toFixed(1)} s; ${questions.length} questions; modes ${options.modes.join(', ')}; compression ${arms.join(', ')} (budget ${settings.budget})\n`);
  try {
    for (const arm of arms) {
      let registered: ReasonerPlugin[] = [];
      const selectable: ReasonerPlugin[] = [];
      const bench = await openBenchRuntime(writeArmConfig(corpus.root, corpus.dataDir, arm, settings, shared), (plugins) => {
        registered = [...plugins.reasoners];
        selectable.push(...registered);
        return { ...plugins, reasoners: selectable, compressions: armCompressions(arm, plugins) };
      });
      try {
        for (const mode of options.modes) {
          const chosen = mode === 'planner' ? registered : registered.filter((reasoner) => reasoner.strategy === mode);
          if (chosen.length === 0) throw new Error(`--modes: no reasoner "${mode}" is registered (registered: ${registered.map((reasoner) => reasoner.strategy).join(', ')})`);
          selectable.splice(0, selectable.length, ...chosen);
          for (const [index, question] of questions.entries()) {
            const half = index % 2 === 1 ? 'tune' : 'heldout';
            if (options.half && half !== options.half) continue;
            const result = await bench.runtime.run({ goal: question.text });
            const answer = result.answer ?? '';
            const evidence = await bench.runtime.evidence(result.runId);
            const context = evidence.map((item) => item.text).join('\n');
            const reasoning = result.explain.chosen.choice.reasoning;
            const compression = result.explain.chosen.choice.compression;
            const gold = new Set(dataset.qrels.get(question.id)!.keys());
            const documentOf = (chunkId: string) => corpus.documentOf.get(chunkId) ?? chunkId;
            const cited = scoreGoldCitations(result.citations.map((citation) => documentOf(citation.chunkId)), gold);
            const position = goldPosition(evidence.map((item) => ({ documentId: documentOf(item.hit.chunkId), text: item.text })), gold, question.answers!);
            const outcome: DatasetOutcome = {
              id: question.id, half, mode, arm, reasoning, compression, intent: result.explain.intent.primary, ...scoreShortAnswer(answer, question.answers!),
              goldInContext: Number(answerInContext(question.answers!, context)), contextTokens: (result.explain.tokenBudget.bySource ?? []).reduce((sum, source) => sum + source.tokens, 0), status: result.status,
              ...(cited.precision !== undefined ? { citationPrecision: cited.precision } : {}), citationRecall: cited.recall, goldPosition: position.bucket,
            };
            outcomes.push(outcome);
            // Held-out questions are never shown one by one.
            if (options.verbose && half === 'tune') console.log(`${mode}/${arm} ${question.id} [${reasoning}, ${compression}] F1 ${outcome.f1.toFixed(2)} in-answer ${outcome.goldInAnswer} in-context ${outcome.goldInContext}\n   Q: ${question.text}\n   gold: ${question.answers![0]}\n   A: ${answer.replace(/\s+/g, ' ').slice(0, 400)}`);
            if (options.verbose && half === 'tune') await printHops(bench, result.runId);
          }
        }
      } finally {
        await bench.close();
      }
    }
    printDatasetTables(dataset.name, options.modes, outcomes);
    printCompressionTable(options.modes, outcomes);
    if (options.json) writeFileSync(options.json, JSON.stringify({ dataset: dataset.name, split: options.split, outcomes }, null, 2));
  } finally {
    rmSync(corpus.root, { recursive: true, force: true });
  }
}

/** What each hop found (tuning half only): the bridge names and the second retrieval's titles. */
async function printHops(bench: Awaited<ReturnType<typeof openBenchRuntime>>, runId: string): Promise<void> {
  const record = await bench.plugins.runStore.loadRun(runId);
  const graph = (record?.plan as { explain?: { graph?: ExecutionGraph } } | undefined)?.explain?.graph;
  if (!record || !graph) return;
  for (const node of findNodesByRole(graph, 'reason').filter((reason) => reason.purpose === 'bridge')) console.log(`   ${node.id} bridge: ${JSON.stringify(outputOf(record.nodeOutcomes, node)?.bridge ?? [])}`);
  for (const node of findNodesByRole(graph, 'retrieve').filter((retrieve) => retrieve.bridgeFrom)) console.log(`   ${node.id}: ${(outputOf(record.nodeOutcomes, node)?.hits ?? []).slice(0, 5).map((hit) => hit.title).join(' | ')}`);
  const context = answerOutputsOf(graph, record.nodeOutcomes).context;
  console.log(`   context: ${(context?.items ?? []).map((item) => item.hit.title).join(' | ')}`);
}

/** Gains fitted on another set's answers, for the offline tier the bench plans with. */
function fittedGains(path: string): Record<string, Record<string, number>> {
  const fitted = JSON.parse(readFileSync(path, 'utf8')) as { dataset: string; outcomes: AnsweredQuestion[] };
  const gains = fitReasonerGains(fitted.outcomes, PROVIDER_DEFAULTS.extractive.qualityPrior);
  console.log(`reasoner gains fitted on ${fitted.dataset} (${path}), all its questions, quality prior ${PROVIDER_DEFAULTS.extractive.qualityPrior}:`);
  for (const gain of gains) console.log(`  ${gain.reasoner} / ${gain.intent}: ${gain.questions} questions, F1 ${(100 * gain.baselineF1).toFixed(2)} → ${(100 * gain.reasonerF1).toFixed(2)}, gain ${gain.gain.toFixed(4)}`);
  return gainsConfig(gains);
}
