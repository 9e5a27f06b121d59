import { defineConfig, devices } from '@playwright/test';

// Both ports can be moved so that two checkouts can run their browser tests side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_STRIPE_PORT = Number(process.env.E2E_STRIPE_PORT ?? 3199);
// The local OpenID Connect provider of the federated sign-in journeys (tests/e2e/server.ts).
export const E2E_OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 3198);
export const E2E_OIDC_NAME = 'Proveedor de pruebas';
export const E2E_STRIPE_WEBHOOK_SECRET = 'whsec_e2e_test_secret';
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? 'test-results/e2e-data';

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
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // Generous: a slow or busy CI machine must not turn a slow test into a failed one.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: 'retain-on-failure',
    locale: 'es-ES',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // The built app on a fresh embedded database; the outbox is read by the tests.
    command: `rm -rf ${E2E_DATA_DIR} && node --import tsx tests/e2e/server.ts`,
    url: `http://localhost:${E2E_PORT}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      APP_URL: `http://localhost:${E2E_PORT}`,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD: 'Admin-Cometa-2026!',
      CONTACT_EMAIL: 'operador@example.com',
      RATE_LIMIT_MAX_PER_IP: '500',
      RATE_LIMIT_MAX_PER_ACCOUNT: '50',
      SESSION_TTL_SECONDS: process.env.E2E_SESSION_TTL ?? '604800',
      STRIPE_SECRET_KEY: 'sk_test_e2e',
      STRIPE_WEBHOOK_SECRET: E2E_STRIPE_WEBHOOK_SECRET,
      E2E_STRIPE_PORT: String(E2E_STRIPE_PORT),
      E2E_OIDC_PORT: String(E2E_OIDC_PORT),
      OIDC_NAME: E2E_OIDC_NAME,
      // The supplier journeys run a fake supplier on loopback (tests/e2e/suppliers.spec.ts):
      // allowed here only, polled every second, with short time-outs.
      ALLOW_PRIVATE_NETWORK: 'true',
      SUPPLIER_POLL_SECONDS: '1',
      SUPPLIER_TIMEOUT_SECONDS: '3',
      SUPPLIER_CONNECT_TIMEOUT_SECONDS: '2',
      // The webhook journeys (tests/e2e/reseller.spec.ts) receive on loopback too: a failed
      // delivery is tried again after 1 s instead of 30 s.
      WEBHOOK_RETRY_BASE_SECONDS: '1',
    },
  },
});
