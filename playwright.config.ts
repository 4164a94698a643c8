import { defineConfig } from '@playwright/test';

const PORT = 3100;

/**
 * Browser tests drive Debian's Chromium against `next start` (build first: `npx next build`).
 * The e2e server gets its own data directory so it never contends for the dev server's PGlite lock.
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
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: 'npm run serve',
    url: `http://127.0.0.1:${PORT}/`,
    env: { PORT: String(PORT), CONTEXT_RUNTIME_DATA_DIR: '.data/e2e-pglite' },
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
