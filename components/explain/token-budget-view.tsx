import type { TokenBudget } from '@/server/runtime/explain/explain-types';
import { ExplainSection } from './explain-section';
import { formatTokens } from './format';

export function TokenBudgetView({ budget }: { readonly budget: TokenBudget }) {
  return (
    <ExplainSection title="Token budget">
      <div data-testid="token-budget">
        <p>
          Context budget <strong>{formatTokens(budget.budget)}</strong> tokens · final k <strong>{budget.finalK}</strong> · estimated
          context <strong>{formatTokens(budget.estimatedContextTokens)}</strong> tokens
          {budget.compressedTokensRemoved !== undefined ? <> · compression removed {formatTokens(budget.compressedTokensRemoved)}</> : null}
        </p>
        {budget.bySource && budget.bySource.length > 0 ? (
          <table className="data-table compact">
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col" className="num">Items</th>
                <th scope="col" className="num">Tokens</th>
              </tr>
            </thead>
            <tbody>
              {budget.bySource.map((entry) => (
                <tr key={entry.source}>
                  <td>{entry.source}</td>
                  <td className="num">{entry.items}</td>
                  <td className="num">{formatTokens(entry.tokens)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {budget.dropped && budget.dropped.length > 0 ? (
          <details>
            <summary>{budget.dropped.length} chunks dropped to fit the budget</summary>
            <ul>
              {budget.dropped.map((entry) => (
                <li key={entry.chunkId}>
                  {entry.source} <code>{entry.chunkId}</code> ({formatTokens(entry.tokens)} tokens): {entry.why}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>
    </ExplainSection>
  );
}
