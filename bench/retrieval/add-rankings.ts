/**
 * Adds each method's ranking to a records file written before records carried them, from the
 * same run's `--runs` folder (one `{queryId: [ids…]}` file per method), so fusion can be fitted
 * without re-running every method (a SciFact run takes 10–20 minutes):
 *
 *   npx tsx bench/retrieval/add-rankings.ts RECORDS.json RUNS-DIR [OUT.json]
 *
 * Only single methods whose file name is `<set>-<split>-<method>.json` are read (not the planner,
 * not out-of-fold rows); a record's ranking is the run's list as written.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryRecord } from './query-records';

const SINGLE_METHODS = new Set(['bm25', 'dense', 'hybrid', 'rerank', 'rm3', 'graph', 'fulltext', 'exact']);

function main(): void {
  const [recordsPath, runsDir, outPath = recordsPath] = process.argv.slice(2);
  if (!recordsPath || !runsDir) {
    console.error('usage: npx tsx bench/retrieval/add-rankings.ts RECORDS.json RUNS-DIR [OUT.json]');
    process.exit(2);
  }
  const file = JSON.parse(readFileSync(recordsPath, 'utf8')) as { dataset: string; split: string; records: QueryRecord[] };
  const prefix = `${file.dataset}-${file.split}-`;
  const rankings = new Map<string, Record<string, readonly string[]>>(file.records.map((record) => [record.id, {}]));
  const read: string[] = [];
  for (const name of readdirSync(runsDir).sort()) {
    const method = name.startsWith(prefix) && name.endsWith('.json') ? name.slice(prefix.length, -'.json'.length) : '';
    if (!SINGLE_METHODS.has(method)) continue;
    const run = JSON.parse(readFileSync(join(runsDir, name), 'utf8')) as Record<string, string[]>;
    for (const [id, ranked] of Object.entries(run)) {
      const entry = rankings.get(id);
      if (entry) entry[method] = ranked;
    }
    read.push(method);
  }
  const records = file.records.map((record) => ({ ...record, rankings: { ...record.rankings, ...rankings.get(record.id) } }));
  writeFileSync(outPath, `${JSON.stringify({ ...file, records })}\n`);
  console.log(`${outPath}: ${records.length} records of ${file.dataset}, rankings of ${read.join(', ')}`);
}

main();
