import type { Database } from '../../../db/client';
import type { ModelPlugin } from '../../runtime/contracts/model';
import { createOpenIeIndexing, type OpenIeIndexOptions, type OpenIeIndexReport, type OpenIeRun } from './openie-indexer';

/**
 * The tier that extracts triples: the first reachable one in config order (cheapest first) that
 * is a language model, so a self-hosted local model wins over a hosted one and may also read
 * sensitive sources. The built-in extractive reader only quotes and cannot do OpenIE.
 */
export function openIeModelOf(models: readonly ModelPlugin[]): ModelPlugin | undefined {
  return models.find((model) => (model.available ?? true) && model.capabilities().provider !== 'extractive');
}

/**
 * OpenIE at ingest when a language-model tier is reachable; undefined (rule-based entities only,
 * as before) when none is or the budget is 0.
 */
export function setupOpenIe(
  database: Database,
  models: readonly ModelPlugin[],
  options: Partial<OpenIeIndexOptions> = {},
): { readonly model: ModelPlugin; readonly indexPending: (run?: OpenIeRun) => Promise<OpenIeIndexReport> } | undefined {
  const model = openIeModelOf(models);
  if (!model || options.maxPassagesPerRun === 0) return undefined;
  return Object.freeze({ model, indexPending: createOpenIeIndexing(database, model, options) });
}
