import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures/auth';

const DEMO_SOURCES = ['demo-docs', 'demo-events', 'demo-git', 'demo-logs', 'demo-metrics'];

test('the knowledge page shows the demo sources, their versions, facts, lineage and the memory-limit contradiction', async ({ page }) => {
  const browserErrors: string[] = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') browserErrors.push(message.text());
  });
  await signIn(page, 'viewer');
  await page.goto('/knowledge');

  // Body rows of the sources table: each is headed by its source's name (a button that selects it).
  const rows = page.getByRole('region', { name: 'Sources' }).getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
  await expect(rows.first()).toBeVisible({ timeout: 60_000 });
  const names = await rows.getByRole('rowheader').allInnerTexts();
  for (const name of DEMO_SOURCES) expect(names).toContain(name);
  // A fresh demo load: every source current, none stale (the status is the row's last cell).
  for (const name of DEMO_SOURCES) await expect(rows.filter({ has: page.getByRole('rowheader', { name, exact: true }) }).getByRole('cell').last()).toHaveText(/^current/);

  await page.getByRole('button', { name: 'demo-git', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Source versions' }).getByRole('rowheader').first()).toHaveText('v1');
  const facts = page.getByRole('region', { name: 'Facts' });
  await expect(facts.getByRole('row').filter({ hasText: 'memory limit' }).filter({ hasText: '256Mi' }).first()).toBeVisible();

  // Commit 48d4188 lowered the limit to 256Mi; the overview doc still says 512Mi.
  const contradiction = page.locator('[data-testid="knowledge-contradiction-row"][data-subject="checkout-api"][data-attribute="memory limit"]');
  await expect(contradiction.filter({ hasText: '512Mi' }).filter({ hasText: 'demo-docs' })).toHaveCount(1);
  await expect(contradiction.filter({ hasText: '256Mi' }).filter({ hasText: 'demo-git' })).toHaveCount(1);

  await contradiction.filter({ hasText: 'demo-docs' }).getByRole('button', { name: 'lineage' }).click();
  // A step reads "derived from ↑ chunk …" / "contained in ↑ source …": its kind is the word after the arrow.
  const steps = page.getByRole('region', { name: 'Lineage' }).getByRole('list', { name: 'Upstream chain' }).getByRole('listitem');
  await expect(steps.filter({ hasText: /^(derived from|contained in) ↑\s*chunk\b/ })).toHaveCount(1);
  await expect(steps.filter({ hasText: /^(derived from|contained in) ↑\s*source\b/ })).toContainText('demo-docs v1');

  // A viewer reads memories but is not offered the operator's lifecycle actions.
  await expect(page.getByTestId('knowledge-memories')).toBeVisible();
  await expect(page.getByTestId('keep-as-memory')).toHaveCount(0);
  await expect(page.getByTestId('compact-memories')).toHaveCount(0);

  await page.screenshot({ path: 'test-results/knowledge-page.png', fullPage: true });
  expect(browserErrors).toEqual([]);
});

/** A datetime-local value for an instant, in UTC as the page reads it ("2025-06-02T16:41:05"). */
const localValueOf = (instant: Date) => instant.toISOString().slice(0, 19);

test('an operator keeps a fact as a memory, expires it, and still finds it as known before the expiry', async ({ page }) => {
  const browserErrors: string[] = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));
  await signIn(page, 'operator');
  await page.goto('/knowledge');
  await page.getByRole('button', { name: 'demo-git', exact: true }).click();

  const fact = page.locator('[data-testid="knowledge-fact-row"][data-fact-status="current"]').filter({ hasText: 'memory limit' }).filter({ hasText: '256Mi' }).first();
  await expect(fact).toBeVisible({ timeout: 60_000 });
  // Out of range first: the server's refusal is shown inline, naming the field.
  await fact.getByTestId('keep-confidence').fill('2');
  await fact.getByTestId('keep-as-memory').click();
  await expect(page.getByTestId('error-message').filter({ hasText: 'confidence' })).toBeVisible();
  await expect(page.getByTestId('error-field')).toHaveText('confidence');

  await fact.getByTestId('keep-confidence').fill('0.75');
  await fact.getByTestId('keep-as-memory').click();
  const promoted = page.getByTestId('promoted-memory');
  await expect(promoted).toContainText('256Mi');
  const memoryId = (await promoted.getAttribute('data-memory-id'))!;
  expect(memoryId).toMatch(/^mem_/);

  const memories = page.getByTestId('knowledge-memories');
  const row = memories.locator(`[data-testid="knowledge-memory-row"][data-memory-id="${memoryId}"]`);
  await expect(row).toContainText('checkout-api');
  await expect(row).toContainText('0.75');
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'current');

  // A known-at instant between recording and expiry, to the second (datetime-local's resolution).
  const recordedAt = new Date((await row.locator('[data-recorded-at]').getAttribute('data-recorded-at'))!);
  const knownAt = new Date(Math.ceil((recordedAt.getTime() + 1) / 1000) * 1000);
  const wait = knownAt.getTime() + 300 - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  await row.getByTestId('expire-memory').click();
  await expect(row).toHaveCount(0);

  const asOf = page.getByTestId('memories-as-of');
  await asOf.getByLabel('Known at').fill(localValueOf(knownAt));
  await asOf.getByRole('button', { name: 'Show' }).click();
  await expect(row).toBeVisible();
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'expired');
  await expect(row.getByTestId('expire-memory')).toHaveCount(0);

  await asOf.getByRole('button', { name: 'Now' }).click();
  await expect(row).toHaveCount(0);

  // Two current memories saying the same thing are compacted into one; the report says how many merged.
  await fact.getByTestId('keep-confidence').fill('0.5');
  await fact.getByTestId('keep-as-memory').click();
  await expect(promoted).not.toHaveAttribute('data-memory-id', memoryId);
  const weakId = (await promoted.getAttribute('data-memory-id'))!;
  await fact.getByTestId('keep-confidence').fill('0.9');
  await fact.getByTestId('keep-as-memory').click();
  await expect(promoted).not.toHaveAttribute('data-memory-id', weakId);
  const strongId = (await promoted.getAttribute('data-memory-id'))!;
  await expect(memories.locator(`[data-memory-id="${weakId}"]`)).toBeVisible();
  await page.getByTestId('compact-memories').click();
  await expect(page.getByTestId('compaction-report')).toContainText(/Compaction merged [1-9]\d* duplicate/);
  await expect(memories.locator(`[data-memory-id="${weakId}"]`)).toHaveCount(0);
  await expect(memories.locator(`[data-memory-id="${strongId}"]`)).toContainText('0.90');
  // Leave no current memory behind for the next run on the same data directory.
  await memories.locator(`[data-memory-id="${strongId}"]`).getByTestId('expire-memory').click();
  await expect(memories.locator(`[data-memory-id="${strongId}"]`)).toHaveCount(0);

  await page.screenshot({ path: 'test-results/knowledge-memories.png', fullPage: true });
  expect(browserErrors).toEqual([]);
});

test('re-ingesting a changed source keeps the old version, marks what was derived from it stale, and the page shows both', async ({ page }) => {
  const browserErrors: string[] = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));
  // Ingest through the running server, as an operator's CLI does (it finds the server by the data
  // directory's lock). A fresh marker makes each run a new version on a reused e2e data directory.
  const folder = mkdtempSync(join(tmpdir(), 'e2e-runbook-'));
  // One service name per run, so the facts of earlier runs on the same data directory do not count.
  const service = `payments${Date.now() % 1_000_000}-api`;
  const ingest = (limit: string) => {
    writeFileSync(join(folder, 'payments-api.md'), `# ${service} sizing\n\nThe ${service} memory limit is ${limit}.\n`);
    execFileSync(process.execPath, ['bin/context-runtime.mjs', 'ingest', folder, '--source', 'e2e-runbook'], { env: { ...process.env, CONTEXT_RUNTIME_DATA_DIR: '.data/e2e-pglite' }, encoding: 'utf8', timeout: 120_000 });
  };
  try {
    ingest('1Gi');
    ingest('2Gi');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  await signIn(page, 'viewer');
  await page.goto('/knowledge');
  await page.getByRole('button', { name: 'e2e-runbook', exact: true }).click();
  // Body rows of the versions table, newest first, each headed by "v<n>"; its status is a badge with the word.
  const versions = page.getByRole('region', { name: 'Source versions' }).getByRole('row').filter({ has: page.getByRole('rowheader') });
  await expect(versions.nth(1)).toBeVisible({ timeout: 60_000 });
  const latest = Number((await versions.nth(0).getByRole('rowheader').innerText()).replace(/^v/, ''));
  expect(latest).toBeGreaterThan(1);
  await expect(versions.nth(1).getByRole('rowheader')).toHaveText(`v${latest - 1}`);
  await expect(versions.nth(0).getByText('current', { exact: true })).toBeVisible();
  await expect(versions.nth(1).getByText('superseded', { exact: true })).toBeVisible();

  const factRows = page.getByRole('region', { name: 'Facts' }).getByRole('row');
  const withStatus = (status: string) => factRows.filter({ has: page.getByText(status, { exact: true }) });
  await expect(withStatus('current').filter({ hasText: service }).filter({ hasText: '2Gi' })).toHaveCount(1);
  const old = withStatus('stale').filter({ hasText: service }).filter({ hasText: '1Gi' });
  await expect(old).toHaveCount(1);
  await old.getByRole('button', { name: 'lineage', exact: true }).click();
  const steps = page.getByRole('region', { name: 'Lineage' }).getByRole('list', { name: 'Upstream chain' }).getByRole('listitem');
  await expect(steps.filter({ hasText: /^(derived from|contained in) ↑\s*source\b/ })).toContainText(`e2e-runbook v${latest - 1}`);

  await page.screenshot({ path: 'test-results/knowledge-versions.png', fullPage: true });
  expect(browserErrors).toEqual([]);
});

