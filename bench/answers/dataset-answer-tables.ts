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
  /** The compression arm (compression-arms.ts): `off` unless the run compares compressions. */
  readonly arm: string;
  readonly reasoning: string;
  /** The plan's compression method. */
  readonly compression: string;
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
const tally = (values: readonly string[]) => [...new Set(values)].map((value) => `${value}×${values.filter((other) => other === value).length}`).join(' ');

export function printDatasetTables(name: string, modes: readonly string[], outcomes: readonly DatasetOutcome[]): void {
  const arms = [...new Set(outcomes.map((outcome) => outcome.arm))];
  console.log(`\n${name}: answer quality per reasoner mode and compression arm (offline reader)`);
  console.log('half     mode           arm        n      EM      F1  in-answer  in-context  cite P  cite R  ctx tokens  chose / compression');
  for (const half of ['tune', 'heldout', 'all'] as const) {
    for (const mode of modes) {
      for (const arm of arms) {
        const rows = outcomes.filter((outcome) => outcome.mode === mode && outcome.arm === arm && (half === 'all' || outcome.half === half));
        if (rows.length === 0) continue;
        // Precision over answers that cite: an answer citing nothing has no precision to average.
        const precision = rows.flatMap((row) => (row.citationPrecision === undefined ? [] : [row.citationPrecision]));
        console.log(
          `${half.padEnd(8)} ${mode.padEnd(14)} ${arm.padEnd(8)} ${String(rows.length).padStart(3)}  ${percent(rows.map((row) => row.exactMatch)).padStart(6)}  ${percent(rows.map((row) => row.f1)).padStart(6)}  ${percent(rows.map((row) => row.goldInAnswer)).padStart(9)}  ${percent(rows.map((row) => row.goldInContext)).padStart(10)}  ${percent(precision).padStart(6)}  ${percent(rows.map((row) => row.citationRecall)).padStart(6)}  ${String(Math.round(mean(rows.map((row) => row.contextTokens)))).padStart(10)}  ${tally(rows.map((row) => row.reasoning))} / ${tally(rows.map((row) => row.compression))}`,
        );
      }
    }
  }
  console.log(`\n${name}: answer by the position of the answer's gold passage in the context (all questions, both halves)`);
  console.log(`mode            ${POSITION_BUCKETS.map((bucket) => `${bucket}: n / F1 / in-answer`.padStart(34)).join('')}`);
  for (const mode of modes) {
    // The uncompressed arm when there is one: a compressed context moves the gold passage.
    const rows = outcomes.filter((outcome) => outcome.mode === mode && outcome.arm === (arms.includes('off') ? 'off' : arms[0]));
    if (rows.length === 0) continue;
    const cells = POSITION_BUCKETS.map((bucket) => {
      const inBucket = rows.filter((row) => row.goldPosition === bucket);
      return `${inBucket.length} / ${percent(inBucket.map((row) => row.f1))} / ${percent(inBucket.map((row) => row.goldInAnswer))}`.padStart(34);
    });
    console.log(`${mode.padEnd(14)}  ${cells.join('')}`);
  }
}

/** The compression acceptance figure: tokens cut and F1 lost against the uncompressed arm, per half. */
export function printCompressionTable(modes: readonly string[], outcomes: readonly DatasetOutcome[]): void {
  const arms = [...new Set(outcomes.map((outcome) => outcome.arm))];
  if (!arms.includes('off') || arms.length < 2) return;
  console.log('\nhalf     mode           arm       tokens cut  F1 lost (points)  in-answer lost (points)');
  for (const half of ['tune', 'heldout', 'all'] as const) {
    for (const mode of modes) {
      const of = (arm: string) => outcomes.filter((outcome) => outcome.mode === mode && outcome.arm === arm && (half === 'all' || outcome.half === half));
      const off = of('off');
      if (off.length === 0) continue;
      for (const arm of arms.filter((other) => other !== 'off')) {
        const rows = of(arm);
        const ratio = mean(off.map((row) => row.contextTokens)) / Math.max(1, mean(rows.map((row) => row.contextTokens)));
        const lost = (pick: (row: DatasetOutcome) => number) => (100 * (mean(off.map(pick)) - mean(rows.map(pick)))).toFixed(1);
        console.log(`${half.padEnd(8)} ${mode.padEnd(14)} ${arm.padEnd(8)} ${`${ratio.toFixed(2)}×`.padStart(11)}  ${lost((row) => row.f1).padStart(16)}  ${lost((row) => row.goldInAnswer).padStart(23)}`);
      }
    }
  }
}
