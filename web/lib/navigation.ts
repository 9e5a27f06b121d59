// Menu items (docs/domain.md §8), each with an id, a title and a url.
export type MenuItem = { id: string; title: string; url: string };

export const PUBLIC_NAV: MenuItem[] = [
  { id: 'inicio', title: 'Inicio', url: '/' },
  { id: 'sobre-nosotros', title: 'Sobre nosotros', url: '/nosotros/1' },
  { id: 'servicios', title: 'Servicios', url: '/nosotros/2' },
  { id: 'contacto', title: 'Contacto', url: '/contacto' },
];

export const USER_MENU: MenuItem[] = [
  { id: 'perfil', title: 'Perfil', url: '/profile' },
  { id: 'anadir-creditos', title: 'Añadir créditos', url: '/addfunds' },
  { id: 'historial', title: 'Historial', url: '/orderhistory' },
  { id: 'cerrar-sesion', title: 'Cerrar sesión', url: '/logout' },
];

export const ADMIN_ITEM: MenuItem = {
  id: 'administracion',
  title: 'Administración',
  url: '/admin/pagos',
};

export const SECONDARY_NAV: MenuItem[] = [
  { id: 'inicio', title: 'Inicio', url: '/dashboard' },
  { id: 'nueva-orden', title: 'Nueva orden', url: '/placeorder' },
  { id: 'anadir-creditos', title: 'Añadir créditos', url: '/addfunds' },
  { id: 'historial-ordenes', title: 'Historial de órdenes', url: '/orderhistory' },
  { id: 'mi-perfil', title: 'Mi perfil', url: '/profile' },
];
