// The service form's state and its conversion to the API's input. Pure functions, unit-tested.
import { CATEGORIES, type CategorySlug } from '../../../shared/categories';
import { MAX_SERVICE_FIELDS, serviceFieldSchema } from '../../../shared/fields';
import { formatUsd } from '../../../shared/money';
import { amountForApi, amountInputErrors, parseIntegerInput } from '../../../shared/number-input';
import { SMM_TYPE_SPECS, SMM_TYPES, type SmmType } from '../../../shared/smm-types';
import type { DeliveryMode } from '../../../shared/schemas/stock';
import type {
  AdminServiceDto as AdminService,
  ServiceField,
  ServiceFieldType,
} from '../../../shared/schemas/catalogue';

/** Which way a row or a field moves in its list. */
export type Direction = 'up' | 'down';

export { MAX_SERVICE_FIELDS };

/** One field of the editor: every option as typed (text), whatever the type. */
export type FieldDraft = {
  /** Stable React key and error address; never sent. */
  uid: string;
  key: string;
  label: string;
  type: ServiceFieldType;
  required: boolean;
  minLength: string;
  maxLength: string;
  allowLetters: boolean;
  min: string;
  max: string;
  /** select: one option per line. */
  options: string;
  hint: string;
  identifier: boolean;
  /** file: the size limit in MB, as typed ("10", "2.5"); empty for the default. */
  maxMegabytes: string;
  /** file: the allowed extensions, separated by commas or spaces; empty for any. */
  extensions: string;
};

export type ServiceDraft = {
  category: CategorySlug | '';
  name: string;
  description: string;
  deliveryTime: string;
  price: string;
  unit: 'order' | '1000';
  minQuantity: string;
  maxQuantity: string;
  allowRecheck: boolean;
  active: boolean;
  fields: FieldDraft[];
  /** The SMM order type it is sold as; '' for none. */
  smmType: SmmType | '';
  dripfeed: boolean;
  /** Days of refill after completion, as typed; '' for no refill. */
  refillDays: string;
  cancelable: boolean;
  /** How its orders are fulfilled: by hand, by its supplier routes, or from its stock. */
  delivery: DeliveryMode;
  /** «Avisar con poco stock»: alert staff at this many available items or fewer, as typed. */
  lowStockThreshold: string;
};

/** «Entrega»: the three ways a service's orders are fulfilled. */
export const DELIVERY_OPTIONS: { value: DeliveryMode; label: string }[] = [
  { value: 'manual', label: 'Manual' },
  { value: 'supplier', label: 'Proveedor' },
  { value: 'stock', label: 'Stock' },
];

/** What each way of delivery means, under the choice. */
export const DELIVERY_HINTS: Record<DeliveryMode, string> = {
  manual: 'Un administrador completa cada orden desde la cola, aunque tenga proveedores.',
  supplier:
    'Cada orden se envía a los proveedores de «Proveedores», en su orden; sin proveedores, se atiende a mano.',
  stock:
    'Cada orden se completa al instante con un artículo del stock; sin stock, pasa a sus proveedores o se muestra «Agotado».',
};

export const FIELD_TYPE_LABELS: Record<ServiceFieldType, string> = {
  imei: 'IMEI (15 dígitos con control)',
  serial: 'Número de serie',
  email: 'Correo electrónico',
  username: 'Nombre de usuario',
  url: 'Enlace (URL)',
  number: 'Número entero',
  text: 'Texto libre',
  select: 'Lista de opciones',
  lines: 'Lista (una por línea)',
  date: 'Fecha',
  file: 'Archivo',
};

export const FIELD_TYPE_OPTIONS = Object.entries(FIELD_TYPE_LABELS).map(([value, label]) => ({
  value,
  label,
}));

export const UNIT_OPTIONS = [
  { value: 'order', label: 'Por orden' },
  { value: '1000', label: 'Por cada 1000 unidades' },
];

export const CATEGORY_OPTIONS = CATEGORIES.map((c) => ({ value: c.slug, label: c.label }));

export function categoryLabel(slug: string): string {
  return CATEGORIES.find((c) => c.slug === slug)?.label ?? slug;
}

/** "por orden" or "por 1000": what one price buys. */
export function unitLabel(service: Pick<AdminService, 'unit'>): string {
  return service.unit === '1000' ? 'por 1000' : 'por orden';
}

/** "US$1.50 por orden" or "US$1.50 por 1000". */
export function priceWithUnit(service: Pick<AdminService, 'price' | 'unit'>): string {
  return `${formatUsd(service.price)} ${unitLabel(service)}`;
}

/**
 * The list's «Proveedor» cell with the way of delivery: «Stock» (and the suppliers it falls back
 * on), «A mano» for a manual service (its routes unused), else the primary supplier.
 */
export function deliveryCell(
  service: Pick<AdminService, 'delivery' | 'routes'>,
  supplier: string,
): string {
  if (service.delivery === 'stock')
    return service.routes.length > 0 ? `Stock, luego ${supplier}` : 'Stock';
  if (service.delivery === 'manual') return 'A mano';
  return supplier;
}

let lastUid = 0;
function nextUid(): string {
  lastUid += 1;
  return `f${lastUid}`;
}

export function newFieldDraft(): FieldDraft {
  return {
    uid: nextUid(),
    key: '',
    label: '',
    type: 'text',
    required: true,
    minLength: '',
    maxLength: '',
    allowLetters: true,
    min: '',
    max: '',
    options: '',
    hint: '',
    identifier: false,
    maxMegabytes: '',
    extensions: '',
  };
}

const text = (n: number | undefined) => (n === undefined ? '' : String(n));

function toFieldDraft(field: ServiceField): FieldDraft {
  return {
    uid: nextUid(),
    key: field.key,
    label: field.label,
    type: field.type,
    required: field.required,
    minLength: text(field.minLength),
    maxLength: text(field.maxLength),
    allowLetters: field.allowLetters ?? true,
    min: text(field.min),
    max: text(field.max),
    options: (field.options ?? []).join('\n'),
    hint: field.hint ?? '',
    identifier: field.identifier === true,
    maxMegabytes:
      field.maxBytes === undefined
        ? ''
        : String(Math.round((field.maxBytes / MEGABYTE) * 100) / 100),
    extensions: (field.extensions ?? []).join(', '),
  };
}

const MEGABYTE = 1024 * 1024;

/** "10" or "2,5" MB → bytes; anything else typed is sent as it is, for the schema's message. */
function megabytesToBytes(value: string): number | string | undefined {
  const v = value.trim().replace(',', '.');
  if (v === '') return undefined;
  return /^\d{1,3}(\.\d{1,2})?$/.test(v) ? Math.round(Number(v) * MEGABYTE) : value.trim();
}

/** The form's starting state: the service as saved, or an empty one (in `category`, if given). */
export function toDraft(service?: AdminService, category: CategorySlug | '' = ''): ServiceDraft {
  if (!service)
    return {
      category,
      name: '',
      description: '',
      deliveryTime: '',
      price: '',
      unit: 'order',
      minQuantity: '',
      maxQuantity: '',
      allowRecheck: false,
      active: true,
      fields: [],
      smmType: '',
      dripfeed: false,
      refillDays: '',
      cancelable: false,
      // The server's defaults: by its routes (by hand while it has none), alert at 5 left.
      delivery: 'supplier',
      lowStockThreshold: '5',
    };
  return {
    category: service.category,
    name: service.name,
    description: service.description,
    deliveryTime: service.deliveryTime,
    price: service.price,
    unit: service.unit,
    minQuantity: text(service.minQuantity),
    maxQuantity: text(service.maxQuantity),
    allowRecheck: service.allowRecheck,
    active: service.active,
    fields: service.fields.map(toFieldDraft),
    smmType: service.smmType ?? '',
    dripfeed: service.dripfeed,
    refillDays: service.refillDays === null ? '' : String(service.refillDays),
    cancelable: service.cancelable,
    delivery: service.delivery,
    lowStockThreshold: String(service.lowStockThreshold),
  };
}

/**
 * The draft as a service of this SMM type: its unit and exactly its inputs (the labels and hints
 * the admin already gave the same keys are kept); drip-feed off where the type has none.
 */
export function withSmmType(draft: ServiceDraft, type: SmmType | ''): ServiceDraft {
  if (type === '') return { ...draft, smmType: '' };
  const spec = SMM_TYPE_SPECS[type];
  const current = new Map(draft.fields.map((f) => [f.key, f]));
  return {
    ...draft,
    smmType: type,
    unit: spec.unit,
    dripfeed: spec.dripfeed && draft.dripfeed,
    fields: spec.fields.map((f) => {
      const kept = current.get(f.key);
      const fresh = toFieldDraft(f);
      return kept && kept.type === f.type
        ? { ...fresh, uid: kept.uid, label: kept.label, hint: kept.hint }
        : fresh;
    }),
  };
}

export const SMM_TYPE_OPTIONS = SMM_TYPES.map((t) => ({
  value: t,
  label: `${SMM_TYPE_SPECS[t].label} (${t})`,
}));

/**
 * A whole number as a number; anything else typed is sent as it is, so the schema answers
 * with its Spanish message ("… debe ser un número.").
 */
function numberOrText(value: string): number | string {
  const v = value.trim();
  // «1.000» and «10.000.000» as people write them; anything else is left for the API to refuse.
  const read = parseIntegerInput(v);
  return read.ok ? read.value : v;
}

function optional(value: string): number | string | undefined {
  return value.trim() === '' ? undefined : numberOrText(value);
}

/** The options that apply to the field's type (so a type change sends no stale options). */
export function fieldDraftToInput(field: FieldDraft): Record<string, unknown> {
  const out: Record<string, unknown> = {
    key: field.key.trim(),
    label: field.label,
    type: field.type,
    required: field.required,
  };
  const put = (name: string, value: unknown) => {
    if (value !== undefined) out[name] = value;
  };
  if (field.type === 'serial' || field.type === 'text') {
    put('minLength', optional(field.minLength));
    put('maxLength', optional(field.maxLength));
  }
  if (field.type === 'username') put('maxLength', optional(field.maxLength));
  if (field.type === 'serial') out.allowLetters = field.allowLetters;
  if (field.type === 'number') {
    put('min', optional(field.min));
    put('max', optional(field.max));
  }
  if (field.type === 'select') {
    out.options = field.options
      .split(/\r?\n/)
      .map((o) => o.trim())
      .filter(Boolean);
  }
  if (field.type === 'file') {
    put('maxBytes', megabytesToBytes(field.maxMegabytes));
    const extensions = field.extensions
      .split(/[\s,;]+/)
      .map((e) => e.trim())
      .filter(Boolean);
    if (extensions.length) out.extensions = extensions;
  }
  if (field.hint.trim() !== '') out.hint = field.hint;
  if (field.identifier) out.identifier = true;
  return out;
}

/** The body of POST /api/admin/services and of PATCH /api/admin/services/:id. */
export function draftToInput(draft: ServiceDraft): Record<string, unknown> {
  const perThousand = draft.unit === '1000';
  const quantity = (value: string) =>
    perThousand && value.trim() !== '' ? numberOrText(value) : null;
  return {
    category: draft.category,
    name: draft.name,
    description: draft.description,
    deliveryTime: draft.deliveryTime,
    price: amountForApi(draft.price),
    unit: draft.unit,
    minQuantity: quantity(draft.minQuantity),
    maxQuantity: quantity(draft.maxQuantity),
    allowRecheck: draft.allowRecheck,
    active: draft.active,
    fields: draft.fields.map(fieldDraftToInput),
    smmType: draft.smmType === '' ? null : draft.smmType,
    dripfeed: draft.dripfeed,
    refillDays: draft.refillDays.trim() === '' ? null : numberOrText(draft.refillDays),
    cancelable: draft.cancelable,
    delivery: draft.delivery,
    // Left empty: the alert only when it runs out.
    lowStockThreshold:
      draft.lowStockThreshold.trim() === '' ? 0 : numberOrText(draft.lowStockThreshold),
  };
}

/**
 * The body of a PATCH: only what the admin changed against the form's starting state, so a
 * save never writes back a value someone else changed meanwhile (e.g. «Activar» on the row
 * while this form was open).
 */
export function changedInput(draft: ServiceDraft, base: ServiceDraft): Record<string, unknown> {
  const now = draftToInput(draft);
  const before = draftToInput(base);
  return Object.fromEntries(
    Object.entries(now).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key]),
    ),
  );
}

/**
 * The price typed in a way that cannot be read («1.500»: thousands or decimals?), with its
 * precise message, which wins over the API's.
 */
export function typedAmountErrors(draft: Pick<ServiceDraft, 'price'>): Record<string, string> {
  return amountInputErrors({ price: draft.price }, ['price']);
}

/** Where a field's error shows: on the field (`fields.<uid>`) or on one of its inputs. */
export function fieldErrorKey(uid: string, property?: string): string {
  return property ? `fields.${uid}.${property}` : `fields.${uid}`;
}

/**
 * The fields checked here with the server's own schema (shared/fields.ts), so each message sits
 * next to the input it is about; the server only names the first problem, as "Campo N: …".
 */
export function fieldDraftErrors(fields: FieldDraft[]): Record<string, string> {
  const errors: Record<string, string> = {};
  if (fields.length > MAX_SERVICE_FIELDS)
    errors.fields = `Un servicio puede pedir como máximo ${MAX_SERVICE_FIELDS} campos.`;
  const seen = new Set<string>();
  let identifiers = 0;
  let files = 0;
  for (const field of fields) {
    if (field.type === 'file' && ++files > 1)
      errors[fieldErrorKey(field.uid, 'type')] ??=
        'Un servicio puede pedir como máximo un archivo.';
    const parsed = serviceFieldSchema.safeParse(fieldDraftToInput(field));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const property = issue.path[0];
        const key = fieldErrorKey(field.uid, typeof property === 'string' ? property : undefined);
        errors[key] ??= issue.message;
      }
    }
    const key = field.key.trim();
    if (key !== '' && seen.has(key))
      errors[fieldErrorKey(field.uid, 'key')] ??= `La clave «${key}» está repetida.`;
    seen.add(key);
    if (field.identifier) {
      identifiers += 1;
      if (identifiers > 1)
        errors[fieldErrorKey(field.uid, 'identifier')] =
          'Solo un campo puede ser el identificador.';
    }
  }
  return errors;
}

/**
 * The server's field errors, placed: "Campo N: …" on field N, the rest under its own name.
 * Precise messages found here win over the server's summary of the same fields.
 */
export function placeErrors(
  server: Record<string, string>,
  fields: FieldDraft[],
): Record<string, string> {
  const local = fieldDraftErrors(fields);
  const out: Record<string, string> = {};
  for (const [name, message] of Object.entries(server)) {
    if (name !== 'fields') {
      out[name] = message;
      continue;
    }
    if (Object.keys(local).length > 0) continue;
    const match = /^Campo (\d+): (.+)$/.exec(message);
    const target = match ? fields[Number(match[1]) - 1] : undefined;
    if (match?.[2] && target) out[fieldErrorKey(target.uid)] = match[2];
    else out.fields = message;
  }
  return { ...out, ...local };
}

/** The category's ids with `id` moved one place; null when it cannot move that way. */
export function moveId(ids: string[], id: string, direction: Direction): string[] | null {
  const from = ids.indexOf(id);
  const to = direction === 'up' ? from - 1 : from + 1;
  if (from < 0 || to < 0 || to >= ids.length) return null;
  const next = [...ids];
  next[from] = ids[to] ?? id;
  next[to] = id;
  return next;
}

/** Moves one item of a list (fields of the editor); the same list when it cannot move. */
export function moveItem<T>(items: T[], index: number, direction: Direction): T[] {
  const to = direction === 'up' ? index - 1 : index + 1;
  if (index < 0 || index >= items.length || to < 0 || to >= items.length) return items;
  const next = [...items];
  const [item] = next.splice(index, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

export const PERCENT_MIN = -90;
export const PERCENT_MAX = 500;

/** "10", "-5.5" or "-5,5" → a number with at most two decimals, or the Spanish reason. */
export function parsePercent(
  input: string,
): { ok: true; value: number } | { ok: false; message: string } {
  const v = input.trim().replace(',', '.').replace(/\s*%$/, '');
  if (!/^[+-]?\d{1,3}(\.\d{1,2})?$/.test(v))
    return {
      ok: false,
      message:
        'Escribe el porcentaje como número, con hasta dos decimales (por ejemplo 10 o -5,5).',
    };
  const value = Number(v);
  if (value === 0) return { ok: false, message: 'El porcentaje no puede ser cero.' };
  if (value < PERCENT_MIN)
    return { ok: false, message: `El porcentaje no puede ser menor que ${PERCENT_MIN}.` };
  if (value > PERCENT_MAX)
    return { ok: false, message: `El porcentaje no puede ser mayor que ${PERCENT_MAX}.` };
  return { ok: true, value };
}

/** 5.5 → "5,5" (Spanish decimal comma). */
export function formatPercent(value: number): string {
  return Math.abs(value).toLocaleString('es', { maximumFractionDigits: 2 });
}

function services(n: number): string {
  return n === 1 ? '1 servicio' : `${n} servicios`;
}

/** "Subir un 10 % el precio de 3 servicios de Desbloqueo." */
export function bulkSentence(percent: number, count: number, category: string | null): string {
  const verb = percent > 0 ? 'Subir' : 'Bajar';
  const where = category ? `${services(count)} de ${category}` : `${services(count)} del catálogo`;
  return `${verb} un ${formatPercent(percent)} % el precio de ${where}.`;
}

/** What the bulk change did, in one sentence. */
export function bulkResultSentence(percent: number, updated: number): string {
  const verb = percent > 0 ? 'subió' : 'bajó';
  if (updated === 0) return 'Ningún precio cambió (ya estaban en el mínimo de US$0.01).';
  return updated === 1
    ? `Listo: el precio de 1 servicio ${verb} un ${formatPercent(percent)} %.`
    : `Listo: el precio de ${updated} servicios ${verb} un ${formatPercent(percent)} %.`;
}
