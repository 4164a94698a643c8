/**
 * The token budget as spent: what went into the context by source (a bar against the budget), what
 * compression removed, and what was dropped and why (below the top k, or over the budget).
 */
import type { TokenBudget } from '@/server/runtime/explain/explain-types';
import { formatTokens } from '@/components/explain/format';

const SOURCE_HUES = [212, 145, 28, 262, 350, 185, 95];

export function TokenBudgetPanel({ budget }: { readonly budget: TokenBudget }) {
  const bySource = budget.bySource ?? [];
  const used = bySource.reduce((sum, entry) => sum + entry.tokens, 0);
  const whole = Math.max(budget.budget, used, 1);
  const dropped = budget.dropped ?? [];
  const droppedWhy = new Map<string, { count: number; tokens: number }>();
  for (const entry of dropped) {
    const seen = droppedWhy.get(entry.why) ?? { count: 0, tokens: 0 };
    droppedWhy.set(entry.why, { count: seen.count + 1, tokens: seen.tokens + entry.tokens });
  }
  return (
    <section className="panel plan-section" aria-labelledby="budget-title" data-testid="plan-token-budget">
      <h2 id="budget-title">Token budget</h2>
      <p>
        Budget <strong>{formatTokens(budget.budget)}</strong> tokens · final k <strong>{budget.finalK}</strong> · estimated context <strong>{formatTokens(budget.estimatedContextTokens)}</strong>
        {bySource.length > 0 ? (
          <>
            {' '}
            · used <strong>{formatTokens(used)}</strong> ({((used / Math.max(1, budget.budget)) * 100).toFixed(0)}%)
          </>
        ) : null}
        {budget.compressedTokensRemoved !== undefined ? <> · compression removed <strong>{formatTokens(budget.compressedTokensRemoved)}</strong></> : null}
      </p>
      {bySource.length === 0 ? (
        <p className="muted">The run has not assembled its context yet, so there is no spend to show.</p>
      ) : (
        <>
          <div className="budget-bar" role="img" aria-label={`context by source: ${bySource.map((entry) => `${entry.source} ${entry.tokens} tokens`).join(', ')} of a ${budget.budget}-token budget`}>
            {bySource.map((entry, index) => (
              <span key={entry.source} className="budget-seg" style={{ width: `${(entry.tokens / whole) * 100}%`, background: `hsl(${SOURCE_HUES[index % SOURCE_HUES.length]} 60% 62%)` }} title={`${entry.source}: ${entry.tokens} tokens`} />
            ))}
          </div>
          <table className="data-table compact">
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col" className="num">Items</th>
                <th scope="col" className="num">Tokens</th>
                <th scope="col" className="num">Share of context</th>
              </tr>
            </thead>
            <tbody>
              {bySource.map((entry, index) => (
                <tr key={entry.source}>
                  <td>
                    <span className="score-swatch" style={{ background: `hsl(${SOURCE_HUES[index % SOURCE_HUES.length]} 60% 62%)` }} /> {entry.source}
                  </td>
                  <td className="num">{entry.items}</td>
                  <td className="num">{formatTokens(entry.tokens)}</td>
                  <td className="num">{used > 0 ? `${((entry.tokens / used) * 100).toFixed(0)}%` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {dropped.length > 0 ? (
        <details className="plan-dropped">
          <summary>
            {dropped.length} chunk{dropped.length === 1 ? '' : 's'} dropped ({[...droppedWhy].map(([why, { count, tokens }]) => `${count} ${why}, ${formatTokens(tokens)} tokens`).join('; ')})
          </summary>
          <table className="data-table compact">
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Chunk</th>
                <th scope="col" className="num">Tokens</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {dropped.map((entry) => (
                <tr key={entry.chunkId}>
                  <td>{entry.source}</td>
                  <td>
                    <code>{entry.chunkId.slice(0, 16)}</code>
                  </td>
                  <td className="num">{formatTokens(entry.tokens)}</td>
                  <td>{entry.why}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </section>
  );
}
