import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures/auth';
import { definitionOf } from './fixtures/locators';

const DEMO_GOAL = 'Explain why deployment checkout-api failed';

const goalBox = (page: Page) => page.getByRole('textbox', { name: 'Goal', exact: true });
const answerText = (page: Page) => page.getByRole('group', { name: 'Answer text' });
const citationItems = (page: Page) => page.getByRole('list', { name: 'Citations' }).getByRole('listitem');
const historyItems = (page: Page) => page.getByRole('list', { name: 'Recent goals' }).getByRole('listitem');
const planHash = (page: Page) => definitionOf(page.getByRole('region', { name: 'Summary' }), 'Plan hash');
const runButton = (page: Page) => page.getByRole('button', { name: 'Run', exact: true });
const explainButton = (page: Page) => page.getByRole('button', { name: 'Explain only' });

async function submitGoal(page: Page, goal: string) {
  await signIn(page, 'operator');
  await page.goto('/');
  await goalBox(page).fill(goal);
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
  await goalBox(page).press('Enter');

  // Progress streams in node by node before the answer arrives (then folds away under it, so a fast run may never show it open).
  // Hidden included: a fast run may fold the list away under the answer before it is seen.
  const progressItems = page.getByRole('list', { name: 'Nodes', includeHidden: true }).getByRole('listitem', { includeHidden: true });
  await expect(progressItems.first()).toBeAttached({ timeout: 60_000 });
  await expect(progressItems.filter({ has: page.getByRole('code', { includeHidden: true }).filter({ hasText: /^reason$/ }) })).toHaveCount(1);
  await expect(answerText(page)).toBeVisible({ timeout: 150_000 });
  // Once answered, the progress list folds into one line under the answer; it opens on request.
  await page.getByRole('heading', { name: 'Progress', exact: true }).click();
  // Each row starts with its status in words (after an aria-hidden glyph).
  const progressStates = (await progressItems.allInnerTexts()).map((text) => /^\S+\s+(\w+)/.exec(text)?.[1] ?? text);
  expect(progressStates.length).toBeGreaterThan(2);
  expect(progressStates.every((state) => state === 'Done' || state === 'Skipped'), progressStates.join(',')).toBe(true);
  await expect(progressItems.getByTitle('tokens', { exact: true }).first()).toBeVisible();
  await expect(answerText(page)).not.toBeEmpty();

  const items = citationItems(page);
  await expect(items.first()).toBeVisible();
  const texts = await items.allInnerTexts();
  const runtimeEvidence = texts.findIndex((text) => /OOMKilled|demo-events|demo-logs/i.test(text));
  expect(runtimeEvidence, `a citation from events/logs among:\n${texts.join('\n---\n')}`).toBeGreaterThanOrEqual(0);
  const changeEvidence = texts.findIndex((text, index) => index !== runtimeEvidence && /demo-git|commit/i.test(text));
  expect(changeEvidence, `a second citation from git among:\n${texts.join('\n---\n')}`).toBeGreaterThanOrEqual(0);

  // Every [n] marker in the answer points at an item of the list.
  const markers = answerText(page).getByRole('button', { name: /^Open citation \d+/ });
  const markerRefs = await markers.allTextContents();
  for (const ref of markerRefs) await expect(items.filter({ has: page.getByRole('button', { name: `Open chunk for citation ${ref}`, exact: true }) })).toHaveCount(1);

  // Opening a citation shows the chunk it points at, with its source and version.
  await items.nth(runtimeEvidence).getByRole('button', { name: /^Open chunk for citation/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('region', { name: 'Chunk text' })).toHaveText(/OOMKilled|checkout-api/i);
  await expect(definitionOf(dialog, 'Source')).toHaveText(/demo-(events|logs)/);
  await expect(definitionOf(dialog, 'Version')).toHaveText(/v\d+/);
  await page.screenshot({ path: 'test-results/console-evidence.png' });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The [n] markers in the answer open it too.
  if (markerRefs.length > 0) {
    await markers.first().click();
    await expect(dialog.getByRole('region', { name: 'Chunk text' })).not.toBeEmpty();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  }

  // The plan is folded under the answer too.
  await page.getByText('EXPLAIN of the plan that produced this answer').click();
  await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible();
  await expect(planHash(page)).toHaveText(/^[0-9a-z]{8,}$/i);
  // Body rows only: the header row is the one holding column headers.
  const graphRows = page.getByRole('table', { name: 'Graph nodes' }).getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
  await expect(graphRows.first()).toBeVisible();
  expect(await graphRows.count()).toBeGreaterThan(1);
  // The chosen candidate's row carries a "chosen" badge.
  await expect(page.getByRole('table', { name: 'Candidate plans' }).getByRole('row').filter({ has: page.getByText('chosen', { exact: true }) })).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Rejected candidates' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Rejected sources' })).toBeVisible();
  // The demo's sources disagree on the memory limit: EXPLAIN lists it before anything is retrieved.
  await expect(page.getByRole('table', { name: 'Contradictions' }).getByRole('row').filter({ hasText: 'checkout-api' }).filter({ hasText: '512Mi (demo-docs)' })).toHaveCount(1);

  // The run is in this user's history.
  await expect(historyItems(page).first()).toContainText(DEMO_GOAL);

  await page.screenshot({ path: 'test-results/console-run.png', fullPage: true });
  expect(browserErrors).toEqual([]);

  // The plan page of this run.
  const planLink = page.getByRole('region', { name: /^Answer/ }).getByRole('link', { name: 'Open plan' });
  const planHref = await planLink.getAttribute('href');
  expect(planHref).toMatch(/^\/plans\/[0-9a-f-]{36}$/);
  await planLink.click();
  await expect(page).toHaveURL(new RegExp(`${planHref}$`));
});

test("a cited answer is kept as knowledge: its lineage leads to the chunks it cites", async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  await runButton(page).click();
  await expect(answerText(page)).toBeVisible({ timeout: 150_000 });
  const cited = await citationItems(page).count();
  await page.getByRole('region', { name: /^Answer/ }).getByRole('link', { name: 'Lineage', exact: true }).click();
  await expect(page).toHaveURL(/\/knowledge\?node=sum_/);
  const lineage = page.getByRole('region', { name: 'Lineage' });
  await expect(lineage).toContainText(`answer to: ${DEMO_GOAL}`, { timeout: 60_000 });
  // One derived_from step per cited chunk (several citations may point at one chunk), each inside its source version.
  // A step reads "derived from ↑ chunk …" / "contained in ↑ source …": its kind is the word after the arrow.
  const steps = lineage.getByRole('list', { name: 'Upstream chain' }).getByRole('listitem');
  const chunks = await steps.filter({ hasText: /^(derived from|contained in) ↑\s*chunk\b/ }).count();
  expect(chunks).toBeGreaterThan(0);
  expect(chunks).toBeLessThanOrEqual(cited);
  await expect(steps.filter({ hasText: /^(derived from|contained in) ↑\s*source\b/ }).first()).toBeVisible();
});

test('quotes the expected cost, latency and tokens before running', async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  await page.getByRole('button', { name: 'Quote before run' }).click();
  const quote = page.getByRole('region', { name: 'Quote before running' });
  await expect(quote).toBeVisible({ timeout: 60_000 });
  // Each estimate row is named by its row header and values.
  await expect(quote.getByRole('row', { name: /^Cost\b/ })).toContainText('–');
  await expect(quote.getByRole('row', { name: /^Latency\b/ })).toContainText(/\d/);
  await expect(quote.getByRole('row', { name: /^Tokens\b/ })).toContainText(/\d/);
  await expect(quote.getByText(/^Based on \d+ past runs?/)).toHaveText(/Based on \d+ past run/);
  await expect(answerText(page)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/console-quote.png', fullPage: true });
});

test('runs only over the chosen sources', async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  const sources = page.getByRole('group', { name: 'Sources' });
  // A source's label is its name then its kind ("demo-events events").
  const source = (name: string) => sources.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) });
  await expect(sources.getByRole('checkbox', { name: 'All', exact: true })).toBeChecked();
  await sources.getByRole('checkbox', { name: 'All', exact: true }).uncheck();
  await source('demo-events').check();
  await source('demo-logs').check();
  await explainButton(page).click();
  await expect(planHash(page)).toBeVisible({ timeout: 60_000 });
  const rejected = await page.getByRole('table', { name: 'Rejected sources' }).innerText();
  expect(rejected).toMatch(/demo-git/);
  expect(rejected).toContain('not among the requested sources');
});

test('reopens a past run and reuses its goal from the history', async ({ page }) => {
  await submitGoal(page, 'something else');
  const latest = historyItems(page).first();
  await expect(latest).toContainText(DEMO_GOAL);
  await latest.getByRole('button', { name: 'Show answer' }).click();
  await expect(answerText(page)).toBeVisible({ timeout: 30_000 });
  await expect(citationItems(page).first()).toBeVisible();
  await expect(goalBox(page)).toHaveValue(DEMO_GOAL);
  await goalBox(page).fill('something else');
  await latest.getByRole('button', { name: DEMO_GOAL }).click();
  await expect(goalBox(page)).toHaveValue(DEMO_GOAL);
  await expect(goalBox(page)).toBeFocused();
});

test('an answer whose required verification failed on every attempt is badged Not a verified answer, with the reasons', async ({ page }) => {
  // Nothing in the demo corpus answers this: the offline reader finds no evidence, so the citation checks fail on both attempts.
  await submitGoal(page, 'What is the capital of France?');
  await runButton(page).click();
  const badge = page.getByRole('status', { name: 'Not a verified answer' });
  await expect(badge).toBeVisible({ timeout: 150_000 });
  await expect(badge.getByText('Not a verified answer', { exact: true })).toBeVisible();
  await expect(badge.getByRole('listitem').filter({ hasText: /^citation_coverage: / })).toHaveCount(1);
  await expect(page.getByRole('heading', { name: /^Answer/ })).toContainText('unverified');
});

// A viewer's landing page (the answers they may read, no run form) is e2e/viewer.spec.ts.

test('explain only plans without answering', async ({ page }) => {
  await submitGoal(page, DEMO_GOAL);
  await explainButton(page).click();
  await expect(planHash(page)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('table', { name: 'Candidate plans' }).getByRole('row').filter({ hasNot: page.getByRole('columnheader') }).first()).toBeVisible();
  await expect(answerText(page)).toHaveCount(0);
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
  await expect(answerText(page)).toHaveCount(0);
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
  await expect(answerText(page)).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  // The answer is above the progress list and the plan, which are folded.
  const answerTop = (await answerText(page).boundingBox())!.y;
  expect((await page.getByRole('heading', { name: 'Progress', exact: true }).boundingBox())!.y).toBeGreaterThan(answerTop);
  expect((await page.getByRole('heading', { name: 'Plan', exact: true }).boundingBox())!.y).toBeGreaterThan(answerTop);
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(pageHeight, 'the page stays a few screens tall').toBeLessThan(5_000);
  await page.screenshot({ path: 'test-results/console-first-screen.png' });

  const list = page.getByRole('list', { name: 'Citations' });
  const numbers = await list.locator(':scope > li').evaluateAll((items) => items.map((item) => Number(item.getAttribute('value'))));
  expect(numbers).toEqual(numbers.map((_, index) => index + 1));
  // Markers read 1, 2, 3… in order of first appearance.
  const markers = await answerText(page).getByRole('button', { name: /^Open citation/ }).evaluateAll((buttons) => buttons.map((button) => Number(button.textContent)));
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
  const planHref = await page.getByRole('link', { name: 'Open plan' }).getAttribute('href');
  const runId = planHref!.split('/').at(-1)!;
  await expect(link).toHaveAttribute('href', `/approvals?run=${runId}`);
});
