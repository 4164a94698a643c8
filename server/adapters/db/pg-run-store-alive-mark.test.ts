/**
 * A run owner's alive mark on a real PostgreSQL server (issue 13: the heartbeat runs on the owner's
 * event loop, so a CPU-bound node stalls it and a live worker looked dead). A run whose heartbeat is
 * stale is no orphan while its owner's session holds the mark; it is one as soon as the owner lets
 * go or its process is killed outright. Runs only when TEST_DATABASE_URL is set; it uses a database
 * of its own, `context_runtime_alive` on the same server (.ci/run creates it; locally:
 * su postgres -c "createdb -O context_runtime context_runtime_alive"), and wipes THAT.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../../db/client';
import { openStores, type Stores } from './open-stores';

function aliveUrl(testUrl: string | undefined): string | undefined {
  if (!testUrl) return undefined;
  const url = new URL(testUrl);
  url.pathname = '/context_runtime_alive';
  return url.toString();
}

const url = aliveUrl(process.env.TEST_DATABASE_URL);
let owner: Stores;
let peer: Stores;
const STALE_MS = 30_000;

const create = (id: string, by: string) => owner.runStore.createRun({ id, goal: id, planHash: 'h', plan: {}, user: 'ana', owner: by });
/** What a stalled event loop leaves behind: a heartbeat two minutes old. */
const stall = (id: string) => owner.database.query(sql`update runs set heartbeat_at = now() - make_interval(secs => 120) where id = ${id}`);

describe.skipIf(!url)('run owner alive mark on a PostgreSQL server', () => {
  beforeAll(async () => {
    const wipe = await openDatabase({ url });
    await wipe.exec('DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
    await wipe.close();
    owner = await openStores({ url });
    peer = await openStores({ url });
  }, 60_000);

  afterAll(async () => {
    await owner?.close();
    await peer?.close();
  });

  it('passes over a stale run whose owner holds its mark, and claims it once the owner lets go', async () => {
    await create('stalled', 'owner-a');
    const mark = await owner.runStore.markOwnerAlive!('owner-a');
    await stall('stalled');
    expect(await peer.runStore.claimOrphans('owner-b', STALE_MS)).toEqual([]);
    // A mark that is still held refreshes without taking a second session.
    expect(await mark.refresh()).toBe(true);
    await mark.release();
    expect(await peer.runStore.claimOrphans('owner-b', STALE_MS)).toEqual(['stalled']);
  });

  it('still claims a stale run whose owner never took a mark', async () => {
    await create('unmarked', 'owner-c');
    await stall('unmarked');
    expect(await peer.runStore.claimOrphans('owner-b', STALE_MS)).toEqual(['unmarked']);
  });

  it('loses the mark when the owner process is killed with SIGKILL: its run is claimable at once', async () => {
    await create('killed', 'owner-d');
    await stall('killed');
    // A separate process takes the mark, says so, and waits to be killed.
    const script = `
      const { openDatabase } = await import(${JSON.stringify(fileURLToPath(new URL('../../../db/client.ts', import.meta.url)))});
      const { markOwnerAlive } = await import(${JSON.stringify(fileURLToPath(new URL('./owner-alive-lock.ts', import.meta.url)))});
      const database = await openDatabase({ url: ${JSON.stringify(url)} });
      await markOwnerAlive(database, 'owner-d');
      process.stdout.write('marked\\n');
      setInterval(() => undefined, 60_000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    onTestFinished(() => void child.kill('SIGKILL'));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('marked') && resolve());
      child.once('exit', (code) => reject(new Error(`the marking process exited (${code})`)));
    });
    expect(await peer.runStore.claimOrphans('owner-b', STALE_MS)).toEqual([]);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    // The server ends the session when it sees the socket close: within moments, not a timeout.
    const deadline = Date.now() + 10_000;
    let claimed: readonly string[] = [];
    while (claimed.length === 0 && Date.now() < deadline) {
      claimed = await peer.runStore.claimOrphans('owner-b', STALE_MS);
      if (claimed.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(claimed).toEqual(['killed']);
  }, 60_000);
});
