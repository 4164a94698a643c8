import { describe, expect, it } from 'vitest';
import { asRequest, backgroundTurn, requestsInFlight, runInBackground } from './request-priority';
import { TimeSlice } from './time-slice';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('request priority', () => {
  it('holds background turns for the whole of a request, not only its statements', async () => {
    const log: string[] = [];
    const request = asRequest(async () => {
      log.push('request starts');
      // A sign-in's scrypt: no statement runs, yet the request is still in flight.
      await sleep(40);
      log.push('request answers');
    });
    const ingest = runInBackground(async () => {
      await backgroundTurn();
      log.push('ingest step');
    });
    await Promise.all([request, ingest]);
    expect(log).toEqual(['request starts', 'request answers', 'ingest step']);
    expect(requestsInFlight()).toBe(0);
  });

  it('holds a background turn at most maxWaitMs, so requests that never end cannot stop an ingest', async () => {
    let release!: () => void;
    const endless = asRequest(() => new Promise<void>((resolve) => (release = resolve)));
    const started = performance.now();
    await runInBackground(() => backgroundTurn(30));
    const waited = performance.now() - started;
    release();
    await endless;
    expect(waited).toBeGreaterThanOrEqual(25);
    expect(waited).toBeLessThan(1000);
  });

  it('counts nothing for work inside background work (an ingest started by a request does not wait for itself)', async () => {
    await runInBackground(async () => {
      await asRequest(async () => {
        expect(requestsInFlight()).toBe(0);
      });
    });
  });

  it('a spent time slice of background work waits for the request in flight; outside background it only yields', async () => {
    const log: string[] = [];
    const spent = () => new TimeSlice(0, () => 1);
    const request = asRequest(async () => {
      await sleep(30);
      log.push('request answers');
    });
    const foreground = (async () => {
      await spent().yieldIfSpent();
      log.push('foreground slice');
    })();
    const ingest = runInBackground(async () => {
      await spent().yieldIfSpent();
      log.push('ingest slice');
    });
    await Promise.all([request, foreground, ingest]);
    expect(log).toEqual(['foreground slice', 'request answers', 'ingest slice']);
  });

  it('gives the event loop turns when no request is in flight, so a timer due meanwhile (a request arriving) runs between slices', async () => {
    const log: string[] = [];
    await runInBackground(async () => {
      setTimeout(() => log.push('request arrives'), 0);
      const due = performance.now() + 5;
      while (performance.now() < due) {
        // a busy slice: the timer falls due while it runs
      }
      // A turn from inside the loop's poll phase runs the check phase first, timers on the next
      // iteration: the timer runs within two turns, not after all the work.
      for (let slice = 0; slice < 3; slice++) {
        await backgroundTurn();
        log.push(`slice ${slice}`);
      }
    });
    expect(log.indexOf('request arrives')).toBeGreaterThanOrEqual(0);
    expect(log.indexOf('request arrives')).toBeLessThan(log.indexOf('slice 2'));
  });
});
