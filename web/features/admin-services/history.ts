// A service's audit rows in Spanish: what happened, and what changed from what to what.
import { formatUsd, formatUsdPrecise } from '../../../shared/money';
import { categoryLabel } from './draft';
import type { ServiceHistoryEntry } from './types';

const TITLES: Record<string, string> = {
  'service.create': 'Servicio creado',
  'service.update': 'Servicio editado',
  'service.activate': 'Servicio activado',
  'service.deactivate': 'Servicio desactivado',
  'service.reorder': 'Cambio de orden en la categoría',
  'service.price_bulk': 'Cambio de precios en bloque',
  'service.routes': 'Proveedores cambiados',
  'service.price_sync': 'Precio ajustado al costo del proveedor',
};

const FIELD_LABELS: Record<string, string> = {
  name: 'Nombre',
  category: 'Categoría',
  description: 'Descripción',
  deliveryTime: 'Tiempo de entrega',
  price: 'Precio',
  unit: 'Unidad',
  minQuantity: 'Cantidad mínima',
  maxQuantity: 'Cantidad máxima',
  allowRecheck: 'Volver a consultar con una orden en curso',
  fields: 'Datos que pide',
  active: 'Estado',
};

/** Properties whose values are too long to repeat: the history only says they changed. */
const WITHOUT_VALUES = new Set(['description']);

function show(field: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (field === 'price' && typeof value === 'string') return formatUsd(value);
  if (field === 'unit') return value === '1000' ? 'por 1000' : 'por orden';
  if (field === 'category' && typeof value === 'string') return categoryLabel(value);
  if (field === 'active') return value === true ? 'Activo' : 'Inactivo';
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  if (field === 'fields' && Array.isArray(value)) {
    const labels = (value as unknown[]).map((f) =>
      typeof f === 'object' && f !== null && 'label' in f ? String(f.label) : '?',
    );
    return labels.length === 0 ? 'ninguno' : labels.join(', ');
  }
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

function percentText(value: unknown): string {
  if (typeof value !== 'number') return '';
  const sign = value > 0 ? '+' : '−';
  return ` (${sign}${Math.abs(value).toLocaleString('es', { maximumFractionDigits: 2 })} %)`;
}

function countRoutes(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) return 'ninguno (a mano)';
  return value.length === 1 ? '1' : String(value.length);
}

function showMarkup(value: unknown): string {
  if (typeof value !== 'number') return 'precio fijo';
  return `${value.toLocaleString('es', { maximumFractionDigits: 2 })} %`;
}

/** The title of an entry and one line per change worth reading. */
export function describeEntry(entry: ServiceHistoryEntry): { title: string; lines: string[] } {
  const base = TITLES[entry.action] ?? entry.action;
  const change = (field: string) => entry.changes.find((c) => c.field === field);
  if (entry.action === 'service.create') {
    const price = change('price')?.after;
    const unit = change('unit')?.after;
    const active = change('active')?.after;
    return {
      title: base,
      lines: [
        `Precio: ${show('price', price)} ${show('unit', unit)}`,
        `Estado: ${show('active', active)}`,
      ],
    };
  }
  if (entry.action === 'service.price_bulk') {
    const price = change('price');
    return {
      title: `${base}${percentText(change('percent')?.after)}`,
      lines: price
        ? [`Precio: ${show('price', price.before)} → ${show('price', price.after)}`]
        : [],
    };
  }
  if (entry.action === 'service.routes' || entry.action === 'service.price_sync') {
    const lines: string[] = [];
    const routes = change('routes');
    if (routes)
      lines.push(`Proveedores: ${countRoutes(routes.before)} → ${countRoutes(routes.after)}`);
    const markup = change('markupPercent');
    if (markup) lines.push(`Margen: ${showMarkup(markup.before)} → ${showMarkup(markup.after)}`);
    const price = change('price');
    if (price) lines.push(`Precio: ${show('price', price.before)} → ${show('price', price.after)}`);
    const cost = change('cost')?.after;
    const supplier = change('supplier')?.after;
    if (typeof cost === 'string')
      lines.push(
        `Costo: ${formatUsdPrecise(cost)}${typeof supplier === 'string' ? ` (${supplier})` : ''}`,
      );
    return { title: base, lines };
  }
  if (entry.action !== 'service.update') return { title: base, lines: [] };
  const lines = entry.changes
    .filter((c) => c.field in FIELD_LABELS)
    .map((c) => {
      const label = FIELD_LABELS[c.field] ?? c.field;
      if (WITHOUT_VALUES.has(c.field)) return `${label}: modificada`;
      return `${label}: ${show(c.field, c.before)} → ${show(c.field, c.after)}`;
    });
  return { title: base, lines: lines.length > 0 ? lines : ['Guardado sin cambios.'] };
}
