/**
 * The token budget, one view for the console's EXPLAIN and the plan explorer: what went into the
 * context by source (a bar against the budget), what compression removed, and what was dropped and
 * why (below the top k, or over the budget). The caller gives the section and heading.
 */
import type { TokenBudget } from '@/server/runtime/explain/explain-types';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import { formatTokens } from './format';
import { budgetSpend, formatShare, sourceColour, type BudgetSpend } from './token-budget-figures';
import './plan-charts.css';

type SourceRow = BudgetSpend['bySource'][number];
type DroppedRow = BudgetSpend['dropped'][number];

const sourceColumns = (used: number): ColumnList<SourceRow> => [
  {
    key: 'source',
    header: 'Source',
    cell: (entry, index) => (
      <>
        <span className="score-swatch" style={{ background: sourceColour(index) }} /> {entry.source}
      </>
    ),
  },
  { key: 'items', header: 'Items', numeric: true, cell: (entry) => entry.items },
  { key: 'tokens', header: 'Tokens', numeric: true, cell: (entry) => formatTokens(entry.tokens) },
  { key: 'share', header: 'Share of context', numeric: true, cell: (entry) => formatShare(entry.tokens, used) },
];

const DROPPED_COLUMNS: ColumnList<DroppedRow> = [
  { key: 'source', header: 'Source', cell: (entry) => entry.source },
  { key: 'chunk', header: 'Chunk', cell: (entry) => <code>{entry.chunkId.slice(0, 16)}</code> },
  { key: 'tokens', header: 'Tokens', numeric: true, cell: (entry) => formatTokens(entry.tokens) },
  { key: 'why', header: 'Why', cell: (entry) => entry.why },
];

export function TokenBudgetView({ budget }: { readonly budget: TokenBudget }) {
  const { bySource, used, whole, dropped, droppedWhy } = budgetSpend(budget);
  return (
    <>
      <p>
        Context budget <strong>{formatTokens(budget.budget)}</strong> tokens · final k <strong>{budget.finalK}</strong> · estimated context{' '}
        <strong>{formatTokens(budget.estimatedContextTokens)}</strong> tokens
        {bySource.length > 0 ? (
          <>
            {' '}
            · used <strong>{formatTokens(used)}</strong> ({formatShare(used, Math.max(1, budget.budget))})
          </>
        ) : null}
        {budget.compressedTokensRemoved !== undefined ? <> · compression removed <strong>{formatTokens(budget.compressedTokensRemoved)}</strong></> : null}
      </p>
      {bySource.length === 0 ? (
        <p className="muted">No context has been assembled yet, so there is no spend by source to show.</p>
      ) : (
        <>
          <div className="budget-bar" role="img" aria-label={`context by source: ${bySource.map((entry) => `${entry.source} ${entry.tokens} tokens`).join(', ')} of a ${budget.budget}-token budget`}>
            {bySource.map((entry, index) => (
              <span key={entry.source} className="budget-seg" style={{ width: `${(entry.tokens / whole) * 100}%`, background: sourceColour(index) }} title={`${entry.source}: ${entry.tokens} tokens`} />
            ))}
          </div>
          <DataTable rows={bySource} columns={sourceColumns(used)} rowKey={(entry) => entry.source} label="Context by source" />
        </>
      )}
      {dropped.length > 0 ? (
        <details className="plan-dropped">
          <summary>
            {dropped.length} chunk{dropped.length === 1 ? '' : 's'} dropped ({droppedWhy.map(({ why, count, tokens }) => `${count} ${why}, ${formatTokens(tokens)} tokens`).join('; ')})
          </summary>
          <DataTable rows={dropped} columns={DROPPED_COLUMNS} rowKey={(entry) => entry.chunkId} label="Dropped chunks" />
        </details>
      ) : null}
    </>
  );
}
