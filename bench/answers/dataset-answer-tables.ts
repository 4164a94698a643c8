/**
 * bench:answers --dataset tables: answer quality per reasoner mode and half, citation precision and
 * recall against the gold passages, and answer F1 by where the answer's gold passage sat in the
 * context (lost in the middle), all from one run's outcomes.
 */
import { mean } from '../retrieval/metrics';
import { POSITION_BUCKETS, type PositionBucket } from './gold-passage-figures';
import type { ShortAnswerScore } from './short-answer-scoring';

export interface DatasetOutcome extends ShortAnswerScore {
  readonly id: string;
  readonly half: 'tune' | 'heldout';
  readonly mode: string;
  readonly reasoning: string;
  /** The plan's primary intent class (what a fitted reasoner gain is keyed by). */
  readonly intent: string;
  readonly goldInContext: number;
  readonly contextTokens: number;
  readonly status: string;
  /** Absent when the answer cites nothing. */
  readonly citationPrecision?: number;
  readonly citationRecall: number;
  readonly goldPosition: PositionBucket;
}

const percent = (values: readonly number[]) => (values.length === 0 ? '—' : `${(100 * mean(values)).toFixed(1)}`);

export function printDatasetTables(name: string, modes: readonly string[], outcomes: readonly DatasetOutcome[]): void {
  console.log(`\n${name}: answer quality per reasoner mode (offline reader)`);
  console.log('half     mode            n      EM      F1  in-answer  in-context  cite P  cite R  ctx tokens  chose');
  for (const half of ['tune', 'heldout', 'all'] as const) {
    for (const mode of modes) {
      const rows = outcomes.filter((outcome) => outcome.mode === mode && (half === 'all' || outcome.half === half));
      if (rows.length === 0) continue;
      const chose = [...new Set(rows.map((row) => row.reasoning))].map((reasoning) => `${reasoning}×${rows.filter((row) => row.reasoning === reasoning).length}`).join(' ');
      // Precision over answers that cite: an answer citing nothing has no precision to average.
      const precision = rows.flatMap((row) => (row.citationPrecision === undefined ? [] : [row.citationPrecision]));
      console.log(
        `${half.padEnd(8)} ${mode.padEnd(14)} ${String(rows.length).padStart(3)}  ${percent(rows.map((row) => row.exactMatch)).padStart(6)}  ${percent(rows.map((row) => row.f1)).padStart(6)}  ${percent(rows.map((row) => row.goldInAnswer)).padStart(9)}  ${percent(rows.map((row) => row.goldInContext)).padStart(10)}  ${percent(precision).padStart(6)}  ${percent(rows.map((row) => row.citationRecall)).padStart(6)}  ${String(Math.round(mean(rows.map((row) => row.contextTokens)))).padStart(10)}  ${chose}`,
      );
    }
  }
  console.log(`\n${name}: answer by the position of the answer's gold passage in the context (all questions, both halves)`);
  console.log(`mode            ${POSITION_BUCKETS.map((bucket) => `${bucket}: n / F1 / in-answer`.padStart(34)).join('')}`);
  for (const mode of modes) {
    const rows = outcomes.filter((outcome) => outcome.mode === mode);
    if (rows.length === 0) continue;
    const cells = POSITION_BUCKETS.map((bucket) => {
      const inBucket = rows.filter((row) => row.goldPosition === bucket);
      return `${inBucket.length} / ${percent(inBucket.map((row) => row.f1))} / ${percent(inBucket.map((row) => row.goldInAnswer))}`.padStart(34);
    });
    console.log(`${mode.padEnd(14)}  ${cells.join('')}`);
  }
}
