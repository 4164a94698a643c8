/**
 * Ctrl-C during a command that writes (an ingest): the first SIGINT asks the work to stop, and the
 * runtime undoes the source it was writing before the CLI closes the database and exits 130; only
 * a second Ctrl-C exits at once, as a process killed mid-write would (issue 13, point 1). Without a
 * handler, SIGINT ended the process with an embedded database open and a version half-staged.
 */

export interface Interrupt {
  readonly signal: AbortSignal;
  /** Stops listening: the command ended, and Ctrl-C is the shell's again. */
  dispose(): void;
}

/** Exit code of a command stopped by Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT_CODE = 130;

export function interruptOnSigint(say: (line: string) => void, process_: Pick<NodeJS.Process, 'on' | 'off' | 'exit'> = process): Interrupt {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) {
      say('context-runtime: stopped at once (second Ctrl-C)');
      process_.exit(INTERRUPTED_EXIT_CODE);
      return;
    }
    say('context-runtime: stopping the ingest and undoing the source it was writing (Ctrl-C again to exit at once)');
    controller.abort();
  };
  process_.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process_.off('SIGINT', onSigint) };
}

/** A signal the caller aborts itself (tests, an embedding program): nothing to listen to. */
export function interruptFrom(signal: AbortSignal): Interrupt {
  return { signal, dispose: () => undefined };
}
