import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

// Keep in step with shared/routes.ts (the server answers 404 for paths not listed there);
// web/routes.test.ts checks both lists agree.
export default [
  index('routes/public/home.tsx'),
  // /nosotros/:id: a route per section, so each page loads only its own text.
  route('nosotros/1', 'routes/public/nosotros/sobre-nosotros.tsx'),
  route('nosotros/2', 'routes/public/nosotros/servicios.tsx'),
  route('nosotros/3', 'routes/public/nosotros/como-trabajamos.tsx'),
  route('nosotros/4', 'routes/public/nosotros/preguntas-frecuentes.tsx'),
  route('nosotros/:id', 'routes/public/nosotros/no-existe.tsx'),
  route('contacto', 'routes/public/contacto.tsx'),
  route('terminosycondiciones', 'routes/public/terminos.tsx'),
  route('login', 'routes/auth/login.tsx'),
  route('login/dos-pasos', 'routes/auth/login-dos-pasos.tsx'),
  route('logout', 'routes/auth/logout.tsx'),
  route('register', 'routes/auth/register.tsx'),
  route('recuperar', 'routes/auth/recuperar.tsx'),
  route('restablecer', 'routes/auth/restablecer.tsx'),
  route('verify-email', 'routes/auth/verify-email.tsx'),
  layout('routes/app/layout.tsx', [
    route('dashboard', 'routes/app/dashboard.tsx'),
    route('profile', 'routes/app/profile.tsx'),
    route('preview', 'routes/app/preview.tsx'),
    route('placeorder', 'routes/app/placeorder.tsx'),
    route('placeorder/IMEI/:id', 'routes/app/placeorder-service.tsx'),
    route('placeorder/:category', 'routes/app/placeorder-category.tsx'),
    route('orderhistory', 'routes/app/orderhistory.tsx'),
    route('addfunds', 'routes/app/addfunds.tsx'),
    route('activar-dos-pasos', 'routes/app/activar-dos-pasos.tsx'),
    layout('routes/admin/layout.tsx', [
      route('admin', 'routes/admin/inicio.tsx'),
      route('admin/pagos', 'routes/admin/pagos.tsx'),
      route('admin/ordenes', 'routes/admin/ordenes.tsx'),
      route('admin/respuestas', 'routes/admin/respuestas.tsx'),
      route('admin/servicios', 'routes/admin/servicios.tsx'),
      route('admin/proveedores', 'routes/admin/proveedores.tsx'),
      route('admin/clientes', 'routes/admin/clientes.tsx'),
      route('admin/clientes/:id', 'routes/admin/cliente.tsx'),
      route('admin/deudas', 'routes/admin/deudas.tsx'),
    ]),
  ]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
