import { expect, test } from '@playwright/test';
import { E2E_USERS, signIn, signInRequest, trpcMutation } from './fixtures/auth';

test('a signed-out visit goes to the sign-in page, which signs in by keyboard and shows the user and role', async ({ page }, testInfo) => {
  await page.goto('/traces');
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Ftraces$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await testInfo.attach('sign-in page', { body: await page.screenshot({ path: 'test-results/auth-signin.png', fullPage: true }), contentType: 'image/png' });

  // Keyboard only: the email field has focus, Tab moves to the password, Enter submits.
  const operator = E2E_USERS.operator;
  await signIn(page, 'operator'); // makes sure the account exists
  await page.context().clearCookies();
  await page.goto('/signin?callbackUrl=%2Ftraces');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(operator.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(operator.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/traces$/);
  // The header names who is signed in, with their role as a badge.
  const user = page.getByRole('group', { name: 'Signed-in user' });
  await expect(user).toContainText(operator.name);
  await expect(user.getByText('operator', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin/);
});

test('a wrong password is refused with a visible error and no session', async ({ page }) => {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(E2E_USERS.admin.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('main').getByRole('alert')).toHaveText('Wrong email or password, or the account is disabled.');
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/signin/);
  const session = await page.request.get('/api/auth/session');
  expect(await session.json()).toEqual({});
});

test('the server refuses run and approve to a viewer, and everything to a signed-out caller', async ({ page, playwright }) => {
  await signIn(page, 'viewer');
  // Reads are allowed…
  const sources = await page.request.get('/api/trpc/runtime.sources');
  expect(sources.status()).toBe(200);
  // …actions are not, whatever the page shows: these are raw POSTs with the viewer's cookies.
  const run = await trpcMutation(page.request, 'runtime.run', { goal: 'Explain why deployment checkout-api failed' });
  expect(run.status()).toBe(403);
  expect(await run.text()).toContain('requires the operator role');
  const approve = await trpcMutation(page.request, 'runtime.approve', { runId: 'any', nodeId: 'gate', decision: 'approved' });
  expect(approve.status()).toBe(403);
  const users = await page.request.get('/api/trpc/users.list');
  expect(users.status()).toBe(403);

  const anonymous = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    expect((await trpcMutation(anonymous, 'runtime.run', { goal: 'x' })).status()).toBe(401);
    expect((await anonymous.get('/api/trpc/runtime.sources')).status()).toBe(401);
    // A made-up bearer token is not the CLI's service token.
    const forged = await anonymous.get('/api/trpc/runtime.sources', { headers: { authorization: 'Bearer forged' } });
    expect(forged.status()).toBe(401);
  } finally {
    await anonymous.dispose();
  }
});

test('the admin manages users on /admin/users; others cannot', async ({ page, browser }, testInfo) => {
  await signIn(page, 'viewer');
  await page.goto('/admin/users');
  await expect(page.locator('main').getByRole('alert')).toHaveText('Managing users needs the admin role.');

  await signIn(page, 'admin');
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: E2E_USERS.admin.email })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Signed-in user' }).getByText('admin', { exact: true })).toBeVisible();

  // Create a user through the form, then demote and disable: takes effect without their re-login.
  const email = `temp-${Date.now()}@e2e.local`;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password (12+ characters)').fill('temporary-password');
  await page.getByLabel('Role', { exact: true }).selectOption('operator');
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('status')).toHaveText(`Created ${email}.`);
  await expect(page.getByRole('rowheader', { name: email })).toBeVisible();
  await testInfo.attach('admin users page', { body: await page.screenshot({ path: 'test-results/auth-admin-users.png', fullPage: true }), contentType: 'image/png' });

  const temp = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    await signInRequest(temp.request, { email, password: 'temporary-password', name: '', role: 'operator' });
    expect((await trpcMutation(temp.request, 'runtime.simulate', { goal: 'x' })).status()).not.toBe(403);
    await page.getByLabel(`Role of ${email}`).selectOption('viewer');
    await expect(page.getByLabel(`Role of ${email}`)).toHaveValue('viewer');
    expect((await trpcMutation(temp.request, 'runtime.simulate', { goal: 'x' })).status()).toBe(403);
    await page.getByRole('button', { name: `Disable ${email}` }).click();
    await expect(page.getByRole('button', { name: `Enable ${email}` })).toBeVisible();
    expect((await temp.request.get('/api/trpc/runtime.sources')).status()).toBe(401);
  } finally {
    await temp.close();
  }
});

test('repeated wrong passwords lock the account out before the password is even checked', async ({ page }) => {
  // Its own address: the lockout (limits.sign_in, 5 failures) must not touch the accounts other specs use.
  const email = `locked-${Date.now()}@e2e.local`;
  await page.goto('/signin');
  const alert = page.locator('main').getByRole('alert');
  // Each attempt waits for its own answer from the server, so none is lost to a form still busy with the last.
  const attempt = async (password: string) => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await Promise.all([page.waitForResponse((response) => response.url().includes('/api/auth/callback/credentials')), page.getByRole('button', { name: 'Sign in' }).click()]);
  };
  for (let count = 1; count <= 5; count++) {
    await attempt(`guess number ${count}`);
    await expect(alert).toHaveText('Wrong email or password, or the account is disabled.');
  }
  await attempt('guess number 6');
  await expect(alert).toHaveText(/^Too many sign-in attempts: try again in \d+ seconds\.$/);
  const session = await page.request.get('/api/auth/session');
  expect(await session.json()).toEqual({});
});
