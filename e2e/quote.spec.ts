/**
 * Quote before run (issue 10): the quote says whether it fits the caps, prints money a reader can
 * read, names the same plan EXPLAIN does, and "Run this plan" runs exactly what was quoted.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { definitionOf } from './fixtures/locators';

const DEMO_GOAL = 'Explain why deployment checkout-api failed';

/** The plan hash the quote's footer ends with ("… · Plan hash 3f9c…"). */
async function quotedHashOf(panel: Locator): Promise<string> {
  const footer = (await panel.getByText(/· Plan hash /).innerText()).trim();
  return /Plan hash (\S+)$/.exec(footer)?.[1] ?? '';
}

async function quote(page: Page, maxCost: string) {
  await signIn(page, 'operator');
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Goal', exact: true }).fill(DEMO_GOAL);
  await page.getByLabel('Max cost (USD)').fill(maxCost);
  await page.getByRole('button', { name: 'Quote before run' }).click();
  const panel = page.getByRole('region', { name: /Quote/ });
  await expect(panel).toBeVisible({ timeout: 60_000 });
  return panel;
}

test('the quote says it fits the cost cap, in readable money, with the plan hash EXPLAIN shows', async ({ page }) => {
  const panel = await quote(page, '0.05');
  const fits = panel.getByRole('list', { name: 'Against your caps' });
  await expect(fits).toContainText('Cost fits the $0.05 cap');
  const cost = panel.getByRole('row', { name: /^Cost/ });
  await expect(cost).toContainText('$');
  await expect(cost).not.toContainText(/\de-\d/);
  const quotedHash = await quotedHashOf(panel);
  expect(quotedHash).toMatch(/^[0-9a-f]{32}$/);

  await page.getByRole('button', { name: 'Explain only' }).click();
  await expect(definitionOf(page.getByRole('region', { name: 'Summary' }), 'Plan hash')).toHaveText(quotedHash, { timeout: 60_000 });
});

test('"Run this plan" runs the quoted request, even after the form changed', async ({ page }) => {
  const panel = await quote(page, '0.05');
  const quotedHash = await quotedHashOf(panel);
  await page.getByRole('textbox', { name: 'Goal', exact: true }).fill('something else entirely');
  await panel.getByRole('button', { name: 'Run this plan' }).click();
  await expect(page.getByRole('heading', { name: /^Answer/ })).toBeVisible({ timeout: 150_000 });
  await expect(page.getByRole('region', { name: /^Answer/ }).getByText(/^Ran the quoted plan /)).toHaveText(`Ran the quoted plan ${quotedHash}.`);
  await expect(page.getByRole('group', { name: 'Answer text' })).toContainText(/checkout-api/i);
});
