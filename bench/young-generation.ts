/**
 * Which young generation this bench process runs with, for its first line: planner timings move by
 * a factor of five with it (scripts/young-generation.mjs), so a figure is read with its setting.
 */
import { YOUNG_GENERATION_FLAG } from '../scripts/young-generation.mjs';

const FLAG = /--max-semi-space-size[= ](\d+)/;

export function youngGenerationNote(): string {
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').match(FLAG);
  return chosen
    ? `young generation: semi-spaces up to ${chosen[1]} MB (--max-semi-space-size, as npm start runs the server)`
    : `young generation: V8 default (semi-spaces 1 → 16 MB), not the server's ${YOUNG_GENERATION_FLAG}: run it through npm run bench:… to measure what npm start serves`;
}
