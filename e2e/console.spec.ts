import { expect, test, type Page } from '@playwright/test';

const DEMO_GOAL = 'Explain why deployment checkout-api failed';

async function submitGoal(page: Page, goal: string) {
  await page.goto('/');
  await page.getByTestId('goal-input').fill(goal);
}

test('runs the demo goal and shows a cited answer with its plan', async ({ page }) => {
  // Hydration mismatches and render crashes surface only in the browser console.
  const browserErrors: string[] = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') browserErrors.push(message.text());
  });
  await submitGoal(page, DEMO_GOAL);
  // Enter in the goal box runs (Shift+Enter would add a newline).
  await page.getByTestId('goal-input').press('Enter');

  await expect(page.getByTestId('answer')).toBeVisible({ timeout: 150_000 });
  await expect(page.getByTestId('answer')).not.toBeEmpty();

  const items = page.getByTestId('citations').locator('li');
  await expect(items.first()).toBeVisible();
  const texts = await items.allInnerTexts();
  const runtimeEvidence = texts.findIndex((text) => /OOMKilled|demo-events|demo-logs/i.test(text));
  expect(runtimeEvidence, `a citation from events/logs among:\n${texts.join('\n---\n')}`).toBeGreaterThanOrEqual(0);
  const changeEvidence = texts.findIndex((text, index) => index !== runtimeEvidence && /demo-git|commit/i.test(text));
  expect(changeEvidence, `a second citation from git among:\n${texts.join('\n---\n')}`).toBeGreaterThanOrEqual(0);

  // Every [n] marker in the answer points at an item of the list.
  const markerTargets = await page.getByTestId('cite-marker').locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  for (const target of markerTargets) await expect(page.locator(target ?? '#missing')).toHaveCount(1);

  await expect(page.getByTestId('explain-summary')).toBeVisible();
  await expect(page.getByTestId('plan-hash')).toHaveText(/^[0-9a-z]{8,}$/i);
  await expect(page.getByTestId('graph-nodes').locator('tbody tr').first()).toBeVisible();
  expect(await page.getByTestId('graph-nodes').locator('tbody tr').count()).toBeGreaterThan(1);
  await expect(page.getByTestId('candidate-table').locator('tbody tr[data-chosen]')).toHaveCount(1);
  await expect(page.getByTestId('rejected-candidates')).toBeVisible();
  await expect(page.getByTestId('rejected-sources')).toBeVisible();

  await page.screenshot({ path: 'test-results/console-run.png', fullPage: true });
  expect(browserErrors).toEqual([]);
});

test('explain only plans without answering', async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  await page.getByTestId('explain-button').click();
  await expect(page.getByTestId('plan-hash')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('candidate-table').locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('answer')).toHaveCount(0);
});

test('an invalid constraint is reported inline with its field', async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  await page.getByTestId('max-cost-input').fill('-1');
  await page.getByTestId('run-button').click();

  const error = page.getByTestId('error-message');
  await expect(error).toBeVisible({ timeout: 60_000 });
  await expect(error).toContainText('max_cost_usd');
  await expect(page.getByTestId('max-cost-input')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('answer')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/console-invalid-constraint.png', fullPage: true });
});
