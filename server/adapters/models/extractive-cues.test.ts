import { describe, expect, it } from 'vitest';
import { givesInstruction, opensWithInstruction } from './extractive-cues';

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

describe('an instruction that opens with what it is for', () => {
  it('tells you what to run when a directing verb stands right before a quoted command', () => {
    expect(givesInstruction('For a full re-print of one batch use `lpr-batch --reprint 4411` from the spool-admin host.')).toBe(true);
    expect(givesInstruction('To see the queue, run `lpstat -o label-01` on any spooler.')).toBe(true);
    expect(givesInstruction('Restart the spooler.')).toBe(true);
    // A command named, not given; a question quoting one.
    expect(givesInstruction('The nightly job runs `lpr-batch --all` at 02:00.')).toBe(false);
    expect(givesInstruction('Should we use `lpr-batch --reprint` here?')).toBe(false);
  });

  it('tells you what to type into a tool when a where-to-look list names it with a quoted value (fresh f73)', () => {
    expect(givesInstruction('- Loki: `{namespace="print", app="spoold"}`; spooler logs under `{job="spool"}`.')).toBe(true);
    expect(givesInstruction('Print admin UI: `https://print.example.internal`')).toBe(true);
    // A table row goes on with more columns; a sentence quoting a value states it.
    expect(givesInstruction('Alert: `SpoolerDown`, Fires when: no job for 10 min, Rotation: print-oncall')).toBe(false);
    expect(givesInstruction('The queue is named `label-01` on every spooler.')).toBe(false);
  });
});
