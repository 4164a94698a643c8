/**
 * Compression arms of `bench:answers --dataset … --compression off,on[,truncate]` (issue 15 point 7):
 * each arm opens the runtime over the same ingested database with its own config, so one run
 * prints context tokens and F1 with and without query-aware compression side by side.
 *   off       the defaults (context_token_budget 3000: the context fits, the planner compresses nothing)
 *   on        context_token_budget = --compression-budget: the context exceeds it, and the planner
 *             chooses among every registered compression (the cost model weighs each one's token cut
 *             and loss against truncation)
 *   query     the same budget with only "none" and the query-aware compressor (sentence_select)
 *             registered: with or without query-aware compression, whatever the cost model thinks of the others
 *   truncate  the same budget with only "none" registered: the knapsack drops whole passages instead
 * `--keep-share X[,Y…]` replaces the query-aware compressor's keep share, one `on` / `query` arm per
 * value (arm `on@X`, `query@X`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { compressForGoal } from '../../server/runtime/compression/query-aware-compressor';
import type { CompressionPlugin } from '../../server/runtime/contracts/compression';
import type { RuntimePlugins } from '../../server/runtime/facade/runtime-plugins';

export const COMPRESSION_ARMS = ['off', 'on', 'query', 'truncate'] as const;
/** An arm name, `on@X` / `query@X` when a keep share is given. */
export type CompressionArm = string;

export interface ArmSettings {
  readonly budget: number;
}

/** The arms to run: `on` becomes one `on@X` per keep share when shares are given. */
export function parseArms(list: string, keepShares?: string): CompressionArm[] {
  const arms = list.split(',').map((arm) => arm.trim());
  const unknown = arms.filter((arm) => !(COMPRESSION_ARMS as readonly string[]).includes(arm));
  if (unknown.length > 0) throw new Error(`--compression: unknown arm ${unknown.join(', ')} (arms: ${COMPRESSION_ARMS.join(', ')})`);
  const shares = keepShares ? keepShares.split(',').map(Number) : [];
  if (shares.some((share) => !(share > 0 && share <= 1))) throw new Error(`--keep-share: each value must be in (0, 1], got ${keepShares}`);
  return arms.flatMap((arm) => ((arm === 'on' || arm === 'query') && shares.length > 0 ? shares.map((share) => `${arm}@${share}`) : [arm]));
}

/**
 * The arm's config file beside the corpus: the user's defaults, or a smaller context budget.
 * `shared`: settings every arm runs with (learning off, fitted reasoner gains).
 */
export function writeArmConfig(root: string, dataDir: string, arm: CompressionArm, settings: ArmSettings, shared: Record<string, unknown> = {}): string {
  const path = join(root, `context-runtime.${arm.replace(/[^a-z0-9.]/g, '-')}.yaml`);
  // No plan cache, so a mode or arm never reuses another's plan.
  const base = { ...shared, database: { data_dir: dataDir }, demo: { load_on_start: false }, plan_cache: { enabled: false } };
  writeFileSync(path, stringify(arm === 'off' ? base : { ...base, retrieval: { context_token_budget: settings.budget } }));
  return path;
}

/** The arm's compression plugins: as registered, only "none" (truncate), "none" and the query-aware one (query); the query-aware one at another keep share. */
export function armCompressions(arm: CompressionArm, plugins: RuntimePlugins): readonly CompressionPlugin[] {
  if (arm === 'truncate') return plugins.compressions.filter((plugin) => plugin.method === 'none');
  const registered = arm.startsWith('query') ? plugins.compressions.filter((plugin) => plugin.method === 'none' || plugin.method === 'sentence_select') : plugins.compressions;
  const share = arm.includes('@') ? Number(arm.slice(arm.indexOf('@') + 1)) : undefined;
  if (share === undefined) return registered;
  return registered.map((plugin) => (plugin.method === 'sentence_select' ? { ...plugin, compress: (goal, items, countTokens) => compressForGoal(goal, items, countTokens, share) } : plugin));
}
