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
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReasonerPlugin } from '../../server/runtime/contracts/reasoner';
import type { ExecutionGraph } from '../../server/runtime/ir/graph';
import { answerOutputsOf, findNodesByRole, outputOf } from '../../server/runtime/ir/node-outputs';
import { loadBeirDataset } from '../retrieval/beir-dataset';
import { ingestDataset } from '../retrieval/bench-database';
import { openBenchRuntime } from '../retrieval/bench-runtime';
import { answerInContext, mean } from '../retrieval/metrics';
import { type ArmSettings, armCompressions, type CompressionArm, writeArmConfig } from './compression-arms';
import { scoreShortAnswer, type ShortAnswerScore } from './short-answer-scoring';

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

interface Outcome extends ShortAnswerScore {
  readonly id: string;
  readonly half: 'tune' | 'heldout';
  readonly mode: string;
  readonly arm: CompressionArm;
  readonly reasoning: string;
  readonly compression: string;
  readonly goldInContext: number;
  readonly contextTokens: number;
  readonly status: string;
}

export async function runDatasetAnswers(options: DatasetAnswerOptions): Promise<void> {
  const dataset = loadBeirDataset(resolveDatasetFolder(options.dataset), options.split);
  const questions = dataset.queries.filter((query) => dataset.qrels.has(query.id) && (query.answers?.length ?? 0) > 0).slice(0, options.limit);
  const started = performance.now();
  const corpus = await ingestDataset(dataset);
  const arms = options.compression ?? ['off'];
  const settings = options.armSettings ?? { budget: 500 };
  const outcomes: Outcome[] = [];
  console.log(`${dataset.name} (${options.split}): ${dataset.documents.length} documents ingested in ${((performance.now() - started) / 1000).toFixed(1)} s; ${questions.length} questions; modes ${options.modes.join(', ')}; compression ${arms.join(', ')} (budget ${settings.budget})\n`);
  try {
    for (const arm of arms) {
      let registered: ReasonerPlugin[] = [];
      const selectable: ReasonerPlugin[] = [];
      const bench = await openBenchRuntime(writeArmConfig(corpus.root, corpus.dataDir, arm, settings), (plugins) => {
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
            const context = (await bench.runtime.evidence(result.runId)).map((item) => item.text).join('\n');
            const reasoning = result.explain.chosen.choice.reasoning;
            const compression = result.explain.chosen.choice.compression;
            const outcome: Outcome = { id: question.id, half, mode, arm, reasoning, compression, ...scoreShortAnswer(answer, question.answers!), goldInContext: Number(answerInContext(question.answers!, context)), contextTokens: (result.explain.tokenBudget.bySource ?? []).reduce((sum, source) => sum + source.tokens, 0), status: result.status };
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
    printTable(dataset.name, options.modes, outcomes);
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

function printTable(name: string, modes: readonly string[], outcomes: readonly Outcome[]): void {
  const percent = (values: readonly number[]) => `${(100 * mean(values)).toFixed(1)}`.padStart(6);
  const tally = (values: readonly string[]) => [...new Set(values)].map((value) => `${value}×${values.filter((other) => other === value).length}`).join(' ');
  const arms = [...new Set(outcomes.map((outcome) => outcome.arm))];
  console.log(`\n${name}: answer quality per reasoner mode and compression arm (offline reader)`);
  console.log('half     mode           arm        n      EM      F1  in-answer  in-context  ctx tokens  chose / compression');
  for (const half of ['tune', 'heldout', 'all'] as const) {
    for (const mode of modes) {
      for (const arm of arms) {
        const rows = outcomes.filter((outcome) => outcome.mode === mode && outcome.arm === arm && (half === 'all' || outcome.half === half));
        if (rows.length === 0) continue;
        console.log(
          `${half.padEnd(8)} ${mode.padEnd(14)} ${arm.padEnd(8)} ${String(rows.length).padStart(3)}  ${percent(rows.map((row) => row.exactMatch))}  ${percent(rows.map((row) => row.f1))}  ${percent(rows.map((row) => row.goldInAnswer)).padStart(9)}  ${percent(rows.map((row) => row.goldInContext)).padStart(10)}  ${String(Math.round(mean(rows.map((row) => row.contextTokens)))).padStart(10)}  ${tally(rows.map((row) => row.reasoning))} / ${tally(rows.map((row) => row.compression))}`,
        );
      }
    }
  }
  if (!arms.includes('off') || arms.length < 2) return;
  // The acceptance figure: tokens cut and F1 lost against the uncompressed run, per half.
  console.log('\nhalf     mode           arm       tokens cut  F1 lost (points)  in-answer lost (points)');
  for (const half of ['tune', 'heldout', 'all'] as const) {
    for (const mode of modes) {
      const of = (arm: string) => outcomes.filter((outcome) => outcome.mode === mode && outcome.arm === arm && (half === 'all' || outcome.half === half));
      const off = of('off');
      if (off.length === 0) continue;
      for (const arm of arms.filter((other) => other !== 'off')) {
        const rows = of(arm);
        const ratio = mean(off.map((row) => row.contextTokens)) / Math.max(1, mean(rows.map((row) => row.contextTokens)));
        const lost = (pick: (row: Outcome) => number) => (100 * (mean(off.map(pick)) - mean(rows.map(pick)))).toFixed(1);
        console.log(`${half.padEnd(8)} ${mode.padEnd(14)} ${arm.padEnd(8)} ${`${ratio.toFixed(2)}×`.padStart(11)}  ${lost((row) => row.f1).padStart(16)}  ${lost((row) => row.goldInAnswer).padStart(23)}`);
      }
    }
  }
}
