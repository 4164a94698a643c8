/**
 * Traces: search finds a run, its waterfall opens, and a run of more than 1,000 spans renders and
 * answers a click within 2 s, measured inside the browser (performance.now()).
 *
 * Where the 1,000 spans come from: a real run of an operator-edited plan ("re-run an edited plan",
 * plans.runEdited). The demo goal's planned graph is fanned out the way an operator tests whether
 * harder stratification pays: ~190 retrieve nodes (method × query variant), each searching every
 * selected source separately (perSource), all fused by RRF, then the planner's own compress →
 * assemble → reason → verify tail. Every graph node is a span and every per-source search inside a
 * stratified retrieval is a measured child span (search.<source>), so 190 × 5 sources + ~200 nodes
 * + planner spans ≈ 1,160 spans — all measured, none synthesised.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { signIn, trpcMutation } from './fixtures/auth';

const GOAL = 'Explain why deployment checkout-api failed';
const RETRIEVE_NODES = 190;
const BUDGET_MS = 2000;

/** Words an operator might add to probe recall; each retrieve node asks one variant of the goal. */
const PROBES = ['error', 'failed', 'deploy', 'rollback', 'memory', 'commit', 'restart', 'timeout', 'config', 'limit', 'oom', 'replica', 'probe', 'crash', 'image', 'release', 'latency', 'quota', 'node', 'pod'];

interface PlannedNode {
  readonly id: string;
  readonly kind: string;
  readonly inputs: readonly string[];
  readonly method?: string;
  readonly sources?: readonly string[];
  readonly sourceKinds?: unknown;
  readonly estimate?: unknown;
  readonly [field: string]: unknown;
}

async function trpcData<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  const response = await trpcMutation(request, path, input);
  expect(response.ok(), `${path}: ${response.status()} ${(await response.text()).slice(0, 500)}`).toBe(true);
  return ((await response.json()) as { result: { data: { json: T } } }).result.data.json;
}

/** The planned graph, its retrieval fanned out per (method × probe) and stratified per source. */
function stratifiedFanOut(planned: readonly PlannedNode[]): { version: 1; nodes: Record<string, unknown>[] } {
  const retrieves = planned.filter((node) => node.kind === 'retrieve');
  const sources = [...new Set(retrieves.flatMap((node) => node.sources ?? []))].sort();
  const methods = [...new Set(retrieves.map((node) => node.method!))].sort();
  const nodes: Record<string, unknown>[] = [];
  for (let index = 0; index < RETRIEVE_NODES; index += 1) {
    nodes.push({
      kind: 'retrieve',
      id: `retrieve-${index}`,
      inputs: [],
      method: methods[index % methods.length],
      sources,
      sourceKinds: 'all',
      k: 10,
      perSource: true,
      focus: index % 2 === 0 ? 'goal' : 'entities',
      queryExpansion: [PROBES[index % PROBES.length]],
    });
  }
  nodes.push({ kind: 'fuse', id: 'fuse', inputs: nodes.map((node) => node.id), strategy: 'rrf', rrfK: 60, k: 20 });
  for (const node of planned) {
    if (!['compress', 'assemble', 'reason', 'verify', 'approve'].includes(node.kind)) continue;
    // The first attempt only: the verification gate's retry attempt (ids "…retry<n>…") runs behind a
    // branch this fan-out does not keep, and an edited plan has exactly one answer that runs first.
    if (/retry\d/.test(node.id)) continue;
    const { estimate: _estimate, ...rest } = node;
    nodes.push(node.kind === 'compress' ? { ...rest, inputs: ['fuse'] } : rest);
  }
  return { version: 1, nodes };
}

test('search finds a 1,000-span run; its waterfall renders and answers a click within 2 s', async ({ page }, testInfo) => {
  const browserErrors: string[] = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));

  const operator = await signIn(page, 'operator');
  const explained = await trpcData<{ graph: { nodes: PlannedNode[] } }>(page.request, 'runtime.explain', { goal: GOAL });
  const graph = stratifiedFanOut(explained.graph.nodes);
  const run = await trpcData<{ runId: string; status: string }>(page.request, 'plans.runEdited', { goal: GOAL, graph });
  expect(run.status).toBe('completed');

  // Search by goal text: the run is among the matches (newest first, so on the first page).
  await page.goto('/traces');
  const filters = page.getByRole('search', { name: 'Filter runs' });
  const search = filters.getByRole('searchbox', { name: 'Goal or run id' });
  const statusFilter = filters.getByRole('combobox', { name: 'Status' });
  const submit = filters.getByRole('button', { name: 'Search', exact: true });
  await search.fill('checkout-api failed');
  await search.press('Enter');
  // Body rows of the runs table (the header row holds the column headers); each shows its run id's first 8 characters.
  const runRows = page.getByRole('region', { name: 'Runs' }).getByRole('table').getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
  const row = runRows.filter({ hasText: run.runId.slice(0, 8) });
  await expect(row).toBeVisible();
  await expect(row.getByRole('link')).toHaveAttribute('href', `/traces/${run.runId}`);
  await expect(runRows.first()).toContainText('checkout-api failed');
  // Status, user and time range narrow it further; a status it does not have excludes it.
  await statusFilter.selectOption('completed');
  await page.getByLabel('User', { exact: true }).fill(operator.email);
  await page.getByLabel('From', { exact: true }).fill(new Date(Date.now() - 60 * 60 * 1000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
  await submit.click();
  await expect(row).toBeVisible();
  await statusFilter.selectOption('failed');
  await submit.click();
  await expect(row).toHaveCount(0);
  await statusFilter.selectOption('completed');
  await submit.click();
  await expect(row).toBeVisible();
  await testInfo.attach('traces list', { body: await page.screenshot({ path: 'test-results/traces-list.png', fullPage: true }), contentType: 'image/png' });

  // The waterfall: a tree of spans, virtualised. In-page timing code finds rows by their role
  // (treeitem); data-index / data-span-id stay as plumbing: a row's position in the virtual list
  // and a span's id are not shown to a user, and span names repeat (one search.<source> per retrieve).
  const waterfall = page.getByRole('tree', { name: 'Spans of this run' });
  const spanRows = waterfall.getByRole('treeitem');
  const detail = page.getByRole('complementary', { name: 'Span details' });

  // Open the waterfall through the list; time from the click to the first rendered span row.
  await page.evaluate(() => {
    const marks = window as unknown as { __clickedAt?: number; __rowsAt?: number };
    marks.__rowsAt = undefined;
    new MutationObserver((_, observer) => {
      if (document.querySelector('[role="treeitem"]')) {
        marks.__rowsAt = performance.now();
        observer.disconnect();
      }
    }).observe(document.body, { childList: true, subtree: true });
    marks.__clickedAt = performance.now();
  });
  await row.getByRole('link').click();
  await expect(spanRows.first()).toBeVisible();
  const openMs = await page.evaluate(() => {
    const marks = window as unknown as { __clickedAt: number; __rowsAt: number };
    return marks.__rowsAt - marks.__clickedAt;
  });
  const spanCountText = await page.getByText(/^[\d,]+ spans · /).innerText();
  const spanCount = Number(spanCountText.split(' ')[0].replace(/,/g, ''));
  expect(spanCount, spanCountText).toBeGreaterThanOrEqual(1000);
  // Virtualised: a thousand spans, a screenful of rows in the DOM.
  expect(await spanRows.count()).toBeLessThan(80);
  await expect(page.getByRole('navigation', { name: 'Run' }).getByRole('link', { name: 'Open plan' })).toHaveAttribute('href', `/plans/${run.runId}`);

  // A full page load of the trace, measured from navigation start to the first span row.
  // Observed from the first byte: rows that exist by DOMContentLoaded (streamed with the HTML) were
  // missed by an observer started then, and the time read back was undefined (a flaky failure).
  await page.addInitScript(() => {
    const marks = window as unknown as { __rowsAt?: number };
    const observer = new MutationObserver(() => {
      if (marks.__rowsAt === undefined && document.querySelector('[role="treeitem"]')) {
        marks.__rowsAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  await page.goto(`/traces/${run.runId}`);
  await expect(spanRows.first()).toBeVisible();
  const loadMs = await page.evaluate(() => (window as unknown as { __rowsAt: number }).__rowsAt);

  // Scroll deep into the tree, then click a span there: time until its attributes are shown.
  const scrollToMiddle = async () => {
    await waterfall.evaluate((element) => {
      element.scrollTop = element.scrollHeight / 2;
    });
    // Wait for the virtualised window to move: the first rendered row is now deep in the list.
    await page.waitForFunction(() => Number(document.querySelector('[role="treeitem"]')?.getAttribute('data-index')) > 100);
  };
  await scrollToMiddle();
  const firstRendered = Number(await spanRows.first().getAttribute('data-index'));
  const target = spanRows.and(page.locator(`[data-index="${firstRendered + 12}"]`));
  await expect(target).toBeVisible();
  const targetId = await target.getAttribute('data-span-id');
  const clickMs = await target.evaluate(async (element) => {
    const id = element.getAttribute('data-span-id');
    const started = performance.now();
    (element as HTMLElement).click();
    await new Promise<void>((resolve) => {
      const check = () => (document.querySelector(`aside[aria-label="Span details"][data-span-id="${id}"]`) ? resolve() : requestAnimationFrame(check));
      check();
    });
    // The next frame: the selection has been painted, not just committed.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    return performance.now() - started;
  });
  await expect(detail).toHaveAttribute('data-span-id', targetId!);
  await expect(target).toHaveAttribute('aria-selected', 'true');
  await expect(detail.getByRole('heading', { level: 2 })).not.toBeEmpty();
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText((await target.getByTitle(/./).first().getAttribute('title'))!);

  // Collapse everything and expand again: the whole tree re-laid out, timed the same way.
  const collapseMs = await page.evaluate(async () => {
    const button = [...document.querySelectorAll('button')].find((candidate) => candidate.textContent === 'Collapse all') as HTMLButtonElement;
    const started = performance.now();
    button.click();
    await new Promise<void>((resolve) => {
      const check = () => (document.querySelectorAll('[role="treeitem"]').length <= 3 ? resolve() : requestAnimationFrame(check));
      check();
    });
    return performance.now() - started;
  });
  await page.getByRole('button', { name: 'Expand all' }).click();

  // Keyboard: focus the first row, move down, Enter shows that span; → / ← fold a subtree.
  await waterfall.evaluate((element) => {
    element.scrollTop = 0;
  });
  await page.waitForFunction(() => document.querySelector('[role="treeitem"]')?.getAttribute('data-index') === '0');
  await spanRows.first().click();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const second = await spanRows.nth(1).getAttribute('data-span-id');
  await expect(detail).toHaveAttribute('data-span-id', second!);
  await expect(spanRows.nth(1)).toBeFocused();
  await expect(spanRows.nth(1)).toHaveAttribute('aria-selected', 'true');

  // A search span sits under its retrieve node and names its source.
  await scrollToMiddle();
  const searchRow = spanRows.filter({ hasText: /^search\./ }).first();
  await searchRow.click();
  await expect(detail.getByRole('table')).toContainText('source');

  console.log(`[traces] ${spanCount} spans: open from list ${openMs.toFixed(0)} ms, full page load to first row ${loadMs.toFixed(0)} ms, click→attributes ${clickMs.toFixed(1)} ms, collapse all ${collapseMs.toFixed(1)} ms`);
  testInfo.annotations.push({ type: 'timing', description: JSON.stringify({ spanCount, openMs, loadMs, clickMs, collapseMs }) });
  await testInfo.attach('waterfall', { body: await page.screenshot({ path: 'test-results/traces-waterfall.png', fullPage: true }), contentType: 'image/png' });

  expect(openMs, 'list → waterfall rendered').toBeLessThan(BUDGET_MS);
  expect(loadMs, 'page load → waterfall rendered').toBeLessThan(BUDGET_MS);
  expect(clickMs, 'click → span attributes shown').toBeLessThan(BUDGET_MS);
  expect(collapseMs, 'collapse all').toBeLessThan(BUDGET_MS);
  expect(browserErrors).toEqual([]);
});
