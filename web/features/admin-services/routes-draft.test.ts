import { describe, expect, it } from 'vitest';
import {
  markupPreview,
  newRoute,
  placeRouteErrors,
  routeErrorKey,
  routesErrors,
  routesInput,
  routesCells,
  routesSummary,
  toRoutesDraft,
  type RoutesDraft,
} from './routes-draft';
import type { AdminService } from './types';

const NORTE = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Norte',
  state: 'activo' as const,
};
const SUR = { id: '22222222-2222-4222-8222-222222222222', name: 'Sur', state: 'fallando' as const };

const SERVICE: AdminService = {
  id: 's1',
  number: 3,
  category: 'IMEI',
  name: 'Consulta de operador',
  description: 'Operador y bloqueo.',
  deliveryTime: '1 hora',
  price: '0.96',
  unit: 'order',
  smmType: null,
  dripfeed: false,
  refillDays: null,
  cancelable: false,
  stock: null,
  delivery: 'supplier',
  lowStockThreshold: 5,
  allowRecheck: false,
  active: true,
  sortOrder: 10,
  markupPercent: 20,
  needsTranslation: false,
  fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true }],
  routes: [
    {
      position: 0,
      supplierId: NORTE.id,
      supplierName: 'Norte',
      supplierState: 'activo',
      remoteId: '1382',
      remoteName: 'iPhone carrier + FMI check',
      cost: '0.80',
      currency: 'USD',
      missing: false,
    },
  ],
};

describe('routes draft', () => {
  it('starts from the saved routes and sends them in order with the margin', () => {
    const draft = toRoutesDraft(SERVICE);
    expect(draft.mode).toBe('markup');
    expect(draft.markup).toBe('20');
    const next: RoutesDraft = { ...draft, routes: [...draft.routes, newRoute(SUR, ' 77 ')] };
    expect(routesErrors(next)).toEqual({});
    expect(routesInput(next)).toEqual({
      routes: [
        { supplierId: NORTE.id, remoteId: '1382' },
        { supplierId: SUR.id, remoteId: '77' },
      ],
      markupPercent: 20,
    });
    expect(routesInput({ ...next, mode: 'fixed' }).markupPercent).toBeNull();
    expect(routesInput({ ...next, routes: [], mode: 'fixed' })).toEqual({
      routes: [],
      markupPercent: null,
    });
  });

  it('previews the price from the primary’s cost, rounded up to the cent', () => {
    const draft = toRoutesDraft(SERVICE);
    expect(markupPreview(draft)).toBe('US$0.96');
    expect(markupPreview({ ...draft, markup: '12,5' })).toBe('US$0.90');
    expect(markupPreview({ ...draft, mode: 'fixed' })).toBeNull();
    expect(markupPreview({ ...draft, markup: 'x' })).toBeNull();
    // A route typed by hand has no known cost yet.
    expect(markupPreview({ ...draft, routes: [newRoute(SUR, '9')] })).toBeNull();
  });

  it('finds problems before sending, next to the route they are about', () => {
    const a = newRoute(NORTE, '1382');
    const b = newRoute(NORTE, '1382');
    const c = newRoute(SUR, '  ');
    const errors = routesErrors({ routes: [a, b, c], mode: 'markup', markup: '-1' });
    expect(errors).toEqual({
      [routeErrorKey(b.uid)]: 'Esta ruta está repetida.',
      [routeErrorKey(c.uid)]: 'Escribe el servicio del proveedor.',
      markupPercent: 'El margen no puede ser negativo.',
    });
    expect(routesErrors({ routes: [], mode: 'markup', markup: '20' })).toEqual({
      markupPercent: 'Sin proveedor no hay costo al que aplicar el margen.',
    });
  });

  it('puts the server’s routes.N errors on the route that was N-th when sent', () => {
    expect(
      placeRouteErrors(
        {
          'routes.1': 'Sur no ofrece el servicio 77.',
          'routes.0.remoteId': 'Demasiado largo.',
          markupPercent: 'Con ese margen el precio pasaría de US$100,000.00.',
        },
        ['r-a', 'r-b'],
      ),
    ).toEqual({
      [routeErrorKey('r-b')]: 'Sur no ofrece el servicio 77.',
      [routeErrorKey('r-a')]: 'Demasiado largo.',
      markupPercent: 'Con ese margen el precio pasaría de US$100,000.00.',
    });
    expect(placeRouteErrors({ routes: 'Como máximo 5.' }, [])).toEqual({
      routes: 'Como máximo 5.',
    });
  });

  it('sums up where a service is bought', () => {
    expect(routesSummary(SERVICE)).toBe('Proveedor: Norte (#1382) · margen del 20 %');
    expect(routesSummary({ routes: [], markupPercent: null })).toBe(
      'Se atiende a mano (sin proveedor)',
    );
    const two = { ...SERVICE, markupPercent: null, routes: [...SERVICE.routes, ...SERVICE.routes] };
    expect(routesSummary(two)).toBe('Proveedor: Norte (#1382) + 1 alternativo · precio fijo');
  });

  it('splits the same into the short cells of the catalogue table', () => {
    expect(routesCells(SERVICE)).toEqual({
      supplier: 'Norte #1382',
      cost: 'US$0.80',
      margin: '20 %',
    });
    expect(routesCells({ routes: [], markupPercent: null })).toEqual({
      supplier: 'A mano',
      cost: null,
      margin: null,
    });
    const two = { ...SERVICE, markupPercent: 12.5, routes: [...SERVICE.routes, ...SERVICE.routes] };
    expect(routesCells(two)).toEqual({
      supplier: 'Norte #1382 +1',
      cost: 'US$0.80',
      margin: '12,5 %',
    });
  });
});
