import { defineConfig, devices } from '@playwright/test';

// Every worker starts its own app server (tests/e2e/fixtures.ts): worker n on E2E_PORT + n
// (3100 by default; a free port when that one is taken), with its own data directory under
// E2E_DATA_DIR (test-results/e2e-data by default).
// E2E_WORKERS sets how many run at once (2 by default, one per core of the CI machine).
const WORKERS = Number(process.env.E2E_WORKERS) || 2;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'tests/e2e',
  // Every test may run in any worker (each worker has its own server, and each test its own
  // customers): the journeys that build on each other say so (suppliers.spec.ts, serial).
  fullyParallel: true,
  workers: WORKERS,
  retries: process.env.CI ? 1 : 0,
  // Generous: a slow or busy CI machine must not turn a slow test into a failed one.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    // A click or fill that cannot happen fails within 20 s instead of holding the test (and its
    // worker) until the 2-minute timeout: a hang costs its retry, not four minutes of the run.
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
    // baseURL is the worker's own server (tests/e2e/fixtures.ts).
    // Recording a trace costs about a third of the run's time (a snapshot of the page at every
    // step): in CI, a test that fails is traced when it runs again (retries: 1).
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    locale: 'es-ES',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
});
