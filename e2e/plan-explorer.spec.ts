/**
 * The plan explorer in a real browser against `next start`: a signed-in operator runs the demo
 * goal, opens /plans/<runId>, reads a node's estimate vs actual, finds a rejected candidate with
 * its reason, and compares two budgets side by side. The 200-node time budget is
 * e2e/plan-explorer-timing.spec.ts.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { RunResult } from '../server/runtime/explain/explain-types';
import { signIn } from './fixtures/auth';
import { DEMO_GOAL, mutate, nodeButton, snapshot, watchErrors } from './fixtures/plan-explorer';

test.describe.configure({ mode: 'serial' });

/** The nodes drawn at first: a retry attempt that has not run (the demo's gate passes) is one "retry attempt n" node until expanded. */
const firstAttemptNodes = (graph: { readonly nodes: readonly { readonly id: string }[] }) => graph.nodes.filter((node) => !/-retry\d+(-|$)/.test(node.id)).length;

/** A row of a table by the header that starts it ("Tokens", "Context budget"). */
const rowOf = (table: Locator, header: string) => table.getByRole('row').filter({ has: table.page().getByRole('rowheader', { name: header, exact: true }) });

/** Body rows of the scored-candidates table (the table is named by its heading, "Candidate plans (…)"). */
const candidateRows = (page: Page) => page.getByRole('table', { name: /^Candidate plans/ }).getByRole('row').filter({ has: page.getByRole('cell') });

let demo: RunResult;

test('explores the demo run: graph, node estimate vs actual, rejected candidates, budget', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await signIn(page, 'operator');
  demo = await mutate(page, 'runtime.run', { goal: DEMO_GOAL });
  expect(demo.status).toBe('completed');

  await page.goto(`/plans/${demo.runId}`);
  // data-ready: React Flow has fitted the view (the nodes are placed and clickable), which no role says.
  const graph = page.getByRole('region', { name: 'Execution graph', exact: true });
  await expect(graph).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^Execution graph \\(${demo.explain.graph.nodes.length} nodes\\)`) })).toBeVisible();
  await expect(graph.getByRole('button', { name: /node .*: open details$/ })).toHaveCount(firstAttemptNodes(demo.explain.graph));
  // The retry attempt behind the gate is one node; it expands into its nodes.
  const retryAttempt = graph.getByRole('button', { name: /^retry attempt 2 \(\d+ nodes, runs if verification fails\): show its nodes$/ });
  await retryAttempt.click();
  await expect(retryAttempt).toHaveCount(0);
  await expect(graph.getByRole('button', { name: /node .*: open details$/ })).toHaveCount(demo.explain.graph.nodes.length);
  await expect(nodeButton(graph, 'reason-retry2')).toBeVisible();
  await page.reload();
  await expect(graph).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  const summary = page.getByRole('region', { name: DEMO_GOAL, exact: true });
  await expect(summary.getByRole('heading', { level: 1 })).toHaveText(DEMO_GOAL);
  await expect(summary.getByText(demo.explain.chosen.description)).toBeVisible();
  // The heaviest nodes are called out (pev2 style), on the card and in its name.
  await expect(graph.getByText(/^(costliest|slowest|most tokens)$/).first()).toBeVisible();
  await expect(graph.getByRole('button', { name: /, (costliest|slowest|most tokens)\b.*: open details$/ }).first()).toBeVisible();

  // Click the reason node: estimate vs actual with the misestimate factor and its direction.
  await nodeButton(graph, 'reason').click();
  // The one node panel (a non-modal dialog named by its heading, the node's kind and id).
  const panel = page.getByRole('dialog');
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('heading', { level: 2 })).toContainText('reason');
  // Cells after the row header: estimate, actual, misestimate.
  const tokens = rowOf(panel.getByRole('table', { name: 'Estimate vs actual' }), 'Tokens').getByRole('cell');
  await expect(tokens.nth(0)).toHaveText(/^[\d,]+$/);
  await expect(tokens.nth(1)).toHaveText(/^[\d,]+$/);
  await expect(tokens.nth(2)).toHaveText(/^(under|over)-estimated [\d.]+×$|^as estimated$/);
  await expect(panel.getByRole('table', { name: 'Exclusive and inclusive' }).getByRole('rowheader', { name: 'Critical path' })).toBeVisible();
  await expect(panel.getByText(/model/).first()).toBeVisible();
  await snapshot(page, testInfo, 'node-panel');

  // Keyboard: Esc closes and focus returns to the node; Enter on a focused node opens it again.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(nodeButton(graph, 'reason')).toBeFocused();
  await nodeButton(graph, 'compress').focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('heading', { level: 2 })).toContainText('compress');
  await panel.getByRole('button', { name: /^Close node details/ }).click();
  await expect(panel).toHaveCount(0);

  // Shading toggle is a labelled radio group.
  await page.getByRole('radio', { name: /tokens/ }).check();
  await expect(page.getByRole('radio', { name: /tokens/ })).toBeChecked();

  // Candidates: the chosen one marked; a rejected family with the rule and reason that cut it.
  await expect(candidateRows(page).filter({ has: page.getByText('chosen', { exact: true }) })).toHaveCount(1);
  const rejected = page.getByRole('table', { name: 'Rejected candidates' }).getByRole('row').filter({ has: page.getByRole('cell') });
  expect(await rejected.count()).toBeGreaterThan(0);
  const tierCut = rejected.filter({ hasText: 'capability.tier' }).first();
  await expect(tierCut).toContainText(/API_KEY is not set/);
  // The run's record keeps the best of each rule (retention.rejected_candidates_kept) and says how many there were.
  await expect(page.getByRole('heading', { name: new RegExp(`^Rejected candidates \\(${demo.explain.rejectedSummary?.total ?? demo.explain.rejectedCandidates.length} rejected; showing the best 20 of each rule, \\d+ in all\\)`) })).toBeVisible();

  await expect(page.getByRole('region', { name: 'Token budget', exact: true })).toContainText(/demo-logs/);
  await snapshot(page, testInfo, 'demo');
  expect(errors).toEqual([]);
});

test('compares the demo goal under two budgets side by side', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await signIn(page, 'operator');
  const tight = await mutate(page, 'runtime.run', { goal: DEMO_GOAL, sources: ['demo-logs', 'demo-events', 'demo-git'], constraints: { max_tokens: 2000 } });
  expect(tight.status).toBe('completed');

  // The narrower run shows the sources it did not read, with the reason.
  await page.goto(`/plans/${tight.runId}`);
  const rejectedSources = page.getByRole('table', { name: 'Rejected sources' });
  await expect(rejectedSources.getByRole('row').filter({ hasText: 'demo-docs' }).filter({ hasText: 'not selected' }).first()).toBeVisible();
  // The chosen plan fits the cap. Whether any other candidate is cut by it depends on what the learned
  // estimator has seen in this server (learning is on by default), so the infeasible badge and the
  // constraint it names are checked in candidate-table.test.tsx instead.
  const chosenTokens = await candidateRows(page).filter({ hasText: 'chosen' }).first().getByRole('cell').last().innerText();
  expect(Number(chosenTokens.replace(/,/g, ''))).toBeLessThanOrEqual(2000);

  // From the plans index: pick both runs, then compare.
  await page.goto('/plans');
  await expect(page.getByRole('region', { name: 'Recent runs' }).getByRole('link', { name: DEMO_GOAL }).first()).toBeVisible();
  await page.getByRole('checkbox', { name: `Pick run ${demo.runId} to compare` }).check();
  await page.getByRole('checkbox', { name: `Pick run ${tight.runId} to compare` }).check();
  await page.getByRole('link', { name: 'Compare the two picked plans' }).click();
  await expect(page).toHaveURL(new RegExp(`/plans/compare\\?a=${demo.runId}&b=${tight.runId}$`));
  const diff = page.getByRole('region', { name: 'Plan differences' }).getByRole('table');
  await expect(diff).toBeVisible({ timeout: 30_000 });
  // 3,000 → 900: a 2,000-token cap keeps 500 for the answer and 60% of the rest for evidence (graph-stage.ts tokenAllowance).
  await expect(rowOf(diff, 'Context budget')).toContainText('3,000900−70%');
  await expect(rowOf(diff, 'Constraints')).toContainText('max_tokens=2000');
  // Each side is a region named by its heading ("Plan A: 9 nodes · …") holding its graph and node panel.
  const side = (name: 'A' | 'B') => page.getByRole('region', { name: new RegExp(`^Plan ${name}:`) });
  for (const name of ['A', 'B'] as const) {
    await expect(side(name).getByRole('region', { name: `Execution graph of plan ${name}` })).toHaveAttribute('data-ready', 'true');
  }
  await nodeButton(side('B'), 'assemble').click();
  await expect(side('B').getByRole('dialog', { name: /assemble/ })).toContainText('budget 900');
  await expect(side('A').getByRole('dialog')).toHaveCount(0);
  await snapshot(page, testInfo, 'compare');
  expect(errors).toEqual([]);
});

/** The smallest on-screen text in an element: computed font size × the zoom its box is drawn at. */
async function smallestTextPx(node: import('@playwright/test').Locator): Promise<number> {
  return node.evaluate((element: HTMLElement) => {
    const zoom = element.getBoundingClientRect().width / element.offsetWidth;
    let smallest = Number.POSITIVE_INFINITY;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.textContent?.trim() || !text.parentElement) continue;
      smallest = Math.min(smallest, parseFloat(getComputedStyle(text.parentElement).fontSize) * zoom);
    }
    return smallest;
  });
}

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}
const inside = (inner: Box, outer: Box) => inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;

/** Every node's box, and whether each lies inside the graph's visible area. */
async function nodesOutside(page: Page): Promise<string[]> {
  const graph = page.getByRole('region', { name: 'Execution graph', exact: true });
  const area = (await graph.boundingBox())!;
  const nodes = graph.getByRole('button', { name: /node .*: open details$/ });
  const outside: string[] = [];
  for (const node of await nodes.all()) {
    const box = await node.boundingBox();
    if (!box || !inside(box, area)) outside.push((await node.getAttribute('aria-label')) ?? '?');
  }
  return outside;
}

for (const width of [1280, 1024]) {
  test(`at ${width} px: nodes readable at the first fit, the panel hides none, tables stay inside their cards`, async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, 'operator');
    const run = await mutate(page, 'runtime.run', { goal: DEMO_GOAL });
    await page.goto(`/plans/${run.runId}`);
    const graph = page.getByRole('region', { name: 'Execution graph', exact: true });
    await expect(graph).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    const nodes = graph.getByRole('button', { name: /node .*: open details$/ });
    await expect(nodes).toHaveCount(firstAttemptNodes(run.explain.graph));

    // Readable without zooming: every node's smallest text is at least 12 px on screen, and every node is in view.
    for (const node of await nodes.all()) expect(await smallestTextPx(node), (await node.getAttribute('aria-label')) ?? '').toBeGreaterThanOrEqual(12);
    expect(await nodesOutside(page)).toEqual([]);

    // The node panel takes its own column; the graph re-fits into what is left and hides no node.
    await graph.getByRole('button', { name: /^reason node reason,/ }).click();
    const panel = page.getByRole('dialog', { name: /reason/ });
    await expect(panel).toBeVisible();
    await expect.poll(() => nodesOutside(page), { message: 'nodes outside the graph area with the panel open' }).toEqual([]);
    const graphBox = (await graph.boundingBox())!;
    const panelBox = (await panel.boundingBox())!;
    expect(graphBox.x + graphBox.width).toBeLessThanOrEqual(panelBox.x);
    for (const node of await nodes.all()) expect(await smallestTextPx(node)).toBeGreaterThanOrEqual(12);
    // The panel's own tables fit its column: nothing to scroll sideways to.
    expect(await panel.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await expect(panel.getByRole('columnheader', { name: 'Misestimate' })).toBeVisible();
    await snapshot(page, testInfo, `panel-${width}`);
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);

    // The candidate table: every column header in full inside its card, nothing scrolled out of sight.
    const candidatesCard = page.getByRole('region', { name: /^Candidate plans/ });
    const candidates = candidatesCard.getByRole('table', { name: /^Candidate plans/ });
    await expect(candidates).toBeVisible({ timeout: 30_000 });
    const cardBox = (await candidatesCard.boundingBox())!;
    for (const header of ['#', 'Plan', 'Score', 'Components', 'Accuracy', 'Cost', 'Latency', 'Tokens']) {
      const cell = candidates.getByRole('columnheader', { name: header, exact: true });
      await expect(cell).toBeVisible();
      expect(inside((await cell.boundingBox())!, cardBox), `${header} header inside the card`).toBe(true);
      // In full: the header's text is not clipped by its cell.
      expect(await cell.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
    expect(inside((await candidates.boundingBox())!, cardBox)).toBe(true);
    await snapshot(page, testInfo, `candidates-${width}`);
    expect(errors).toEqual([]);
  });

  test(`at ${width} px: the console's EXPLAIN estimate table stays inside its card`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, 'operator');
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Goal' }).fill(DEMO_GOAL);
    await page.getByRole('button', { name: 'Explain only' }).click();
    const card = page.getByRole('region', { name: 'Explain', exact: true });
    const estimates = card.getByRole('table', { name: 'Plan estimates' });
    await expect(estimates).toBeVisible({ timeout: 60_000 });
    const cardBox = (await card.boundingBox())!;
    expect(inside((await estimates.boundingBox())!, cardBox), 'estimate table inside the EXPLAIN card').toBe(true);
    for (const header of ['Estimate', 'Expected', /^Interval/]) await expect(estimates.getByRole('columnheader', { name: header })).toBeVisible();
    // Inside without a hidden part to scroll to: the whole table is on show.
    expect(await estimates.evaluate((table) => table.parentElement!.scrollWidth <= table.parentElement!.clientWidth)).toBe(true);
    await page.screenshot({ path: `test-results/explain-estimates-${width}.png`, fullPage: true });
    await testInfo.attach(`explain-${width}`, { path: `test-results/explain-estimates-${width}.png`, contentType: 'image/png' });
  });
}
