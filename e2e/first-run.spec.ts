/**
 * Issue 10's acceptance in the browser: a server started on an EMPTY data directory with NO
 * word-vector cache (its own `next start`, not the shared e2e server) builds its cache, opens,
 * prints the one-time setup link at start, and a new user following the README creates the first
 * admin from that link, signs in, asks the README's question and gets the OOMKilled evidence.
 */
import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { FRESH_BASE_URL, type FreshServer, startFreshServer } from './fixtures/fresh-server';

const GOAL = 'Explain why deployment checkout-api failed';
const ADMIN = { email: 'first-admin@fresh.local', name: 'First Admin', password: 'fresh-start-password' };

test.describe.configure({ mode: 'serial', timeout: 600_000 });
test.use({ baseURL: FRESH_BASE_URL });

let server: FreshServer;

test.beforeAll(async () => {
  server = startFreshServer();
  expect(existsSync(server.cachePath), 'the word-vector cache must not exist before the start').toBe(false);
});

test.afterAll(async () => {
  await server?.stop();
});

test('a first start on an empty data directory prints the setup link; the new user creates the admin, signs in and gets the OOMKilled evidence', async ({ page }) => {
  // Printed at start, before anyone tries to sign in (it used to appear only after a failed sign-in).
  const linkLine = await server.waitForLine(/\[auth\] no accounts yet\. .* at: http\S+\/setup\?token=\S+/, 480_000);
  expect(server.log()).toContain('[context-runtime] runtime ready');
  expect(existsSync(server.cachePath), 'the server built the word-vector cache itself').toBe(true);
  const link = new URL(/(http\S+\/setup\?token=\S+)/.exec(linkLine)![1]);

  // /setup typed by hand (no token) says where the link is and how to get a fresh one.
  await page.goto('/setup');
  const help = page.locator('main').getByRole('alert');
  await expect(help).toContainText('server prints the link to its log');
  await expect(help).toContainText('restart the server');

  // The link from the log creates the first admin.
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Name').fill(ADMIN.name);
  await page.getByLabel('Password (at least 12 characters)').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create admin' }).click();
  await expect(page.getByRole('status')).toContainText(`Admin ${ADMIN.email} created`);
  await page.getByRole('status').getByRole('link', { name: 'Sign in' }).click();

  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // The README's question in the console.
  await expect(page.getByRole('heading', { name: 'Console' })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('textbox', { name: 'Goal' }).fill(GOAL);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const answer = page.getByRole('region', { name: /^Answer/ });
  await expect(answer).toBeVisible({ timeout: 240_000 });
  await expect(answer).toContainText('OOMKilled', { timeout: 30_000 });
  await page.screenshot({ path: 'test-results/first-run-answer.png' });

  // The link has done its job: opening it again says setup is complete instead of showing the form.
  await page.context().clearCookies();
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByText('Setup is complete.')).toBeVisible();
});
