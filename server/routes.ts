// Every API route, in the order Hono matches them (a static path before a `:id` path). The list
// is the single source of the router, the validation, the authorization checks and the OpenAPI
// document; tests walk it too. Better Auth's /api/auth/* is its own handler (server/lib/auth-http.ts).
import { contactRoutes } from './features/contact/contact.routes';
import { meRoutes } from './features/me/me.routes';
import { ordersAdminRoutes, ordersRoutes } from './features/orders/orders.routes';
import { walletRoutes } from './features/wallet/wallet.routes';
import type { RouteDef } from './lib/route';
import { openapiRoutes } from './openapi/openapi.routes';

export const API_ROUTES: readonly RouteDef[] = [
  ...openapiRoutes,
  ...meRoutes,
  ...contactRoutes,
  ...walletRoutes,
  ...ordersRoutes,
  ...ordersAdminRoutes,
];
