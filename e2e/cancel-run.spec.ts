/**
 * The console's Cancel button (issue 13): a run whose model call hangs on a slow model is cancelled
 * from the progress panel; the answer panel then says "cancelled", and the model server saw the
 * call's connection close (the cancel reached the call, not only the page). Runs on a server of its
 * own (port E2E_PORT + 1), configured with a loopback OpenAI-compatible model that answers after a
 * minute: the shared e2e server's config has no model slow enough to press a button during.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../server/testing/loopback-openai-server';
import { signInRequest } from './fixtures/auth';
import { E2E_USERS } from './fixtures/e2e-users';
import { FRESH_BASE_URL, type FreshServer, startFreshServer } from './fixtures/fresh-server';

test.describe.configure({ mode: 'serial', timeout: 600_000 });
test.use({ baseURL: FRESH_BASE_URL });

let model: LoopbackOpenAIServer;
let server: FreshServer;
let configRoot: string;

test.beforeAll(async () => {
  model = await startLoopbackOpenAIServer({ text: 'The checkout-api pods ran out of memory [1].', delayMs: 60_000 });
  configRoot = mkdtempSync(path.join(tmpdir(), 'cr-e2e-cancel-'));
  const configPath = path.join(configRoot, 'context-runtime.yaml');
  // quality_prior 0.9 makes the planner answer with the slow tier (see server/runtime-integration/run-recovery.test.ts).
  const tier = `{ name: slow, provider: openai-compatible, base_url: "${model.baseURL}", model: loop-1, quality_prior: 0.9 }`;
  writeFileSync(configPath, `models:\n  tiers:\n    - ${tier}\n    - { name: local, provider: extractive }\n`);
  server = startFreshServer({
    CONTEXT_RUNTIME_CONFIG: configPath,
    CONTEXT_RUNTIME_ADMIN_EMAIL: E2E_USERS.admin.email,
    CONTEXT_RUNTIME_ADMIN_PASSWORD: E2E_USERS.admin.password,
    // The word vectors this checkout already built: the first-run spec is the one that tests building them.
    CONTEXT_RUNTIME_EMBEDDINGS_CACHE: path.resolve('.data/embeddings/sg-100d.bin'),
  });
  await server.waitForLine(/\[context-runtime\] runtime ready/, 480_000);
});

test.afterAll(async () => {
  await server?.stop();
  await model?.close();
  if (configRoot) rmSync(configRoot, { recursive: true, force: true });
});

test('Cancel run stops a run waiting on a slow model: the answer says cancelled and the model call is closed', async ({ page }) => {
  const browserErrors: string[] = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));
  await signInRequest(page.request, E2E_USERS.admin);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Console' })).toBeVisible({ timeout: 60_000 });

  const callsBefore = model.calls.length;
  await page.getByRole('textbox', { name: 'Goal' }).fill('Explain why deployment checkout-api failed');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const cancel = page.getByRole('button', { name: 'Cancel run' });
  await expect(cancel).toBeVisible({ timeout: 120_000 });
  // Press it while a model call is open at the slow server, so the cancel has a call to abort.
  await expect.poll(() => model.calls.slice(callsBefore).some((call) => call.ended === undefined), { timeout: 120_000 }).toBe(true);
  await cancel.click();

  const answer = page.getByRole('region', { name: /^Answer/ });
  await expect(answer).toBeVisible({ timeout: 30_000 });
  await expect(answer.getByRole('heading', { name: /cancelled/ })).toBeVisible();
  await expect(cancel).toBeHidden();
  // The server closed the call the run had open: cancelling reached the model call itself.
  await expect.poll(() => model.calls.slice(callsBefore).map((call) => call.ended), { timeout: 10_000 }).not.toContain(undefined);
  expect(model.calls.slice(callsBefore).every((call) => call.ended === 'aborted')).toBe(true);
  await page.screenshot({ path: 'test-results/cancel-run.png', fullPage: true });
  expect(browserErrors).toEqual([]);
});
