/**
 * Requests before background work in one server process (issue 13, point 5). An ingest shares the
 * server's thread with requests (embedded PGlite runs every statement on it), so each piece of
 * ingest work started while a request waits adds to that request's time. Background work (an
 * ingest and the indexes after it) runs inside `runInBackground`; before each statement and each
 * time slice it takes `backgroundTurn`, which waits while a request is in flight.
 *
 * A request is in flight for all of `asRequest`, not only while its statements run: a sign-in's
 * scrypt check takes ~250 ms on an idle core (seconds on a loaded one) between its lookup and its
 * answer, and ingest work started meanwhile both competed with scrypt for the cores and held the
 * thread when the check came back (bench:ingest-load: up to two ingest statements per sign-in).
 * Background work waits at most `maxWaitMs` a turn, so a steady stream of requests slows an ingest
 * and never stops it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** A turn of background work waits at most this long for requests: an ingest keeps moving under any load. */
export const BACKGROUND_MAX_WAIT_MS = 1000;

// time-slice.ts's, repeated here: time-slice imports this module.
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const background = new AsyncLocalStorage<true>();
let inFlight = 0;
let waiting: (() => void)[] = [];

/** Runs `work` (and everything it starts) as background work. */
export function runInBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

export function isBackground(): boolean {
  return background.getStore() === true;
}

/** Requests (and request statements) in flight now. */
export function requestsInFlight(): number {
  return inFlight;
}

/** Runs `work` as a request: background turns wait until it (and every other request) is done. Inside background work it simply runs. */
export async function asRequest<T>(work: () => Promise<T>): Promise<T> {
  if (isBackground()) return work();
  inFlight += 1;
  try {
    return await work();
  } finally {
    inFlight -= 1;
    if (inFlight === 0) wake();
  }
}

/**
 * Background work's next step: after the requests in flight (at most maxWaitMs), then one event-loop
 * turn, taken also when no request is in flight. Without that turn an idle server's ingest ran its
 * time slices back to back as microtasks: timers and sockets never ran, so a request arriving
 * meanwhile could not even start, let alone go first (bench:ingest-load, 3,000 files: one 1.3 s
 * stall of the event loop in parsing; with 9,000 files on a loaded machine, 92.5 s).
 */
export async function backgroundTurn(maxWaitMs: number = BACKGROUND_MAX_WAIT_MS): Promise<void> {
  const deadline = performance.now() + maxWaitMs;
  while (inFlight > 0) {
    const remaining = deadline - performance.now();
    if (remaining <= 0) break;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, remaining);
      waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    // A request's next step follows its last one within a turn (its own continuations): it goes first.
    await nextTurn();
  }
  await nextTurn();
}

function wake(): void {
  const resumed = waiting;
  waiting = [];
  for (const resume of resumed) resume();
}
