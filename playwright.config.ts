import { defineConfig } from '@playwright/test';
import { E2E_BASE_URL, E2E_PORT, E2E_USERS } from './e2e/fixtures/e2e-users';

/**
 * Browser tests drive Debian's Chromium against `next start` (build first: `npx next build`).
 * The e2e server gets its own data directory so it never contends for the dev server's PGlite lock.
 * Specs sign in with e2e/fixtures/auth.ts (`signIn(page, role)`). e2e/first-run.spec.ts starts a
 * second `next start` of its own (port E2E_PORT + 1) on an empty data directory with no word-vector
 * cache, as a fresh clone starts: this server's data directory has them from earlier runs.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 180_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: 'npm run serve',
    url: `${E2E_BASE_URL}/api/auth/csrf`,
    env: {
      PORT: String(E2E_PORT),
      CONTEXT_RUNTIME_DATA_DIR: '.data/e2e-pglite',
      // The first start creates this admin (an empty users table); later starts keep the existing one.
      CONTEXT_RUNTIME_ADMIN_EMAIL: E2E_USERS.admin.email,
      CONTEXT_RUNTIME_ADMIN_PASSWORD: E2E_USERS.admin.password,
    },
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
