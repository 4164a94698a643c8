import path from 'node:path';
import { expect, test } from '@playwright/test';
import { type LoopbackOidcProvider, startLoopbackOidcProvider } from '../server/testing/loopback-oidc-provider';
import { FRESH_BASE_URL, type FreshServer, startFreshServer } from './fixtures/fresh-server';

/**
 * Issue 12, finding 4 in the browser: a first single sign-on gets no role. That account is signed
 * in, so pages must not treat it as signed out (offering a sign-in it just did): every page says it
 * waits for an admin to assign a role, and shows no data. A server of its own (port E2E_PORT + 1)
 * with OIDC pointed at a loopback provider; the browser's authorize step is answered by the test.
 */
const ADMIN = { email: 'admin@oidc-e2e.local', password: 'e2e-oidc-admin-password' };
const NEWCOMER = { sub: 'newcomer-1', email: 'nina@newcomer.example', email_verified: true, name: 'Nina Newcomer' };

let provider: LoopbackOidcProvider;
let server: FreshServer;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  provider = await startLoopbackOidcProvider();
  server = startFreshServer({
    CONTEXT_RUNTIME_OIDC_ISSUER: provider.issuer,
    CONTEXT_RUNTIME_OIDC_CLIENT_ID: provider.clientId,
    CONTEXT_RUNTIME_OIDC_CLIENT_SECRET: provider.clientSecret,
    CONTEXT_RUNTIME_OIDC_NAME: 'Loopback SSO',
    CONTEXT_RUNTIME_ADMIN_EMAIL: ADMIN.email,
    CONTEXT_RUNTIME_ADMIN_PASSWORD: ADMIN.password,
    // The word vectors the shared e2e server already cached: this spec is not about a first download.
    CONTEXT_RUNTIME_EMBEDDINGS_CACHE: path.join(process.cwd(), '.data', 'embeddings', 'sg-100d.bin'),
  });
  await server.waitForLine(/Ready in/, 300_000);
});

test.afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

test('a first OIDC sign-in with no role sees that it waits for an admin, and no data, on every page', async ({ page, browser }) => {
  test.setTimeout(300_000);
  // The provider's login page: the user "signs in" and the provider sends the browser back with a code.
  await page.route(`${provider.issuer}/authorize**`, (route) => {
    const authorize = new URL(route.request().url());
    const back = new URL(authorize.searchParams.get('redirect_uri')!);
    back.searchParams.set('code', provider.issueCode(NEWCOMER));
    const state = authorize.searchParams.get('state');
    if (state) back.searchParams.set('state', state);
    return route.fulfill({ status: 302, headers: { location: back.toString() } });
  });
  await page.goto(`${FRESH_BASE_URL}/signin`);
  await page.getByRole('button', { name: 'Sign in with Loopback SSO' }).click();
  await expect(page).toHaveURL(`${FRESH_BASE_URL}/`);

  for (const pathname of ['/', '/traces', '/approvals', '/knowledge', '/plans', '/calibration']) {
    await page.goto(`${FRESH_BASE_URL}${pathname}`);
    await expect(page.getByRole('heading', { level: 1 }), pathname).toHaveText('Your account is waiting for a role');
    await expect(page.getByRole('main')).toContainText(NEWCOMER.email);
    await expect(page.getByRole('main')).toContainText('an administrator has not assigned your account a role yet');
    // Signed in, so no sign-in offer; and nothing of the page behind it.
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('form')).toHaveCount(0);
  }
  await expect(page.getByTestId('current-role')).toHaveText('no role yet');
  // The API agrees: no role, no data.
  expect((await page.request.get(`${FRESH_BASE_URL}/api/trpc/traces.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`)).status()).toBe(401);

  // An admin assigns a role; the next load shows the page itself.
  const admin = await browser.newContext({ baseURL: FRESH_BASE_URL });
  const csrf = (await (await admin.request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  expect((await admin.request.post('/api/auth/callback/credentials', { form: { ...ADMIN, csrfToken: csrf.csrfToken, json: 'true', callbackUrl: '/' } })).ok()).toBe(true);
  const assigned = await admin.request.post('/api/trpc/users.setRoles', { data: { json: { email: NEWCOMER.email, roles: ['viewer'] } }, headers: { 'content-type': 'application/json' } });
  expect(assigned.ok(), await assigned.text()).toBe(true);
  await admin.close();
  await page.goto(`${FRESH_BASE_URL}/traces`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Traces');
  await expect(page.getByTestId('current-role')).toHaveText('viewer');
});
