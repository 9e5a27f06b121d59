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
        'Precio: $4.00 → $5.00',
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
    ).toEqual({ title: 'Servicio creado', lines: ['Precio: $4.00 por orden', 'Estado: Activo'] });
    expect(
      describeEntry(
        entry('service.price_bulk', [
          { field: 'price', before: '5.00', after: '4.73' },
          { field: 'percent', before: null, after: -5.5 },
        ]),
      ),
    ).toEqual({
      title: 'Cambio de precios en bloque (−5,5 %)',
      lines: ['Precio: $5.00 → $4.73'],
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
});
