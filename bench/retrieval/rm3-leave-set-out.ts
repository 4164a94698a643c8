/**
 * rm3's options by leaving one dataset out (issue 11 point 8, issue 16 point 1): for each set, the
 * grid point with the best mean nDCG@10 over the OTHER sets, and that point's figure on the held-out
 * set. A point every held-out set agrees on was chosen out of sample for each of them, which is
 * what makes it fit to ship as rm3's default.
 *
 *   npx tsx bench/retrieval/rm3-leave-set-out.ts SCIFACT.log MUSIQUE.log HOTPOTQA.log
 *
 * Each file is the printed output of a `bench:retrieval --methods rm3 --rm3-cv 5` run: its header
 * names the set and its grid lines give every point's in-sample mean. The printed output is read,
 * not a --json report, because SciFact's grid takes 40 minutes on a loaded machine and the runs
 * that exist printed it.
 */
import { readFileSync } from 'node:fs';
import { chooseLeavingSetOut, optionLabel, RM3_OPTION_GRID, type SetGrid } from './rm3-option-search';

const HEADER = /^bench:retrieval (\S+)\//m;
const GRID_LINE = /^\s+(\d+ docs \/ \d+ terms \/ λ [\d.]+): ([\d.]+)$/gm;

export function gridOfLog(path: string, text: string): SetGrid {
  const set = HEADER.exec(text)?.[1];
  if (!set) throw new Error(`${path}: no "bench:retrieval SET/SPLIT" header; expected the output of bench:retrieval --rm3-cv`);
  const byLabel = new Map([...text.matchAll(GRID_LINE)].map((match) => [match[1], Number(match[2])]));
  const missing = RM3_OPTION_GRID.map(optionLabel).filter((label) => !byLabel.has(label));
  if (missing.length > 0) throw new Error(`${path}: ${missing.length} grid points missing (first: ${missing[0]}); expected all ${RM3_OPTION_GRID.length} lines of an --rm3-cv run`);
  return { set, means: RM3_OPTION_GRID.map((options) => byLabel.get(optionLabel(options))!) };
}

function main(): void {
  const paths = process.argv.slice(2);
  if (paths.length < 2) {
    console.error('usage: npx tsx bench/retrieval/rm3-leave-set-out.ts RUN.log RUN.log [RUN.log …] (outputs of bench:retrieval --rm3-cv, one per set)');
    process.exit(2);
  }
  const grids = paths.map((path) => gridOfLog(path, readFileSync(path, 'utf8')));
  for (const choice of chooseLeavingSetOut(grids)) {
    const others = grids.filter((grid) => grid.set !== choice.heldOut).map((grid) => grid.set);
    console.log(`${choice.heldOut} held out: chosen on ${others.join(' + ')} ${optionLabel(RM3_OPTION_GRID[choice.chosen])}; on ${choice.heldOut} nDCG@10 ${choice.heldOutScore.toFixed(4)}`);
  }
  const chosen = new Set(chooseLeavingSetOut(grids).map((choice) => choice.chosen));
  console.log(chosen.size === 1 ? `every held-out set chose ${optionLabel(RM3_OPTION_GRID[[...chosen][0]])}` : `the held-out sets chose ${chosen.size} different points`);
}

if (process.argv[1]?.endsWith('rm3-leave-set-out.ts')) main();
