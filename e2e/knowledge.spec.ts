import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth';

const DEMO_SOURCES = ['demo-docs', 'demo-events', 'demo-git', 'demo-logs', 'demo-metrics'];

test('the knowledge page shows the demo sources, their versions, facts, lineage and the memory-limit contradiction', async ({ page }) => {
  const browserErrors: string[] = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') browserErrors.push(message.text());
  });
  await signIn(page, 'viewer');
  await page.goto('/knowledge');

  const rows = page.getByTestId('knowledge-source-row');
  await expect(rows.first()).toBeVisible({ timeout: 60_000 });
  const names = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-source')));
  for (const name of DEMO_SOURCES) expect(names).toContain(name);
  // A fresh demo load: every source current, none stale.
  for (const name of DEMO_SOURCES) await expect(page.locator(`[data-testid="knowledge-source-row"][data-source="${name}"] [data-status]`)).toHaveAttribute('data-status', 'current');

  await page.getByRole('button', { name: 'demo-git', exact: true }).click();
  await expect(page.getByTestId('knowledge-versions').locator('[data-testid="knowledge-version-row"]').first()).toHaveAttribute('data-version', '1');
  const facts = page.getByTestId('knowledge-facts');
  await expect(facts.getByRole('row').filter({ hasText: 'memory limit' }).filter({ hasText: '256Mi' }).first()).toBeVisible();

  // Commit 48d4188 lowered the limit to 256Mi; the overview doc still says 512Mi.
  const contradiction = page.locator('[data-testid="knowledge-contradiction-row"][data-subject="checkout-api"][data-attribute="memory limit"]');
  await expect(contradiction.filter({ hasText: '512Mi' }).filter({ hasText: 'demo-docs' })).toHaveCount(1);
  await expect(contradiction.filter({ hasText: '256Mi' }).filter({ hasText: 'demo-git' })).toHaveCount(1);

  await contradiction.filter({ hasText: 'demo-docs' }).getByRole('button', { name: 'lineage' }).click();
  const lineage = page.getByTestId('knowledge-lineage');
  await expect(lineage.locator('[data-testid="lineage-step"][data-kind="chunk"]')).toHaveCount(1);
  await expect(lineage.locator('[data-testid="lineage-step"][data-kind="source"]')).toContainText('demo-docs v1');

  await page.screenshot({ path: 'test-results/knowledge-page.png', fullPage: true });
  expect(browserErrors).toEqual([]);
});
