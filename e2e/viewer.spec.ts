/**
 * A viewer's landing page: not a console of disabled buttons but the answers they may read. An
 * operator runs the demo goal; the viewer signs in, is told running needs the operator role, opens
 * that answer, reads a cited chunk, and follows the link to its plan.
 */
import { expect, test } from '@playwright/test';
import { signIn, trpcMutation } from './fixtures/auth';

const DEMO_GOAL = 'Explain why deployment checkout-api failed';

interface RunResponse {
  readonly runId: string;
  readonly status: string;
  readonly answer?: string;
  readonly citations: readonly { readonly ref: number; readonly sourceName: string }[];
}

test('a viewer lands on the answers they may read and opens one, its evidence and its plan', async ({ page }, testInfo) => {
  const browserErrors: string[] = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));

  await signIn(page, 'operator');
  const response = await trpcMutation(page.request, 'runtime.run', { goal: DEMO_GOAL });
  expect(response.ok(), await response.text()).toBe(true);
  const run = ((await response.json()) as { result: { data: { json: RunResponse } } }).result.data.json;
  expect(run.status).toBe('completed');
  expect(run.citations.length).toBeGreaterThan(0);

  await signIn(page, 'viewer');
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Answers' })).toBeVisible();
  await expect(page.getByRole('note')).toContainText('needs the operator role');
  // Nothing on the page the viewer may not use.
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('button', { disabled: true })).toHaveCount(0);

  // The newest answer is the operator's run: open it.
  const answers = page.getByRole('list', { name: 'Recent answers' });
  const newest = answers.getByRole('button').first();
  await expect(newest).toContainText(DEMO_GOAL);
  await newest.click();
  await expect(newest).toHaveAttribute('aria-pressed', 'true');
  const answer = page.getByRole('region', { name: 'Answer', exact: true });
  await expect(answer).toContainText(DEMO_GOAL);
  const firstWords = run.answer!.replace(/\s*\[\d+(,\s*\d+)*\]/g, '').split(/\s+/).slice(0, 6).join(' ');
  await expect(answer).toContainText(firstWords);
  await expect(answer.getByRole('link', { name: /Open plan/ })).toHaveAttribute('href', `/plans/${run.runId}`);

  // A citation opens the chunk the run read. The page numbers citations 1..n in the order the answer
  // cites them, so citation 1 is the runtime's first marker in the answer text.
  const firstRef = Number(/\[(\d+)/.exec(run.answer!)?.[1] ?? run.citations[0]!.ref);
  const first = run.citations.find((citation) => citation.ref === firstRef) ?? run.citations[0]!;
  await answer.getByRole('button', { name: 'Open chunk for citation 1', exact: true }).click();
  const evidence = page.getByRole('dialog');
  await expect(evidence).toBeVisible();
  await expect(evidence).toContainText(first.sourceName);
  await page.keyboard.press('Escape');
  await expect(evidence).toBeHidden();
  await testInfo.attach('viewer answers', { body: await page.screenshot({ path: 'test-results/viewer-answers.png', fullPage: true }), contentType: 'image/png' });

  // Its plan is readable to a viewer too.
  await answer.getByRole('link', { name: /Open plan/ }).click();
  await expect(page).toHaveURL(new RegExp(`/plans/${run.runId}$`));
  await expect(page.getByRole('region', { name: 'Execution graph', exact: true })).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  expect(browserErrors).toEqual([]);
});

test('the answers list asks the server under the viewer role, and running stays refused', async ({ page }) => {
  await signIn(page, 'viewer');
  const recent = await page.request.get(`/api/trpc/answers.recent?input=${encodeURIComponent(JSON.stringify({ json: { limit: 5 } }))}`);
  expect(recent.status()).toBe(200);
  const refused = await trpcMutation(page.request, 'runtime.run', { goal: DEMO_GOAL });
  expect(refused.status()).toBe(403);
});
