/**
 * Issue 14 point 4, end to end on `next start`: an admin creates an API key on /admin/api-keys
 * (shown once), a program uses it over the HTTP API v1 (Playwright's HTTP client, no cookies) —
 * limited to its one source — the page shows its last use, and once revoked the key is refused.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth';

const DEMO_GOAL = 'Explain why deployment checkout-api failed';

test('an admin creates a source-scoped key, a program uses it, the admin revokes it', async ({ page, playwright, baseURL }) => {
  const browserErrors: string[] = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));
  await signIn(page, 'admin');
  await page.goto('/admin/api-keys');
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();

  const name = `logs reader ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('combobox', { name: 'Role' }).selectOption('operator');
  await page.getByRole('checkbox', { name: 'demo-logs' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('status')).toContainText('it is not shown again');
  const key = await page.getByRole('textbox', { name: 'New API key' }).inputValue();
  expect(key).toMatch(/^crk_[0-9a-f]{8}_/);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('demo-logs');
  await expect(row).toContainText('never');

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? '')).map((violation) => violation.id)).toEqual([]);

  // A program: its own HTTP client, no session cookie — only the key.
  const program = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
  const context = await program.post('/api/v1/build-context', { data: { goal: DEMO_GOAL, tokenBudget: 800 } });
  expect(context.status(), await context.text()).toBe(200);
  const passages = ((await context.json()) as { passages: { sourceName: string }[] }).passages;
  expect(passages.length).toBeGreaterThan(0);
  expect(new Set(passages.map((passage) => passage.sourceName))).toEqual(new Set(['demo-logs']));
  const openapi = await program.get('/api/v1/openapi.json');
  expect(Object.keys(((await openapi.json()) as { paths: object }).paths)).toContain('/api/v1/build-context');

  await page.reload();
  await expect(page.getByRole('row', { name: new RegExp(name) })).not.toContainText('never');
  await page.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('revoked');
  const refused = await program.post('/api/v1/simulate', { data: { goal: DEMO_GOAL } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  await program.dispose();
  expect(browserErrors).toEqual([]);
});
