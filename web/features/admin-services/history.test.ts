import { describe, expect, it } from 'vitest';
import { describeEntry } from './history';
import type { ServiceHistoryEntry } from './types';

function entry(action: string, changes: ServiceHistoryEntry['changes']): ServiceHistoryEntry {
  return {
    id: 'a1',
    action,
    actor: { name: 'Ana', email: 'ana@example.com' },
    createdAt: '2026-01-02T10:00:00.000Z',
    changes,
  };
}

describe('service history in Spanish', () => {
  it('says what an edit changed, from what to what', () => {
    const described = describeEntry(
      entry('service.update', [
        { field: 'price', before: '4.00', after: '5.00' },
        { field: 'unit', before: 'order', after: '1000' },
        { field: 'category', before: 'IMEI', after: 'unlock' },
        { field: 'description', before: 'a', after: 'b' },
        { field: 'allowRecheck', before: false, after: true },
        {
          field: 'fields',
          before: [],
          after: [
            { key: 'imei', label: 'IMEI' },
            { key: 'modelo', label: 'Modelo' },
          ],
        },
        { field: 'updatedAt', before: 1, after: 2 },
      ]),
    );
    expect(described).toEqual({
      title: 'Servicio editado',
      lines: [
        'Precio: US$4.00 → US$5.00',
        'Unidad: por orden → por 1000',
        'Categoría: Servicios IMEI → Desbloqueo',
        'Descripción: modificada',
        'Volver a consultar con una orden en curso: No → Sí',
        'Datos que pide: ninguno → IMEI, Modelo',
      ],
    });
  });

  it('summarises creation, bulk price changes, state changes and reorders', () => {
    expect(
      describeEntry(
        entry('service.create', [
          { field: 'price', before: null, after: '4.00' },
          { field: 'unit', before: null, after: 'order' },
          { field: 'active', before: null, after: true },
        ]),
      ),
    ).toEqual({ title: 'Servicio creado', lines: ['Precio: US$4.00 por orden', 'Estado: Activo'] });
    expect(
      describeEntry(
        entry('service.price_bulk', [
          { field: 'price', before: '5.00', after: '4.73' },
          { field: 'percent', before: null, after: -5.5 },
        ]),
      ),
    ).toEqual({
      title: 'Cambio de precios en bloque (−5,5 %)',
      lines: ['Precio: US$5.00 → US$4.73'],
    });
    expect(describeEntry(entry('service.update', [])).lines).toEqual(['Guardado sin cambios.']);
    expect(describeEntry(entry('service.deactivate', []))).toEqual({
      title: 'Servicio desactivado',
      lines: [],
    });
    expect(describeEntry(entry('service.reorder', [])).title).toBe(
      'Cambio de orden en la categoría',
    );
  });

  it('says how the suppliers and the margin of a service changed', () => {
    expect(
      describeEntry(
        entry('service.routes', [
          { field: 'routes', before: [], after: ['s1:1382', 's2:77'] },
          { field: 'markupPercent', before: null, after: 12.5 },
          { field: 'price', before: '1.00', after: '0.90' },
        ]),
      ),
    ).toEqual({
      title: 'Proveedores cambiados',
      lines: [
        'Proveedores: ninguno (a mano) → 2',
        'Margen: precio fijo → 12,5 %',
        'Precio: US$1.00 → US$0.90',
      ],
    });
    expect(
      describeEntry(
        entry('service.price_sync', [
          { field: 'price', before: '0.96', after: '1.08' },
          { field: 'cost', before: null, after: '0.90' },
          { field: 'supplier', before: null, after: 'Norte' },
        ]),
      ),
    ).toEqual({
      title: 'Precio ajustado al costo del proveedor',
      lines: ['Precio: US$0.96 → US$1.08', 'Costo: US$0.90 (Norte)'],
    });
  });
});
