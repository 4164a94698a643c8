/**
 * Approvals: an operator's high-risk goal pauses at its approval gate; an approver sees why in
 * /approvals, approves with a comment, the run resumes to completion and the audit log shows the
 * decision. A viewer's approve call is refused by the server (a raw tRPC POST → 403), not merely
 * hidden by the page.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn, trpcMutation } from './fixtures/auth';
import { definitionOf } from './fixtures/locators';

// "roll back", "production" and "delete" are high-risk cues (server/runtime/planner/intent-lexicon.ts);
// the high_risk rule (planner/rules.ts) and the policy then put an approve node at the end of the plan.
const HIGH_RISK_GOAL = 'Roll back the production deployment of checkout-api and delete the failed replica set';

interface RunResponse {
  readonly runId: string;
  readonly status: string;
  readonly pendingApproval?: { readonly nodeId: string; readonly reason: string };
}

/** A run's card in the inbox: an article named by its goal and "run <id>". */
const cardOf = (page: Page, runId: string) => page.getByRole('article', { name: new RegExp(`run ${runId}$`) });
/** Body rows of the audit log. */
const auditRows = (page: Page) => page.getByRole('region', { name: 'Audit log entries' }).getByRole('row').filter({ has: page.getByRole('cell') });

async function runGoal(request: APIRequestContext, goal: string): Promise<RunResponse> {
  const response = await trpcMutation(request, 'runtime.run', { goal });
  expect(response.ok(), `runtime.run: ${response.status()} ${(await response.text()).slice(0, 500)}`).toBe(true);
  return ((await response.json()) as { result: { data: { json: RunResponse } } }).result.data.json;
}

test('an approver approves a gated run with a comment; it completes and the audit log records it', async ({ page }, testInfo) => {
  const browserErrors: string[] = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));

  await signIn(page, 'operator');
  const gated = await runGoal(page.request, HIGH_RISK_GOAL);
  expect(gated.status).toBe('awaiting_approval');
  expect(gated.pendingApproval?.reason).toMatch(/high-risk/);

  const approver = await signIn(page, 'approver');
  await page.goto('/approvals');
  const card = cardOf(page, gated.runId);
  await expect(card).toBeVisible();
  // Why it was gated (the gate's reason is the section's one paragraph), what approving does, and the plan around the gate.
  const why = card.getByRole('region', { name: 'Why approval is required' });
  await expect(why.getByRole('paragraph')).toContainText('high-risk');
  await expect(why).toContainText('intent.high_risk.approval');
  await expect(card.getByRole('region', { name: 'What approving does' })).toContainText('releases the answer');
  await expect(card.getByRole('list', { name: 'Plan steps around the gate' })).toContainText('waiting here');
  await expect(card.getByRole('link', { name: 'plan' })).toHaveAttribute('href', `/plans/${gated.runId}`);
  await testInfo.attach('approvals inbox', { body: await page.screenshot({ path: 'test-results/approvals-inbox.png', fullPage: true }), contentType: 'image/png' });

  const comment = `Rollback plan reviewed (${Date.now()})`;
  await card.getByLabel('Comment for the audit log').fill(comment);
  await card.getByRole('button', { name: 'Approve' }).click();

  // The outcome notice names the run by its goal and links to its trace.
  const outcome = page.getByRole('status').filter({ hasText: /^Approved “/ });
  await expect(outcome).toBeVisible({ timeout: 120_000 });
  await expect(outcome).toContainText(`Approved “${HIGH_RISK_GOAL}” — the run is now completed.`);
  await expect(outcome.getByRole('link', { name: 'Open its trace' })).toHaveAttribute('href', `/traces/${gated.runId}`);
  await expect(card).toHaveCount(0);

  // The comment is unique to this run; its row links to this run's trace.
  const auditRow = auditRows(page).filter({ hasText: comment });
  await expect(auditRow).toBeVisible();
  await expect(auditRow.getByRole('cell', { name: 'approved', exact: true })).toBeVisible();
  await expect(auditRow.getByRole('cell', { name: approver.email, exact: true })).toBeVisible();
  await expect(auditRow.getByRole('link', { name: HIGH_RISK_GOAL })).toHaveAttribute('href', `/traces/${gated.runId}`);
  await testInfo.attach('approvals after decision', { body: await page.screenshot({ path: 'test-results/approvals-decided.png', fullPage: true }), contentType: 'image/png' });

  // The run itself is completed on the server, and its trace shows the resumed segment.
  await page.goto(`/traces/${gated.runId}`);
  await expect(definitionOf(page.getByRole('main'), 'Status')).toHaveText('completed');
  expect(browserErrors).toEqual([]);
});

test("the server refuses a viewer's approve call; the viewer sees the audit log but no inbox", async ({ page }, testInfo) => {
  await signIn(page, 'operator');
  const gated = await runGoal(page.request, HIGH_RISK_GOAL);
  expect(gated.status).toBe('awaiting_approval');

  await signIn(page, 'viewer');
  for (const path of ['approvals.decide', 'runtime.approve']) {
    const refused = await trpcMutation(page.request, path, { runId: gated.runId, nodeId: 'approve', decision: 'approved', comment: 'not mine to give' });
    expect(refused.status(), path).toBe(403);
    expect(await refused.text()).toContain('requires the approver role');
  }
  const inbox = await page.request.get(`/api/trpc/approvals.inbox?input=${encodeURIComponent(JSON.stringify({ json: { limit: 5 } }))}`);
  expect(inbox.status()).toBe(403);

  await page.goto('/approvals');
  await expect(page.getByText(/^Deciding needs the approver role, and the drafts waiting behind gates are shown only to approvers\./)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Audit log entries' }).getByRole('table')).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(0);
  // No entry links to this run: the refused calls recorded nothing.
  await expect(auditRows(page).getByRole('link', { name: HIGH_RISK_GOAL }).and(page.locator(`[href="/traces/${gated.runId}"]`))).toHaveCount(0);
  await testInfo.attach('approvals as viewer', { body: await page.screenshot({ path: 'test-results/approvals-viewer.png', fullPage: true }), contentType: 'image/png' });

  // Still waiting: the refused calls decided nothing. An approver clears it so later runs start clean.
  await signIn(page, 'approver');
  const rejected = await trpcMutation(page.request, 'approvals.decide', { runId: gated.runId, nodeId: 'approve', decision: 'rejected', comment: 'cleanup after the viewer check' });
  expect(rejected.ok(), await rejected.text()).toBe(true);
  expect(((await rejected.json()) as { result: { data: { json: { status: string } } } }).result.data.json.status).toBe('rejected');
});

test("an operator's own waiting run is on their Approvals page, read-only; ?run= points at it", async ({ page }, testInfo) => {
  const browserErrors: string[] = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));
  await signIn(page, 'operator');
  const gated = await runGoal(page.request, HIGH_RISK_GOAL);
  expect(gated.status).toBe('awaiting_approval');

  await page.goto('/approvals');
  const card = cardOf(page, gated.runId);
  await expect(card).toBeVisible();
  await expect(card.getByRole('heading', { name: HIGH_RISK_GOAL })).toBeVisible();
  await expect(card.getByRole('status')).toContainText('Waiting for an approver');
  await expect(card).toContainText('high-risk');
  await expect(card.getByRole('link', { name: 'plan' })).toHaveAttribute('href', `/plans/${gated.runId}`);
  // Read-only, and the draft stays behind the gate: no decision controls, no draft to read.
  await expect(card.getByRole('button')).toHaveCount(0);
  await expect(card.getByLabel('Comment for the audit log')).toHaveCount(0);
  await expect(card.getByText(/Read the draft answer/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  // The console's "Awaiting approval" notice links to /approvals?run=<id>: that card is marked, in view and focused.
  await page.setViewportSize({ width: 1280, height: 600 });
  await runGoal(page.request, HIGH_RISK_GOAL).then((later) => expect(later.status).toBe('awaiting_approval'));
  await page.goto(`/approvals?run=${encodeURIComponent(gated.runId)}`);
  await expect(card).toHaveAttribute('aria-current', 'true');
  await expect(card).toBeInViewport();
  await expect(card).toBeFocused();
  await expect(page.getByRole('article').and(page.locator('[aria-current="true"]'))).toHaveCount(1);
  await testInfo.attach('approvals as operator', { body: await page.screenshot({ path: 'test-results/approvals-operator.png', fullPage: true }), contentType: 'image/png' });

  // A link to a run that is not waiting says so.
  await page.goto('/approvals?run=no-such-run');
  await expect(page.getByRole('status').filter({ hasText: 'no-such-run' })).toContainText('is not waiting for approval');

  // The approver sees the same run, with the decision, at the same link — and clears what this test left waiting.
  await signIn(page, 'approver');
  await page.goto(`/approvals?run=${encodeURIComponent(gated.runId)}`);
  const approverCard = cardOf(page, gated.runId);
  await expect(approverCard).toHaveAttribute('aria-current', 'true');
  await expect(approverCard).toBeInViewport();
  await expect(approverCard.getByRole('button', { name: 'Approve' })).toBeEnabled();
  const waiting = await page.request.get(`/api/trpc/approvals.inbox?input=${encodeURIComponent(JSON.stringify({ json: { limit: 200 } }))}`);
  const pending = ((await waiting.json()) as { result: { data: { json: { run: { runId: string } }[] } } }).result.data.json;
  for (const { run } of pending) {
    const rejected = await trpcMutation(page.request, 'approvals.decide', { runId: run.runId, nodeId: 'approve', decision: 'rejected', comment: 'cleanup after the operator view check' });
    expect(rejected.ok(), await rejected.text()).toBe(true);
  }
  expect(browserErrors).toEqual([]);
});

test("an approver's own gated run offers no Approve: another approver must decide, and they may withdraw it", async ({ page }) => {
  await signIn(page, 'approver');
  const own = await runGoal(page.request, HIGH_RISK_GOAL);
  expect(own.status).toBe('awaiting_approval');
  await page.goto(`/approvals?run=${encodeURIComponent(own.runId)}`);
  const card = cardOf(page, own.runId);
  await expect(card).toContainText('You started this run — another approver must decide.');
  await expect(card.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  // Rejecting one's own run stays allowed: it withdraws the request.
  await card.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Rejected' }).first()).toContainText('the run is now');
  await expect(card).toHaveCount(0);
});
