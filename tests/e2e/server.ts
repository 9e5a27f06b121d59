// The browser tests' server: the real app, with card payments pointed at a local fake of
// Stripe's Checkout endpoint (the only Stripe call the app makes).
import { startFakeStripe } from '../../server/features/payments/stripe/fake-stripe';

const fake = await startFakeStripe(Number(process.env.E2E_STRIPE_PORT ?? 3199));
process.env.STRIPE_API_BASE = fake.baseUrl;
await import('../../server/index');
