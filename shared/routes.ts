import { CATEGORIES } from './categories';

// The app's path patterns, shared by the web route config and the server (which answers
// 404 for anything else). A unit test keeps this list and web/routes.ts in step.
export const PUBLIC_PATHS = [
  '/',
  '/nosotros/:id',
  '/contacto',
  '/login',
  '/login/dos-pasos',
  '/logout',
  '/register',
  '/terminosycondiciones',
  '/recuperar',
  '/restablecer',
  '/invitacion',
] as const;

export const PROTECTED_PATHS = [
  '/dashboard',
  '/profile',
  '/placeorder',
  ...CATEGORIES.map((c) => `/placeorder/${c.slug}` as const),
  '/placeorder/IMEI/:id',
  '/orderhistory',
  '/addfunds',
  '/soporte',
  '/soporte/nuevo',
  '/soporte/:id',
  '/admin',
  '/admin/pagos',
  '/admin/recibos',
  '/admin/ordenes',
  '/admin/respuestas',
  '/admin/servicios',
  '/admin/proveedores',
  '/admin/clientes',
  '/admin/clientes/:id',
  '/admin/grupos',
  '/admin/personal',
  '/admin/auditoria',
  '/admin/deudas',
  '/admin/informes',
  '/admin/anuncios',
  '/admin/soporte',
  '/admin/soporte/:id',
  '/activar-dos-pasos',
  '/preview',
] as const;

export const VERIFY_EMAIL_PATH = '/verify-email';

/** Paths prerendered to static HTML at build time. */
export const PRERENDERED_PATHS = [
  '/',
  '/nosotros/1',
  '/nosotros/2',
  '/contacto',
  '/terminosycondiciones',
  '/login',
  '/register',
] as const;

export const ALL_PATTERNS: readonly string[] = [
  ...PUBLIC_PATHS,
  ...PROTECTED_PATHS,
  VERIFY_EMAIL_PATH,
];

function toRegExp(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source === '' ? '/' : source}/?$`);
}

// Built on first use: the browser imports this module for PROTECTED_PATHS and never matches.
let matchers: RegExp[] | undefined;

/** True when a path is one of the app's routes (so the server answers 200, not 404). */
export function isKnownPath(pathname: string): boolean {
  matchers ??= ALL_PATTERNS.map(toRegExp);
  return matchers.some((re) => re.test(pathname));
}
