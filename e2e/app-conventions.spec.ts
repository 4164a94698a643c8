/**
 * The App Router conventions in a real browser against `next start`: an unknown plan or trace id
 * is the not-found page (with a way home), not an error box; every page's title follows the
 * "<page> · Context Runtime" template; the plan page arrives with its run already read on the
 * server (hydrated through tRPC's helpers), so drawing the graph asks /api/trpc for nothing.
 */
import { expect, test, type Page } from '@playwright/test';
import { signIn, trpcMutation } from './fixtures/auth';

const DEMO_GOAL = 'Explain why deployment checkout-api failed';

/** Every tRPC request the page makes from now on (batched calls name all their procedures in the path). */
function watchTrpc(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/trpc/')) calls.push(request.url());
  });
  return calls;
}

test('an unknown plan id shows the not-found page with a link home', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/plans/run-that-does-not-exist');
  await expect(page.getByRole('heading', { name: 'Plan not found' })).toBeVisible();
  await expect(page.getByText('No run has this id')).toBeVisible();
  // Not the old error box from a failed client query ("run … does not exist").
  await expect(page.getByRole('alert').filter({ hasText: 'does not exist' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'All plans' })).toHaveAttribute('href', '/plans');
  await page.getByRole('link', { name: 'Back to the console' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveTitle('Console · Context Runtime');
});

test('an unknown trace id and an unknown address show their not-found pages', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/traces/run-that-does-not-exist');
  await expect(page.getByRole('heading', { name: 'Trace not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'All traces' })).toHaveAttribute('href', '/traces');

  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Page not found · Context Runtime');
  await expect(page.getByRole('link', { name: 'Back to the console' })).toHaveAttribute('href', '/');
});

test('page titles follow the "<page> · Context Runtime" template', async ({ page }) => {
  await page.context().clearCookies();
  await page.goto('/signin');
  await expect(page).toHaveTitle('Sign in · Context Runtime');

  await signIn(page, 'admin');
  const pages: readonly (readonly [string, string])[] = [
    ['/', 'Console'],
    ['/traces', 'Traces'],
    ['/plans', 'Plans'],
    ['/approvals', 'Approvals'],
    ['/knowledge', 'Knowledge'],
    ['/calibration', 'Calibration'],
    ['/admin/users', 'Users'],
  ];
  for (const [path, title] of pages) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(`${title} · Context Runtime`);
  }
});

test('the plan page renders its graph from the server-side read: no getRun request from the browser', async ({ page }) => {
  await signIn(page, 'operator');
  const response = await trpcMutation(page.request, 'runtime.run', { goal: DEMO_GOAL });
  expect(response.ok(), await response.text()).toBe(true);
  const run = ((await response.json()) as { result: { data: { json: { runId: string; status: string; explain: { graph: { nodes: unknown[] } } } } } }).result.data.json;
  expect(run.status).toBe('completed');

  const calls = watchTrpc(page);
  await page.goto(`/plans/${encodeURIComponent(run.runId)}`);
  await expect(page).toHaveTitle(`Plan ${run.runId} · Context Runtime`);
  const graph = page.getByRole('region', { name: 'Execution graph', exact: true });
  await expect(graph).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  await expect(graph).toHaveAttribute('data-node-count', String(run.explain.graph.nodes.length));
  await expect(page.getByRole('heading', { name: /Execution graph/ })).toBeVisible();
  // Give a late client fetch (a refetch on mount or focus) the chance to show itself before judging.
  await page.waitForTimeout(1000);
  expect(calls.filter((url) => url.includes('getRun'))).toEqual([]);

  // The same page's trace is hydrated too: no traces.get request on its first load.
  calls.length = 0;
  await page.goto(`/traces/${encodeURIComponent(run.runId)}`);
  await expect(page.getByRole('heading', { name: DEMO_GOAL })).toBeVisible();
  await page.waitForTimeout(500);
  expect(calls.filter((url) => url.includes('traces.get'))).toEqual([]);
});
