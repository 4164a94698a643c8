import { expect, test } from '@playwright/test';
import { E2E_BASE_URL, signIn, trpcMutation } from './fixtures/auth';

/**
 * Issue 12 in the browser: no page can be framed by another site, sign-in never redirects off
 * site, another site cannot start a run with the operator's cookie, and operators add evidence by
 * uploading files rather than naming a path on the server.
 */

test('pages carry a CSP that forbids framing, and another site cannot frame the approvals page', async ({ page }) => {
  await signIn(page, 'approver');
  const response = await page.goto('/approvals');
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  expect(response?.headers()['x-frame-options']).toBe('DENY');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // Scripts run by nonce only: no inline script an attacker could inject, and a fresh nonce per response.
  const scripts = policy.split(';').map((directive) => directive.trim()).find((directive) => directive.startsWith('script-src')) ?? '';
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(scripts)?.[1];
  expect(nonce, scripts).toBeTruthy();
  expect(scripts).toContain("'strict-dynamic'");
  expect(scripts).not.toContain('unsafe-inline');
  const again = (await page.request.get('/approvals')).headers()['content-security-policy'] ?? '';
  expect(again).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
  expect(again).not.toContain(`'nonce-${nonce}'`);
  // Next.js puts the nonce on its own scripts, so the page still works: it hydrated and its links navigate client-side.
  expect(await page.locator(`script[nonce]`).count()).toBeGreaterThan(0);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Traces' }).click();
  await expect(page).toHaveURL(/\/traces$/);
  // The public sign-in page has the same policy.
  const signInPolicy = (await page.request.get('/signin')).headers()['content-security-policy'] ?? '';
  expect(signInPolicy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);

  // Markup injected into the page (what an XSS does) runs no script: its inline handler is refused.
  await page.goto('/approvals');
  const violations = await page.evaluate(() => new Promise<string[]>((resolve) => {
    const seen: string[] = [];
    document.addEventListener('securitypolicyviolation', (event) => seen.push(event.effectiveDirective));
    const injected = document.createElement('div');
    injected.innerHTML = '<img alt="" src="data:," onerror="window.__injected = true">';
    document.body.append(injected);
    setTimeout(() => resolve(seen), 1_500);
  }));
  expect(violations.some((directive) => directive.startsWith('script-src')), violations.join()).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
});

test('sign-in never redirects to another site, however the callback is encoded', async ({ page }) => {
  await signIn(page, 'viewer');
  const offSite: string[] = [];
  await page.route((url) => url.hostname.endsWith('evil.example'), (route) => {
    offSite.push(route.request().url());
    return route.abort();
  });
  // As an attacker writes them into a link: the page reads "/<tab>/evil.example", which a browser follows as "//evil.example".
  for (const query of ['/%09/evil.example', '/%0A/evil.example', '/%2509/evil.example', '/%5Cevil.example', 'https://evil.example/']) {
    await page.goto(`/signin?callbackUrl=${query}`);
    await expect(page, query).toHaveURL(`${E2E_BASE_URL}/`);
  }
  expect(offSite).toEqual([]);
});

test('a run cannot be started by another site with the operator’s session', async ({ page }) => {
  await signIn(page, 'operator');
  const crossSite = await page.request.post('/api/trpc/console.start', {
    data: { json: { goal: 'Explain why deployment checkout-api failed' } },
    headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
  });
  expect(crossSite.status()).toBe(403);
  // And never by a GET (a link or an <img> another site embeds).
  const input = encodeURIComponent(JSON.stringify({ json: { goal: 'Explain why deployment checkout-api failed' } }));
  expect((await page.request.get(`/api/trpc/console.start?input=${input}`)).status()).toBe(405);
  // An operator may not make the server read its own files.
  expect((await trpcMutation(page.request, 'runtime.ingest', { path: '/etc', source: 'etc' })).status()).toBe(403);
});

test('an operator uploads files on the Knowledge page into a new source, but not over an existing one', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/knowledge');
  const upload = page.getByRole('form', { name: 'Upload files' });
  const source = `e2e-upload-${Date.now()}`;
  await upload.getByLabel('Files', { exact: true }).setInputFiles([
    { name: 'rollback.md', mimeType: 'text/markdown', buffer: Buffer.from('# Rollback\n\nRoll back checkout-api with kubectl rollout undo.\n') },
    { name: 'tool.md', mimeType: 'text/markdown', buffer: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0]) },
  ]);
  await upload.getByLabel('Source name').fill(source);
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload.getByRole('status')).toContainText(`${source}: 1 file(s)`);
  await expect(upload.getByRole('list', { name: 'Files left out' })).toContainText('tool.md: binary content');
  await expect(page.getByRole('button', { name: source })).toBeVisible();

  await upload.getByLabel('Files', { exact: true }).setInputFiles([{ name: 'rollback.md', mimeType: 'text/markdown', buffer: Buffer.from('# Rollback\n\nChanged.\n') }]);
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload.getByRole('alert')).toContainText('requires the admin role');
});
