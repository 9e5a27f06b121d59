// The browser tests' server: the real app, with card payments pointed at a local fake of
// Stripe's Checkout endpoint (the only Stripe call the app makes), and a local OpenID Connect
// provider for federated sign-in (tests/e2e/oidc.spec.ts). Both start before the app, which reads
// the provider's discovery document when it boots.
import { startFakeStripe } from '../../server/features/payments/stripe/fake-stripe';
import { startOidcProvider } from '../setup/oidc-provider';

const fake = await startFakeStripe(Number(process.env.E2E_STRIPE_PORT ?? 3199));
process.env.STRIPE_API_BASE = fake.baseUrl;

const appUrl = process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
const clientId = 'cometa-e2e';
const clientSecret = 'oidc-e2e-client-secret-0123456789';
const oidc = await startOidcProvider({
  port: Number(process.env.E2E_OIDC_PORT ?? 3198),
  clients: [{ clientId, clientSecret, redirectUris: [`${appUrl}/api/auth/callback/oidc`] }],
});
process.env.OIDC_ISSUER = oidc.issuer;
process.env.OIDC_CLIENT_ID = clientId;
process.env.OIDC_CLIENT_SECRET = clientSecret;
process.env.OIDC_NAME ??= 'Proveedor de pruebas';

await import('../../server/index');
