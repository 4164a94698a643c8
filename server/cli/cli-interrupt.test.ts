import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_EXIT_CODE, interruptOnSigint } from './cli-interrupt';

/** Enough of `process` for SIGINT: listeners, and an exit that records its code instead of exiting. */
function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  const process_ = {
    on: (event: string, listener: () => void) => (emitter.on(event, listener), process_),
    off: (event: string, listener: () => void) => (emitter.off(event, listener), process_),
    exit: (code?: number) => void exits.push(code ?? 0),
  };
  return { process_: process_ as unknown as Pick<NodeJS.Process, 'on' | 'off' | 'exit'>, emitter, exits };
}

describe('Ctrl-C during an ingest', () => {
  it('first asks the ingest to stop (no exit: the runtime undoes and closes), then a second exits 130 at once', () => {
    const { process_, emitter, exits } = fakeProcess();
    const said: string[] = [];
    const interrupt = interruptOnSigint((line) => said.push(line), process_);
    emitter.emit('SIGINT');
    expect(interrupt.signal.aborted).toBe(true);
    expect(exits).toEqual([]);
    expect(said[0]).toMatch(/undoing the source it was writing/);
    emitter.emit('SIGINT');
    expect(exits).toEqual([INTERRUPTED_EXIT_CODE]);
  });

  it('gives Ctrl-C back once the command ended', () => {
    const { process_, emitter } = fakeProcess();
    const interrupt = interruptOnSigint(() => undefined, process_);
    interrupt.dispose();
    expect(emitter.listenerCount('SIGINT')).toBe(0);
    emitter.emit('SIGINT');
    expect(interrupt.signal.aborted).toBe(false);
  });
});
