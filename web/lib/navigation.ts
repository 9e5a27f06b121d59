// Menu items (docs/domain.md §8), each with an id, a title and a url. The signed-in menus are in
// ./account-navigation (they load with the signed-in header, not on the public pages).
export type MenuItem = { id: string; title: string; url: string };

export const PUBLIC_NAV: MenuItem[] = [
  { id: 'inicio', title: 'Inicio', url: '/' },
  { id: 'sobre-nosotros', title: 'Sobre nosotros', url: '/nosotros/1' },
  { id: 'servicios', title: 'Servicios', url: '/nosotros/2' },
  { id: 'contacto', title: 'Contacto', url: '/contacto' },
];
