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

  // Marked at ingest (issue 12, finding 5): each of the demo's seven commits names its author's email, and so
  // does each of the six lookup-only parts of its cut initial import (they reach a model as the commit does);
  // the other sources hold none.
  const headers = (await page.getByRole('region', { name: 'Sources' }).getByRole('columnheader').allInnerTexts()).map((text) => text.trim());
  const sensitiveCell = (name: string) => rows.filter({ has: page.getByRole('rowheader', { name, exact: true }) }).getByRole('cell').nth(headers.indexOf('Sensitive') - 1);
  await expect(sensitiveCell('demo-git')).toHaveText('13');
  for (const name of DEMO_SOURCES.filter((source) => source !== 'demo-git')) await expect(sensitiveCell(name)).toHaveText('0');

  await page.getByRole('button', { name: 'demo-git', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Source versions' }).getByRole('rowheader').first()).toHaveText('v1');
  const facts = page.getByRole('region', { name: 'Facts' });
  await expect(facts.getByRole('row').filter({ hasText: 'memory limit' }).filter({ hasText: '256Mi' }).first()).toBeVisible();

  // Commit 48d4188 lowered the limit to 256Mi; the overview doc still says 512Mi. Each disagreement
  // is a row group named by its subject and attribute; each side is a row (value, source).
  const contradiction = page.getByRole('region', { name: 'Contradictions' }).getByRole('rowgroup', { name: 'checkout-api memory limit', exact: true }).getByRole('row');
  await expect(contradiction.filter({ hasText: '512Mi' }).filter({ hasText: 'demo-docs' })).toHaveCount(1);
  await expect(contradiction.filter({ hasText: '256Mi' }).filter({ hasText: 'demo-git' })).toHaveCount(1);

  await contradiction.filter({ hasText: 'demo-docs' }).getByRole('button', { name: 'lineage' }).click();
  // A step reads "derived from ↑ chunk …" / "contained in ↑ source …": its kind is the word after the arrow.
  const steps = page.getByRole('region', { name: 'Lineage' }).getByRole('list', { name: 'Upstream chain' }).getByRole('listitem');
  await expect(steps.filter({ hasText: /^(derived from|contained in) ↑\s*chunk\b/ })).toHaveCount(1);
  await expect(steps.filter({ hasText: /^(derived from|contained in) ↑\s*source\b/ })).toContainText('demo-docs v1');

  // A viewer reads memories but is not offered the operator's lifecycle actions (the operator's test finds them by these names).
  await expect(page.getByRole('region', { name: 'Memories', exact: true }).getByRole('table')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Keep as memory' })).toHaveCount(0);
  await expect(page.getByRole('spinbutton', { name: /^Confidence for / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Compact duplicates' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'expire', exact: true })).toHaveCount(0);

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

  // A current fact (its status badge reads "current") stating the 256Mi memory limit.
  const facts = page.getByRole('region', { name: 'Facts' });
  const fact = facts.getByRole('row').filter({ has: page.getByText('current', { exact: true }) }).filter({ hasText: 'memory limit' }).filter({ hasText: '256Mi' }).first();
  await expect(fact).toBeVisible({ timeout: 60_000 });
  const confidence = fact.getByRole('spinbutton', { name: /^Confidence for checkout-api memory limit = 256Mi$/ });
  const keep = (value: string) => confidence.fill(value).then(() => fact.getByRole('button', { name: 'Keep as memory' }).click());
  // Out of range first: the server's refusal is shown inline, naming the field in words.
  await keep('2');
  const refusal = page.getByRole('alert').filter({ hasText: 'confidence' });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText(/^Invalid input in confidence/);

  // The notice says what was kept and at which confidence; the memory is then a row of the Memories table.
  const kept = page.getByRole('status').filter({ hasText: /^Kept checkout-api · memory limit = 256Mi as a memory/ });
  await keep('0.75');
  await expect(kept).toContainText('(confidence 0.75)');
  await expect(refusal).toHaveCount(0);

  // Rows of the Memories table for this fact, by the confidence the operator gave (each run
  // leaves none current behind, so one confidence is one memory; toContainText is strict about that).
  const memories = page.getByRole('region', { name: 'Memories', exact: true });
  const memoryRows = memories.getByRole('row').filter({ hasText: 'checkout-api' }).filter({ hasText: '256Mi' });
  const memoryWith = (confidenceText: string) => memoryRows.filter({ has: page.getByRole('cell', { name: confidenceText, exact: true }) });
  const row = memoryWith('0.75');
  await expect(row).toContainText('memory limit');
  await expect(row.getByText('current', { exact: true })).toBeVisible();

  // A known-at instant between recording and expiry, to the second (datetime-local's resolution):
  // the "Recorded → expired" cell reads "YYYY-MM-DD HH:MM:SS" (UTC) over "not expired"; known-at is the next second.
  const recordedText = (await row.getByRole('cell').filter({ hasText: /not expired$/ }).innerText()).slice(0, 19);
  expect(recordedText).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  const knownAt = new Date(Date.parse(`${recordedText.replace(' ', 'T')}Z`) + 1000);
  const wait = knownAt.getTime() + 300 - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  await row.getByRole('button', { name: 'expire', exact: true }).click();
  await expect(row).toHaveCount(0);

  const asOf = page.getByRole('form', { name: 'Memories as of' });
  await asOf.getByLabel('Known at').fill(localValueOf(knownAt));
  await asOf.getByRole('button', { name: 'Show' }).click();
  await expect(row).toBeVisible();
  await expect(row.getByText('expired', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'expire', exact: true })).toHaveCount(0);

  await asOf.getByRole('button', { name: 'Now' }).click();
  await expect(row).toHaveCount(0);

  // Two current memories saying the same thing are compacted into one; the report says how many merged.
  await keep('0.5');
  await expect(kept).toContainText('(confidence 0.50)');
  await expect(memoryWith('0.50')).toBeVisible();
  await keep('0.9');
  await expect(kept).toContainText('(confidence 0.90)');
  await expect(memoryWith('0.90')).toBeVisible();
  await page.getByRole('button', { name: 'Compact duplicates' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Compaction merged/ })).toContainText(/Compaction merged [1-9]\d* duplicate/);
  await expect(memoryWith('0.50')).toHaveCount(0);
  await expect(memoryWith('0.90')).toBeVisible();
  // Leave no current memory behind for the next run on the same data directory.
  await memoryWith('0.90').getByRole('button', { name: 'expire', exact: true }).click();
  await expect(memoryWith('0.90')).toHaveCount(0);

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

