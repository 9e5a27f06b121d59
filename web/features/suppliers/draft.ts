// The supplier forms' state and its conversion to the API's input, and the words the page uses
// for states, outcomes and units. Pure functions, unit-tested.
import { formatSupplierMoney } from '../../../shared/money';
import { amountForApi, amountInputErrors } from '../../../shared/number-input';
import { fieldErrors } from '../../../shared/schemas/auth';
import {
  CreateSupplierSchema,
  SUPPLIER_PROTOCOL_LABELS,
  UpdateSupplierSchema,
  type RemoteServiceDto as RemoteService,
  type SupplierDto as Supplier,
  type SupplierProtocolName,
  type SupplierSettingsDto,
} from '../../../shared/schemas/suppliers';

/** Every input of the connect and edit forms, as typed. */
export type SupplierDraft = {
  name: string;
  protocol: SupplierProtocolName;
  url: string;
  username: string;
  /** Connect: the key. Edit: a new key, or empty to keep the saved one. */
  apiKey: string;
  lowBalanceThreshold: string;
  dhruParameters: SupplierSettingsDto['dhruParameters'];
  dhruStatus2: SupplierSettingsDto['dhruStatus2'];
  dhruBulkStatus: boolean;
  maxConcurrency: string;
};

export const PROTOCOL_OPTIONS = (
  Object.entries(SUPPLIER_PROTOCOL_LABELS) as [SupplierProtocolName, string][]
).map(([value, label]) => ({ value, label }));

export const DHRU_PARAMETERS_OPTIONS = [
  { value: 'xml', label: 'XML (lo habitual)' },
  { value: 'json', label: 'JSON en base64' },
];

export const DHRU_STATUS2_OPTIONS = [
  { value: 'processing', label: 'En proceso' },
  { value: 'cancelled', label: 'Cancelada' },
];

export function protocolLabel(protocol: SupplierProtocolName): string {
  return SUPPLIER_PROTOCOL_LABELS[protocol];
}

/** The connect form's starting state. */
export function newSupplierDraft(): SupplierDraft {
  return {
    name: '',
    protocol: 'dhru',
    url: '',
    username: '',
    apiKey: '',
    lowBalanceThreshold: '',
    dhruParameters: 'xml',
    dhruStatus2: 'processing',
    dhruBulkStatus: true,
    maxConcurrency: '4',
  };
}

/** "25.000000" → "25.00": a threshold as people type it. */
function plainAmount(value: string | null): string {
  if (value === null) return '';
  const [whole = '0', fraction = ''] = value.split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${trimmed}`;
}

/** The edit form's starting state: the supplier as saved, with an empty new key. */
export function toSupplierDraft(supplier: Supplier): SupplierDraft {
  return {
    name: supplier.name,
    protocol: supplier.protocol,
    url: supplier.url,
    username: supplier.username ?? '',
    apiKey: '',
    lowBalanceThreshold: plainAmount(supplier.lowBalanceThreshold),
    dhruParameters: supplier.settings.dhruParameters,
    dhruStatus2: supplier.settings.dhruStatus2,
    dhruBulkStatus: supplier.settings.dhruBulkStatus,
    maxConcurrency: String(supplier.settings.maxConcurrency),
  };
}

/** A whole number as a number; anything else as typed, so the schema answers in Spanish. */
function wholeOrText(value: string): number | string {
  const v = value.trim();
  return /^\d{1,6}$/.test(v) ? Number(v) : v;
}

/** The threshold as the API takes it ("25.50"), read from «25,50» or «1.000,00» as typed. */
function threshold(value: string): string | null {
  return value.trim() === '' ? null : amountForApi(value.trim());
}

/** A threshold typed in a way that cannot be read («1.500»), with its precise message. */
function typedErrors(draft: SupplierDraft): Record<string, string> {
  return amountInputErrors({ lowBalanceThreshold: draft.lowBalanceThreshold }, [
    'lowBalanceThreshold',
  ]);
}

/** The body of POST /api/admin/suppliers. */
export function createInput(draft: SupplierDraft): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: draft.name,
    protocol: draft.protocol,
    url: draft.url,
    apiKey: draft.apiKey,
  };
  if (draft.protocol === 'dhru') body.username = draft.username;
  const limit = threshold(draft.lowBalanceThreshold);
  if (limit !== null) body.lowBalanceThreshold = limit;
  return body;
}

function settingsOf(draft: SupplierDraft): Record<string, unknown> {
  return {
    dhruParameters: draft.dhruParameters,
    dhruStatus2: draft.dhruStatus2,
    dhruBulkStatus: draft.dhruBulkStatus,
    maxConcurrency: wholeOrText(draft.maxConcurrency),
  };
}

/**
 * The body of PATCH /api/admin/suppliers/:id: only what changed against the form's starting
 * state (an empty new key keeps the saved one).
 */
export function updateInput(draft: SupplierDraft, base: SupplierDraft): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (draft.name !== base.name) body.name = draft.name;
  if (draft.url !== base.url) body.url = draft.url;
  if (draft.protocol === 'dhru' && draft.username !== base.username)
    body.username = draft.username.trim() === '' ? null : draft.username;
  if (draft.apiKey.trim() !== '') body.apiKey = draft.apiKey;
  if (threshold(draft.lowBalanceThreshold) !== threshold(base.lowBalanceThreshold))
    body.lowBalanceThreshold = threshold(draft.lowBalanceThreshold);
  const now = settingsOf(draft);
  const before = settingsOf(base);
  const settings = Object.fromEntries(
    Object.entries(now).filter(([key, value]) => value !== before[key]),
  );
  if (Object.keys(settings).length > 0) body.settings = settings;
  return body;
}

/** The connect form checked with the server's own schema: messages by input (empty when fine). */
export function createErrors(draft: SupplierDraft): Record<string, string> {
  const parsed = CreateSupplierSchema.safeParse(createInput(draft));
  const errors = parsed.success
    ? {}
    : settingsErrors(fieldErrors(parsed.error), parsed.error.issues);
  return { ...errors, ...typedErrors(draft) };
}

/** The edit form checked with the server's own schema ("No hay cambios que guardar." as `form`). */
export function updateErrors(draft: SupplierDraft, base: SupplierDraft): Record<string, string> {
  const parsed = UpdateSupplierSchema.safeParse(updateInput(draft, base));
  const errors = parsed.success
    ? {}
    : settingsErrors(fieldErrors(parsed.error), parsed.error.issues);
  return { ...errors, ...typedErrors(draft) };
}

/** `settings.maxConcurrency` problems go under the input they are about. */
function settingsErrors(
  errors: Record<string, string>,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string> {
  const out = { ...errors };
  for (const issue of issues) {
    if (issue.path[0] === 'settings' && typeof issue.path[1] === 'string') {
      out[issue.path[1]] ??= issue.message;
      delete out.settings;
    }
  }
  return out;
}

/** The server's field errors, with `settings.<name>` placed under its input. */
export function placeSupplierErrors(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, message] of Object.entries(fields)) {
    const key = name.startsWith('settings.') ? name.slice('settings.'.length) : name;
    out[key] ??= message;
  }
  return out;
}

// ─── What the page shows ─────────────────────────────────────────────────────────────────────

/** "US$100.00", or "Sin leer" before the first balance. */
export function balanceText(supplier: Pick<Supplier, 'balance' | 'currency'>): string {
  if (supplier.balance === null) return 'Sin leer';
  return formatSupplierMoney(supplier.balance, supplier.currency);
}

export function unitText(unit: RemoteService['unit']): string {
  return unit === '1000' ? 'por 1000' : 'por orden';
}

/** "De 50 a 10000", "Desde 10", "Hasta 5" or null when the supplier gives no limits. */
export function quantityText(service: Pick<RemoteService, 'minQuantity' | 'maxQuantity'>) {
  const { minQuantity: min, maxQuantity: max } = service;
  if (min !== undefined && max !== undefined) return `De ${min} a ${max}`;
  if (min !== undefined) return `Desde ${min}`;
  if (max !== undefined) return `Hasta ${max}`;
  return null;
}

/** The remote services chosen, kept by id (they stay chosen while the filters change). */
export type Selection = ReadonlyMap<string, RemoteService>;

/** `service` added to or removed from the selection (a new map: state stays immutable). */
export function toggleSelection(
  selection: Selection,
  service: RemoteService,
  on: boolean,
): Selection {
  const next = new Map(selection);
  if (on && service.importable) next.set(service.remoteId, service);
  else next.delete(service.remoteId);
  return next;
}

/** "Importar servicios" (none chosen yet), "Importar 1 servicio", "Importar 3 servicios". */
export function importLabel(count: number): string {
  if (count === 0) return 'Importar servicios';
  return count === 1 ? 'Importar 1 servicio' : `Importar ${count} servicios`;
}
