import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures/auth';

const DEMO_GOAL = 'Explain why deployment checkout-api failed';

async function submitGoal(page: Page, goal: string) {
  await signIn(page, 'operator');
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

  // Progress streams in node by node before the answer arrives (then folds away under it, so a fast run may never show it open).
  await expect(page.getByTestId('progress-item').first()).toBeAttached({ timeout: 60_000 });
  await expect(page.getByTestId('progress-item').filter({ has: page.locator('code', { hasText: /^reason$/ }) })).toHaveCount(1);
  await expect(page.getByTestId('answer')).toBeVisible({ timeout: 150_000 });
  // Once answered, the progress list folds into one line under the answer; it opens on request.
  await page.getByTestId('progress').locator(':scope > summary').click();
  const progressStates = await page.getByTestId('progress-item').evaluateAll((items) => items.map((item) => item.getAttribute('data-status')));
  expect(progressStates.length).toBeGreaterThan(2);
  expect(progressStates.every((state) => state === 'done' || state === 'skipped'), progressStates.join(',')).toBe(true);
  await expect(page.getByTestId('progress-item').locator('[title=tokens]').first()).toBeVisible();
  await expect(page.getByTestId('answer')).not.toBeEmpty();

  const items = page.getByTestId('citations').locator('li');
  await expect(items.first()).toBeVisible();
  const texts = await items.allInnerTexts();
  const runtimeEvidence = texts.findIndex((text) => /OOMKilled|demo-events|demo-logs/i.test(text));
  expect(runtimeEvidence, `a citation from events/logs among:\n${texts.join('\n---\n')}`).toBeGreaterThanOrEqual(0);
  const changeEvidence = texts.findIndex((text, index) => index !== runtimeEvidence && /demo-git|commit/i.test(text));
  expect(changeEvidence, `a second citation from git among:\n${texts.join('\n---\n')}`).toBeGreaterThanOrEqual(0);

  // Every [n] marker in the answer points at an item of the list.
  const markerRefs = await page.getByTestId('cite-marker').locator('button').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-ref')));
  for (const ref of markerRefs) await expect(page.getByTestId(`citation-${ref}`)).toHaveCount(1);

  // Opening a citation shows the chunk it points at, with its source and version.
  await page.getByTestId('citations').locator('li').nth(runtimeEvidence).getByTestId('open-citation').click();
  const dialog = page.getByTestId('evidence-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('evidence-text')).toHaveText(/OOMKilled|checkout-api/i);
  await expect(dialog.getByTestId('evidence-source')).toHaveText(/demo-(events|logs)/);
  await expect(dialog.getByTestId('evidence-version')).toHaveText(/v\d+/);
  await page.screenshot({ path: 'test-results/console-evidence.png' });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The [n] markers in the answer open it too.
  if (markerRefs.length > 0) {
    await page.getByTestId('cite-marker').locator('button').first().click();
    await expect(dialog.getByTestId('evidence-text')).not.toBeEmpty();
    await dialog.getByTestId('evidence-close').click();
    await expect(dialog).toBeHidden();
  }

  // The plan is folded under the answer too.
  await page.getByText('EXPLAIN of the plan that produced this answer').click();
  await expect(page.getByTestId('explain-summary')).toBeVisible();
  await expect(page.getByTestId('plan-hash')).toHaveText(/^[0-9a-z]{8,}$/i);
  await expect(page.getByTestId('graph-nodes').locator('tbody tr').first()).toBeVisible();
  expect(await page.getByTestId('graph-nodes').locator('tbody tr').count()).toBeGreaterThan(1);
  await expect(page.getByTestId('candidate-table').locator('tbody tr[data-chosen]')).toHaveCount(1);
  await expect(page.getByTestId('rejected-candidates')).toBeVisible();
  await expect(page.getByTestId('rejected-sources')).toBeVisible();
  // The demo's sources disagree on the memory limit: EXPLAIN lists it before anything is retrieved.
  await expect(page.getByTestId('explain-contradictions').locator('tbody tr').filter({ hasText: 'checkout-api' }).filter({ hasText: '512Mi (demo-docs)' })).toHaveCount(1);

  // The run is in this user's history.
  await expect(page.getByTestId('history-item').first()).toContainText(DEMO_GOAL);

  await page.screenshot({ path: 'test-results/console-run.png', fullPage: true });
  expect(browserErrors).toEqual([]);

  // The plan page of this run.
  const planHref = await page.getByTestId('plan-link').getAttribute('href');
  expect(planHref).toMatch(/^\/plans\/[0-9a-f-]{36}$/);
  await page.getByTestId('plan-link').click();
  await expect(page).toHaveURL(new RegExp(`${planHref}$`));
});

test("a cited answer is kept as knowledge: its lineage leads to the chunks it cites", async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  await page.getByTestId('run-button').click();
  await expect(page.getByTestId('answer')).toBeVisible({ timeout: 150_000 });
  const cited = await page.getByTestId('citations').locator('li').count();
  await page.getByTestId('answer-lineage-link').click();
  await expect(page).toHaveURL(/\/knowledge\?node=sum_/);
  const lineage = page.getByTestId('knowledge-lineage');
  await expect(lineage).toContainText(`answer to: ${DEMO_GOAL}`, { timeout: 60_000 });
  // One derived_from step per cited chunk (several citations may point at one chunk), each inside its source version.
  const chunks = await lineage.locator('[data-testid="lineage-step"][data-kind="chunk"]').count();
  expect(chunks).toBeGreaterThan(0);
  expect(chunks).toBeLessThanOrEqual(cited);
  await expect(lineage.locator('[data-testid="lineage-step"][data-kind="source"]').first()).toBeVisible();
});

test('quotes the expected cost, latency and tokens before running', async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  await page.getByTestId('quote-button').click();
  const quote = page.getByTestId('quote');
  await expect(quote).toBeVisible({ timeout: 60_000 });
  await expect(quote.getByTestId('quote-cost')).toContainText('–');
  await expect(quote.getByTestId('quote-latency')).toContainText(/\d/);
  await expect(quote.getByTestId('quote-tokens')).toContainText(/\d/);
  await expect(quote.getByTestId('quote-samples')).toHaveText(/Based on \d+ past run/);
  await expect(page.getByTestId('answer')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/console-quote.png', fullPage: true });
});

test('runs only over the chosen sources', async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  await expect(page.getByTestId('source-all')).toBeChecked();
  await page.getByTestId('source-all').uncheck();
  await page.getByTestId('source-demo-events').check();
  await page.getByTestId('source-demo-logs').check();
  await page.getByTestId('explain-button').click();
  await expect(page.getByTestId('plan-hash')).toBeVisible({ timeout: 60_000 });
  const rejected = await page.getByTestId('rejected-sources').innerText();
  expect(rejected).toMatch(/demo-git/);
  expect(rejected).toContain('not among the requested sources');
});

test('reopens a past run and reuses its goal from the history', async ({ page }) => {
  await submitGoal(page, 'something else');
  const latest = page.getByTestId('history-item').first();
  await expect(latest).toContainText(DEMO_GOAL);
  await latest.getByRole('button', { name: 'Show answer' }).click();
  await expect(page.getByTestId('answer')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('citations').locator('li').first()).toBeVisible();
  await expect(page.getByTestId('goal-input')).toHaveValue(DEMO_GOAL);
  await page.getByTestId('goal-input').fill('something else');
  await latest.getByRole('button', { name: DEMO_GOAL }).click();
  await expect(page.getByTestId('goal-input')).toHaveValue(DEMO_GOAL);
  await expect(page.getByTestId('goal-input')).toBeFocused();
});

// A viewer's landing page (the answers they may read, no run form) is e2e/viewer.spec.ts.

test('explain only plans without answering', async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  await page.getByTestId('explain-button').click();
  await expect(page.getByTestId('plan-hash')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('candidate-table').locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('answer')).toHaveCount(0);
});

test('an invalid constraint is named inline by its label and nothing is sent', async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  const started: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('console.start')) started.push(request.url());
  });
  const maxCost = page.getByLabel('Max cost (USD)');
  await maxCost.fill('-1');
  await expect(maxCost).toHaveAttribute('aria-invalid', 'true');
  await expect(maxCost).toHaveAccessibleDescription('Max cost (USD) must be a number of dollars, 0 or more (for example 0.05)');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
  await page.getByRole('textbox', { name: 'Goal', exact: true }).press('Enter');
  await expect(page.getByTestId('answer')).toHaveCount(0);
  expect(started).toEqual([]);
  await page.screenshot({ path: 'test-results/console-invalid-constraint.png', fullPage: true });
});

test("a constraint the runtime refuses is reported in the form's words, not as an API path", async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  // A valid number no plan can meet: the runtime says why, naming the constraint.
  await page.getByLabel('Max latency (seconds)').fill('0.000001');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'No plan meets the constraints' });
  await expect(alert).toBeVisible({ timeout: 60_000 });
  await expect(alert).toContainText('Max latency (seconds)');
  await expect(alert).not.toContainText('max_latency_seconds');
  await expect(alert).not.toContainText('constraints.');
});

test('the answer is on the first screen after a run, citations numbered 1..n as the answer cites them', async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const answerHeading = page.getByRole('heading', { name: /^Answer/ });
  await expect(answerHeading).toBeVisible({ timeout: 150_000 });
  await expect(page.getByTestId('answer')).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  // The answer is above the progress list and the plan, which are folded.
  const answerTop = (await page.getByTestId('answer').boundingBox())!.y;
  expect((await page.getByTestId('progress').boundingBox())!.y).toBeGreaterThan(answerTop);
  expect((await page.getByTestId('run-plan').boundingBox())!.y).toBeGreaterThan(answerTop);
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(pageHeight, 'the page stays a few screens tall').toBeLessThan(5_000);
  await page.screenshot({ path: 'test-results/console-first-screen.png' });

  const list = page.getByRole('list', { name: 'Citations' });
  const numbers = await list.locator(':scope > li').evaluateAll((items) => items.map((item) => Number(item.getAttribute('value'))));
  expect(numbers).toEqual(numbers.map((_, index) => index + 1));
  // Markers read 1, 2, 3… in order of first appearance.
  const markers = await page.getByTestId('answer').getByRole('button', { name: /^Open citation/ }).evaluateAll((buttons) => buttons.map((button) => Number(button.textContent)));
  const firstSeen = markers.filter((number, index) => markers.indexOf(number) === index);
  expect(firstSeen).toEqual(firstSeen.map((_, index) => index + 1));
  expect(firstSeen.length).toBeGreaterThan(0);
});

test('a run awaiting approval links to its entry on the approvals page', async ({ page }) => {
  await submitGoal(page, 'Roll back the production deployment of checkout-api and delete the failed replica set');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Awaiting approval' });
  await expect(notice).toBeVisible({ timeout: 150_000 });
  const link = notice.getByRole('link', { name: 'Open this run in Approvals' });
  const planHref = await page.getByTestId('plan-link').getAttribute('href');
  const runId = planHref!.split('/').at(-1)!;
  await expect(link).toHaveAttribute('href', `/approvals?run=${runId}`);
});
