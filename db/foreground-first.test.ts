import { describe, expect, it } from 'vitest';
import { ForegroundFirst } from './foreground-first';

/** A one-connection client: statements run one at a time in arrival order, each taking `ms`. */
function singleConnection(log: string[]) {
  let queue = Promise.resolve();
  return (label: string, ms = 5): Promise<void> => {
    const run = queue.then(async () => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(label);
    });
    queue = run;
    return run;
  };
}

describe('ForegroundFirst', () => {
  it('starts no background statement while a request has one running or queued', async () => {
    const log: string[] = [];
    const gate = new ForegroundFirst();
    const statement = gate.wrap(singleConnection(log));
    const request = async () => {
      for (const step of [1, 2, 3]) await statement(`request ${step}`);
    };
    const ingest = gate.runInBackground(async () => {
      for (const step of [1, 2, 3, 4]) await statement(`ingest ${step}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 1));
    await Promise.all([request(), ingest]);
    // The ingest's first statement had started; after it the request's three go one after another.
    expect(log).toEqual(['ingest 1', 'request 1', 'request 2', 'request 3', 'ingest 2', 'ingest 3', 'ingest 4']);
  });

  it('holds background work at most maxWaitMs, so a steady stream of requests cannot stop it', async () => {
    const log: string[] = [];
    const gate = new ForegroundFirst(30);
    const statement = gate.wrap(singleConnection(log));
    let requesting = true;
    const requests = (async () => {
      while (requesting) await statement('request', 5);
    })();
    const ingest = gate.runInBackground(() => statement('ingest'));
    await ingest;
    requesting = false;
    await requests;
    expect(log).toContain('ingest');
  });

  it('runs work outside runInBackground as requests and counts them', async () => {
    const gate = new ForegroundFirst();
    const statement = gate.wrap(singleConnection([]));
    const running = statement('request');
    expect(gate.foreground).toBe(1);
    await running;
    expect(gate.foreground).toBe(0);
  });
});
