import { describe, expect, it } from 'vitest';
import { gridOfLog } from './rm3-leave-set-out';
import { optionLabel, RM3_OPTION_GRID } from './rm3-option-search';

const log = (set: string, lines: readonly string[]) => `bench:retrieval ${set}/train: 10 documents, 2 queries\n  rm3: done in 1 s\n${lines.join('\n')}\n`;

describe('rm3 grid read from a bench:retrieval --rm3-cv output', () => {
  it('reads every grid point by its label, whatever the order they were printed in', () => {
    const lines = RM3_OPTION_GRID.map((options, index) => `    ${optionLabel(options)}: ${(index / 100).toFixed(4)}`).reverse();
    const grid = gridOfLog('x.log', log('scifact', lines));
    expect(grid.set).toBe('scifact');
    expect(grid.means).toEqual(RM3_OPTION_GRID.map((_, index) => Number((index / 100).toFixed(4))));
  });

  it('names the file and the first missing point when the grid is incomplete', () => {
    const lines = RM3_OPTION_GRID.slice(1).map((options) => `    ${optionLabel(options)}: 0.5000`);
    expect(() => gridOfLog('x.log', log('scifact', lines))).toThrow(`x.log: 1 grid points missing (first: ${optionLabel(RM3_OPTION_GRID[0])})`);
  });

  it('refuses a file that is not a bench:retrieval output', () => {
    expect(() => gridOfLog('notes.txt', 'hello')).toThrow(/notes.txt: no "bench:retrieval SET\/SPLIT" header/);
  });
});
