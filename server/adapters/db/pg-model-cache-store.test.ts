/**
 * The Postgres model-cache store through the shared conformance suite: on PGlite always, and on a
 * PostgreSQL server when TEST_DATABASE_URL is set, in a database of its own on that server,
 * `context_runtime_model_cache` (.ci/run creates it; locally: su postgres -c "createdb -O
 * context_runtime context_runtime_model_cache"), so this migration never lands in a database other
 * tests share. Rows go under unique names; nothing is wiped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { describeModelCacheStore } from '../../testing/model-cache-store-conformance';
import { openStores, type Stores } from './open-stores';
import { PgModelCacheStore } from './pg-model-cache-store';

const root = mkdtempSync(path.join(tmpdir(), 'cr-model-cache-'));
function ownDatabase(testUrl: string | undefined): string | undefined {
  if (!testUrl) return undefined;
  const url = new URL(testUrl);
  url.pathname = '/context_runtime_model_cache';
  return url.toString();
}

const serverUrl = ownDatabase(process.env.TEST_DATABASE_URL);
let embedded: Stores | undefined;
let server: Stores | undefined;

beforeAll(async () => {
  embedded = await openStores({ dataDir: path.join(root, 'pglite'), syncKnowledgeOnIngest: false });
  if (serverUrl) server = await openStores({ url: serverUrl, syncKnowledgeOnIngest: false });
}, 120_000);

afterAll(async () => {
  await embedded?.close();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describeModelCacheStore('Postgres (PGlite)', () => new PgModelCacheStore(embedded!.database));
describeModelCacheStore('Postgres 15 server', () => new PgModelCacheStore(server!.database), { skip: !serverUrl });
