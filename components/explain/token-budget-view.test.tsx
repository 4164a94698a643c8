import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TokenBudgetView } from './token-budget-view';

describe('TokenBudgetView', () => {
  it('before a run: the budget, and says there is no spend yet', () => {
    const html = renderToStaticMarkup(<TokenBudgetView budget={{ budget: 3000, finalK: 8, estimatedContextTokens: 1498 }} />);
    expect(html).toContain('Context budget <strong>3,000</strong> tokens');
    expect(html).toContain('no spend by source to show');
    expect(html).not.toContain('<table');
  });

  it('after a run: spend by source with shares, and the dropped chunks grouped by why', () => {
    const html = renderToStaticMarkup(
      <TokenBudgetView
        budget={{
          budget: 1000,
          finalK: 2,
          estimatedContextTokens: 800,
          bySource: [
            { source: 'demo-logs', tokens: 600, items: 2 },
            { source: 'demo-docs', tokens: 200, items: 1 },
          ],
          dropped: [{ chunkId: 'chk_0123456789abcdef0123', source: 'demo-docs', tokens: 90, why: 'over budget' }],
        }}
      />,
    );
    expect(html).toContain('used <strong>800</strong> (80%)');
    expect(html).toContain('aria-label="Context by source"');
    expect(html).toMatch(/demo-logs<\/td><td class="num">2<\/td><td class="num">600<\/td><td class="num">75%<\/td>/);
    expect(html).toContain('1 chunk dropped (1 over budget, 90 tokens)');
    expect(html).toContain('<code>chk_0123456789ab</code>');
  });
});
