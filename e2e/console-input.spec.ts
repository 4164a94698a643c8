/**
 * The console's form (issue 10): a long goal runs (started with a POST, followed by run id), the
 * form refuses what it cannot send in the field's own words, and the boxes start as the runtime runs.
 */
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures/auth';

const DEMO_GOAL = 'Explain why deployment checkout-api failed';

async function openConsole(page: Page) {
  await signIn(page, 'operator');
  await page.goto('/');
  await expect(page.getByRole('checkbox', { name: 'All' })).toBeVisible();
}

const runButton = (page: Page) => page.getByRole('button', { name: 'Run', exact: true });

test('a 15,000-character goal runs and answers', async ({ page }) => {
  await openConsole(page);
  const goal = `${DEMO_GOAL}. ${'The checkout-api pods restarted during the deploy and the memory limit was lowered. '.repeat(200)}`.slice(0, 15_000);
  expect(goal).toHaveLength(15_000);
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  await page.getByRole('textbox', { name: 'Goal', exact: true }).fill(goal);
  await runButton(page).click();
  await expect(page.getByRole('heading', { name: /^Answer/ })).toBeVisible({ timeout: 170_000 });
  await expect(page.getByText('Request failed')).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Answer text' })).not.toBeEmpty();
  // The goal went in a POST body; the stream's URL carries only the run id.
  const follow = urls.find((url) => url.includes('console.follow'));
  expect(follow).toBeDefined();
  expect(follow!.length).toBeLessThan(500);
  expect(urls.every((url) => url.length < 2_000)).toBe(true);
});

test('with every source unchecked, Run is disabled and says to pick one', async ({ page }) => {
  await openConsole(page);
  await page.getByRole('checkbox', { name: 'All' }).uncheck();
  await expect(page.getByRole('alert').filter({ hasText: 'Pick at least one source.' })).toBeVisible();
  await expect(runButton(page)).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Quote before run' })).toBeDisabled();
  await page.getByRole('checkbox', { name: /demo-logs/ }).check();
  await expect(runButton(page)).toBeEnabled();
  await expect(page.getByText('Pick at least one source.')).toHaveCount(0);
});

test('"abc" in Max cost is an inline error on that field and nothing is sent', async ({ page }) => {
  await openConsole(page);
  const sent: string[] = [];
  page.on('request', (request) => {
    if (/console\.start|runtime\.(explain|simulate)/.test(request.url())) sent.push(request.url());
  });
  const maxCost = page.getByLabel('Max cost (USD)');
  await maxCost.fill('abc');
  await expect(maxCost).toHaveValue('abc');
  await expect(maxCost).toHaveAttribute('aria-invalid', 'true');
  await expect(maxCost).toHaveAccessibleDescription('Max cost (USD) must be a number of dollars, 0 or more (for example 0.05)');
  await expect(runButton(page)).toBeDisabled();
  await page.getByRole('textbox', { name: 'Goal', exact: true }).press('Enter');

  const latency = page.getByLabel('Max latency (seconds)');
  await latency.fill('soon');
  await expect(latency).toHaveAccessibleDescription('Max latency (seconds) must be a positive number');
  const tokens = page.getByLabel('Max tokens');
  await tokens.fill('1.5');
  await expect(tokens).toHaveAccessibleDescription('Max tokens must be a whole number greater than 0');
  await expect(page.getByText(/constraints\.|max_cost_usd|max_latency_seconds/)).toHaveCount(0);

  await maxCost.fill('0.05');
  await latency.fill('');
  await tokens.fill('');
  await expect(maxCost).not.toHaveAttribute('aria-invalid', 'true');
  await expect(runButton(page)).toBeEnabled();
  expect(sent).toEqual([]);
});

test('an empty or blank goal leaves Run disabled', async ({ page }) => {
  await openConsole(page);
  const goal = page.getByRole('textbox', { name: 'Goal', exact: true });
  await goal.fill('');
  await expect(runButton(page)).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Explain only' })).toBeDisabled();
  await goal.fill('   \n  ');
  await expect(runButton(page)).toBeDisabled();
  await goal.fill(DEMO_GOAL);
  await expect(runButton(page)).toBeEnabled();
});

test('Require citations and Require verification start checked, as the runtime and CLI run by default', async ({ page }) => {
  await openConsole(page);
  await expect(page.getByRole('checkbox', { name: 'Require citations' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Require verification' })).toBeChecked();
});
