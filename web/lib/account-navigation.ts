import type { MenuItem } from './navigation';

// The signed-in menus (docs/domain.md §8): the user menu and the secondary bar.
export const USER_MENU: MenuItem[] = [
  { id: 'perfil', title: 'Perfil', url: '/profile' },
  { id: 'anadir-creditos', title: 'Añadir créditos', url: '/addfunds' },
  { id: 'historial', title: 'Historial', url: '/orderhistory' },
  { id: 'soporte', title: 'Soporte', url: '/soporte' },
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
  { id: 'soporte', title: 'Soporte', url: '/soporte' },
  { id: 'mi-perfil', title: 'Mi perfil', url: '/profile' },
];
