/**
 * Re-reads the intent class of every record in a records file with this tree's analyzer, from the
 * queries of the dataset the file was collected on, so another set's leave-one-dataset-out fit
 * (--fit-from) groups those records as the planner now classes their queries. bench:retrieval does
 * the same for --reuse-records of the scored set; --fit-from files carry no query text.
 *
 *   npx tsx bench/retrieval/reclassify-records.ts RECORDS.json DATASET-FOLDER [OUT.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ruleIntentAnalyzer } from '../../server/runtime/planner/intent-analyzer';
import { loadBeirDataset } from './beir-dataset';
import { type QueryRecord, reclassified } from './query-records';

function main(): void {
  const [recordsPath, datasetFolder, outPath = recordsPath] = process.argv.slice(2);
  if (!recordsPath || !datasetFolder) {
    console.error('usage: npx tsx bench/retrieval/reclassify-records.ts RECORDS.json DATASET-FOLDER [OUT.json]');
    process.exit(2);
  }
  const file = JSON.parse(readFileSync(recordsPath, 'utf8')) as { dataset: string; split: string; records: QueryRecord[] };
  const dataset = loadBeirDataset(datasetFolder, file.split);
  if (dataset.name !== file.dataset) throw new Error(`${recordsPath} holds records of ${file.dataset}, not of ${dataset.name}`);
  const records = reclassified(file.records, dataset, ruleIntentAnalyzer);
  const moves = new Map<string, number>();
  records.forEach((record, index) => {
    const before = file.records[index].intent;
    if (before !== record.intent) moves.set(`${before} → ${record.intent}`, (moves.get(`${before} → ${record.intent}`) ?? 0) + 1);
  });
  writeFileSync(outPath, `${JSON.stringify({ ...file, records })}\n`);
  console.log(`${outPath}: ${records.length} records of ${file.dataset}; ${moves.size === 0 ? 'no class changed' : [...moves].map(([move, count]) => `${move} ×${count}`).join(', ')}`);
}

main();
