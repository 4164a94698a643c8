import { describe, expect, it } from 'vitest';
import { opensWithInstruction } from './extractive-cues';

describe('instructions in a runbook\'s prose', () => {
  it('reads a sentence opening with an imperative verb as an instruction, after a list marker too', () => {
    expect(opensWithInstruction('Do it in three steps: add the new field next to the old one, then tell #label-consumers.')).toBe(true);
    expect(opensWithInstruction('- restart label-api on lab-01 (`sudo systemctl restart label-api`).')).toBe(true);
    expect(opensWithInstruction('2. Check the queue dashboard.')).toBe(true);
  });

  it('does not read a prohibition, a question or a statement as one', () => {
    expect(opensWithInstruction('Do **not** `FLUSHALL`: the API would serve stale labels.')).toBe(false);
    expect(opensWithInstruction('Do the printers restart on their own?')).toBe(false);
    expect(opensWithInstruction('The spooler restarts at 02:00.')).toBe(false);
  });
});
