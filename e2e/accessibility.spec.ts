/**
 * Accessibility, measured: every page of the app (app/**\/page.tsx) is loaded in real Chromium with
 * its real content — a real run for the plan, compare and trace pages, a gated run for the approvals
 * inbox — and checked with axe (WCAG 2.0/2.1 A and AA rules). Any violation of impact serious or
 * critical fails the test, with each rule id, its help text and the offending selectors in the
 * message. Panels and dialogs a user opens (the console's evidence dialog, the plan explorer's node
 * panel, a trace's span detail, a knowledge source's facts) are checked after opening them too.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { signIn, trpcMutation } from './fixtures/auth';

const DEMO_GOAL = 'Explain why deployment checkout-api failed';
// High-risk cues ("roll back", "production", "delete") put an approval gate in the plan.
const HIGH_RISK_GOAL = 'Roll back the production deployment of checkout-api and delete the failed replica set';
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

interface RunResponse {
  readonly runId: string;
  readonly status: string;
}

async function run(request: APIRequestContext, input: unknown): Promise<RunResponse> {
  const response = await trpcMutation(request, 'runtime.run', input);
  expect(response.ok(), `runtime.run: ${response.status()} ${(await response.text()).slice(0, 500)}`).toBe(true);
  return ((await response.json()) as { result: { data: { json: RunResponse } } }).result.data.json;
}

/** Runs axe on what the page shows now; fails on serious/critical violations. */
async function check(page: Page, name: string): Promise<void> {
  // Whatever the page is still fetching would be checked half-drawn: wait for it to settle.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByText(/^Loading\b/)).toHaveCount(0);
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const blocking = results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''));
  const report = blocking
    .map((violation) => {
      const targets = violation.nodes.map((node) => `    ${node.target.join(' ')}${node.failureSummary ? `\n      ${node.failureSummary.replace(/\n/g, '\n      ')}` : ''}`);
      return `  [${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})\n${targets.join('\n')}`;
    })
    .join('\n');
  // Soft, so one run reports every page and panel in the test, not only the first that fails.
  const summary = blocking.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect.soft(summary, `axe on ${name} — serious/critical violations:\n${report}`).toEqual([]);
}

/** What each page shows once its content is in: what the check waits for before running axe. */
const planIndexLists = (page: Page, goal: string) => expect(page.getByRole('region', { name: 'Recent runs' }).getByRole('link', { name: goal }).first()).toBeVisible();
const graphReady = (graph: Locator) => expect(graph).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
const tracesListRun = (page: Page, runId: string) => expect(page.getByRole('region', { name: 'Runs' }).getByRole('row').filter({ hasText: runId.slice(0, 8) })).toBeVisible();
const aGateIsPending = (page: Page) => expect(page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Approve' }) }).first()).toBeVisible();
const statisticsShown = (page: Page) => expect(page.getByRole('table', { name: 'Calibration statistics' })).toBeVisible();

let demo: RunResponse;
let tight: RunResponse;

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  try {
    await signIn(page, 'operator');
    demo = await run(page.request, { goal: DEMO_GOAL });
    expect(demo.status).toBe('completed');
    tight = await run(page.request, { goal: DEMO_GOAL, sources: ['demo-logs', 'demo-events', 'demo-git'], constraints: { max_tokens: 2000 } });
    expect(tight.status).toBe('completed');
    const gated = await run(page.request, { goal: HIGH_RISK_GOAL });
    expect(gated.status).toBe('awaiting_approval');
  } finally {
    await page.close();
  }
});

test('console: empty, after a run, and with the evidence dialog open', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/');
  const goal = page.getByRole('textbox', { name: /^Goal\b/ });
  await expect(goal).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recent goals' }).getByRole('listitem').first()).toBeVisible();
  await check(page, 'console');

  await goal.fill(DEMO_GOAL);
  await goal.press('Enter');
  await expect(page.getByRole('group', { name: 'Answer text' })).toBeVisible({ timeout: 150_000 });
  // The plan folds away under the answer: open it, so its tables are checked too.
  await page.getByText('EXPLAIN of the plan that produced this answer').click();
  await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible();
  await check(page, 'console after a run');

  await page.getByRole('button', { name: /^Open chunk for citation/ }).first().click();
  await expect(page.getByRole('dialog').getByRole('region', { name: 'Chunk text' })).not.toBeEmpty();
  await check(page, 'console evidence dialog');
});

test('plans index, plan explorer with its node panel, and compare', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/plans');
  await planIndexLists(page, DEMO_GOAL);
  await check(page, 'plans');

  await page.goto(`/plans/${demo.runId}`);
  await graphReady(page.getByRole('region', { name: 'Execution graph', exact: true }));
  await expect(page.getByRole('table', { name: /^Candidate plans/ })).toBeVisible();
  await check(page, 'plan explorer');
  await page.getByRole('region', { name: 'Execution graph' }).getByRole('button', { name: /^reason node reason,/ }).click();
  await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toContainText('reason');
  await check(page, 'plan explorer node panel');

  await page.goto(`/plans/compare?a=${demo.runId}&b=${tight.runId}`);
  await expect(page.getByRole('region', { name: 'Plan differences' }).getByRole('table')).toBeVisible({ timeout: 30_000 });
  for (const side of ['A', 'B']) await graphReady(page.getByRole('region', { name: `Execution graph of plan ${side}` }));
  await check(page, 'plan compare');
});

test('traces list, a trace waterfall and its span detail', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/traces');
  await tracesListRun(page, demo.runId);
  await check(page, 'traces');

  await page.goto(`/traces/${demo.runId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_GOAL);
  await expect(page.getByRole('treeitem').first()).toBeVisible();
  await check(page, 'trace');
  await page.getByRole('tree', { name: 'Spans of this run' }).getByRole('treeitem').nth(1).click();
  await expect(page.getByRole('complementary', { name: 'Span details' }).getByRole('heading', { level: 2 })).toBeVisible();
  await check(page, 'trace span detail');
});

test('approvals inbox with a pending gate', async ({ page }) => {
  await signIn(page, 'approver');
  await page.goto('/approvals');
  await aGateIsPending(page);
  await expect(page.getByRole('heading', { name: /audit/i })).toBeVisible();
  await check(page, 'approvals');
});

test('calibration dashboard', async ({ page }) => {
  await signIn(page, 'viewer');
  await page.goto('/calibration');
  await expect(page.getByRole('heading', { name: 'Calibration', level: 1 })).toBeVisible();
  await statisticsShown(page);
  await check(page, 'calibration');
});

test('knowledge: sources, then a source with its versions and facts', async ({ page }) => {
  await signIn(page, 'viewer');
  await page.goto('/knowledge');
  await expect(page.getByRole('button', { name: 'demo-git', exact: true })).toBeVisible();
  await check(page, 'knowledge');
  await page.getByRole('button', { name: 'demo-git', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Facts' }).getByRole('row').nth(1)).toBeVisible();
  await check(page, 'knowledge source detail');
  await page.getByRole('region', { name: 'Contradictions' }).getByRole('button', { name: 'lineage' }).first().click();
  await expect(page.getByRole('region', { name: 'Lineage' }).getByRole('list', { name: 'Upstream chain' }).getByRole('listitem').first()).toBeVisible();
  await check(page, 'knowledge lineage');
});

test("knowledge as an operator: the fact and memory controls a viewer is not offered", async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/knowledge');
  await page.getByRole('button', { name: 'demo-git', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Facts' }).getByRole('spinbutton', { name: /^Confidence for / }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Compact duplicates' })).toBeVisible();
  await check(page, 'knowledge (operator)');
});

test('user administration', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expect(page.getByRole('combobox', { name: /^Role of / }).first()).toBeVisible();
  await check(page, 'admin users');
});

test('sign-in and setup pages, signed out', async ({ page }) => {
  await page.context().clearCookies();
  await page.goto('/signin');
  await expect(page.getByLabel('Email')).toBeVisible();
  await check(page, 'signin');

  await page.goto('/setup');
  await expect(page.getByRole('heading', { name: 'Create the first admin' })).toBeVisible();
  await check(page, 'setup');
});

// Not pages of their own (app/**/not-found.tsx), but where a mistyped or stale link lands.
test('not-found pages: an unknown address, a plan and a trace that do not exist', async ({ page }) => {
  await signIn(page, 'viewer');
  for (const [name, url] of [
    ['not found', '/no-such-page'],
    ['plan not found', '/plans/run_does_not_exist'],
    ['trace not found', '/traces/run_does_not_exist'],
  ] as const) {
    await page.goto(url);
    await expect(page.getByRole('navigation', { name: 'Ways back' }).getByRole('link', { name: 'Back to the console' })).toBeVisible();
    await check(page, name);
  }
});

// At phone width wide tables scroll sideways and headers wrap: what a keyboard or a screen
// magnifier user meets there is checked too (the pages above, at 390 × 844).
test('the same pages at phone width', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'admin');
  const pages: readonly (readonly [string, string, () => Promise<void>])[] = [
    ['console (phone)', '/', () => expect(page.getByRole('textbox', { name: /^Goal\b/ })).toBeVisible()],
    ['plans (phone)', '/plans', () => planIndexLists(page, DEMO_GOAL)],
    ['plan explorer (phone)', `/plans/${demo.runId}`, () => graphReady(page.getByRole('region', { name: 'Execution graph', exact: true }))],
    ['traces (phone)', '/traces', () => tracesListRun(page, demo.runId)],
    ['trace (phone)', `/traces/${demo.runId}`, () => expect(page.getByRole('treeitem').first()).toBeVisible()],
    ['approvals (phone)', '/approvals', () => aGateIsPending(page)],
    ['calibration (phone)', '/calibration', () => statisticsShown(page)],
    ['knowledge (phone)', '/knowledge', () => expect(page.getByRole('button', { name: 'demo-git', exact: true })).toBeVisible()],
    ['admin users (phone)', '/admin/users', () => expect(page.getByRole('combobox', { name: /^Role of / }).first()).toBeVisible()],
  ];
  for (const [name, url, ready] of pages) {
    await page.goto(url);
    await ready();
    await check(page, name);
  }
});
