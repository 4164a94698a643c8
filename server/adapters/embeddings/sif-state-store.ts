import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { SifState } from './sif-model';
import type { SifEmbedder } from './sif-embedder';
import { embeddingTableExists } from './embedding-table';

/**
 * Refit when the corpus has at least doubled since the last fit (and grown by 100+ chunks):
 * a refit re-embeds everything, and doubling keeps the total re-embedding work within twice the
 * final corpus size however the corpus grows. Between refits new chunks are embedded with the
 * frozen statistics, whose Zipf-smoothed p(w) still weighs words they never saw.
 */
export const REFIT_GROWTH = 2;
const REFIT_MIN_NEW_CHUNKS = 100;
const READ_PAGE = 500;

export type SifPreparation = 'empty' | 'current' | 'fitted' | 'refitted';

export const needsRefit = (fittedOn: number, currentChunks: number): boolean =>
  currentChunks >= fittedOn * REFIT_GROWTH && currentChunks - fittedOn >= REFIT_MIN_NEW_CHUNKS;

export async function loadSifState(database: Database, embedderId: string): Promise<SifState | undefined> {
  const [row] = await database.query<{ state: SifState | string }>(sql`select state from embedder_states where embedder_id = ${embedderId}`);
  if (!row) return undefined;
  const state = (typeof row.state === 'string' ? JSON.parse(row.state) : row.state) as SifState;
  return state.version === 1 ? state : undefined;
}

/**
 * New statistics and the removal of every vector made under the old ones, in one transaction:
 * queries never compare a new-space query with old-space chunks (they find nothing until
 * embedPending has re-embedded, which the dense retriever's coverage then reports).
 */
async function replaceSifState(database: Database, embedderId: string, state: SifState): Promise<void> {
  const withTable = await embeddingTableExists(database);
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into embedder_states (embedder_id, state, fitted_at) values (${embedderId}, ${JSON.stringify(state)}::jsonb, now())
      on conflict (embedder_id) do update set state = excluded.state, fitted_at = excluded.fitted_at`);
    if (withTable) await tx.execute(sql`delete from chunk_embeddings where embedder_id = ${embedderId}`);
  });
}

async function* currentTexts(database: Database): AsyncIterable<readonly string[]> {
  let after = '';
  for (;;) {
    const rows = await database.query<{ id: string; text: string }>(
      sql`select id, search_text as text from chunks where is_current and not lookup_only and id > ${after} order by id limit ${READ_PAGE}`,
    );
    if (rows.length === 0) return;
    yield rows.map((row) => row.text);
    after = rows[rows.length - 1].id;
  }
}

/**
 * Gives the embedder the statistics its stored vectors were made with, fitting them over every
 * current chunk (sensitive ones included: SIF is local) when there are none or the corpus
 * outgrew them. Word counts of the whole corpus are what gets persisted, not any text.
 */
export async function prepareSifEmbedder(database: Database, embedder: SifEmbedder): Promise<SifPreparation> {
  if (!embedder.state) embedder.useState(await loadSifState(database, embedder.id));
  const [row] = await database.query<{ count: number }>(sql`select count(*)::int as count from chunks where is_current and not lookup_only`);
  const currentChunks = Number(row?.count ?? 0);
  if (currentChunks === 0) return 'empty';
  const previous = embedder.state;
  if (previous && !needsRefit(previous.textCount, currentChunks)) return 'current';
  const state = await embedder.fit(() => currentTexts(database));
  await replaceSifState(database, embedder.id, state);
  embedder.useState(state);
  return previous ? 'refitted' : 'fitted';
}
