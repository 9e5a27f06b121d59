import { describe, expect, it } from 'vitest';
import {
  balanceText,
  createErrors,
  createInput,
  importLabel,
  newSupplierDraft,
  placeSupplierErrors,
  quantityText,
  toSupplierDraft,
  toggleSelection,
  updateErrors,
  updateInput,
  type Selection,
} from './draft';
import type { RemoteService, Supplier } from './types';

const SUPPLIER: Supplier = {
  id: '5f0c6a52-6f2e-4b8a-9d0e-0c1a2b3c4d5e',
  name: 'Desbloqueos Norte',
  protocol: 'dhru',
  url: 'https://norte.example',
  username: 'reseller@example.com',
  apiKeyHint: '••••1HD',
  state: 'activo',
  stateLabel: 'Activo',
  balance: '100.00',
  currency: 'USD',
  lowBalanceThreshold: '25.500000',
  lastError: null,
  lastCheckedAt: '2026-05-01T10:00:00.000Z',
  settings: {
    dhruParameters: 'xml',
    dhruStatus2: 'processing',
    dhruBulkStatus: true,
    maxConcurrency: 4,
  },
  catalogueFetchedAt: null,
  catalogueIssues: [],
  catalogueIssueCount: 0,
  routedServices: 2,
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
};

function remote(patch: Partial<RemoteService>): RemoteService {
  return {
    remoteId: '1382',
    name: 'iPhone carrier + FMI check',
    group: 'Apple checks',
    type: 'IMEI',
    cost: '0.80',
    currency: 'USD',
    deliveryTime: '1-24 Hours',
    unit: 'order',
    info: '',
    fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true }],
    importable: true,
    reason: null,
    missing: false,
    importedAs: [],
    ...patch,
  };
}

describe('supplier draft', () => {
  it('sends the user only for DHRU and the threshold only when typed', () => {
    const dhru = {
      ...newSupplierDraft(),
      name: 'Norte',
      url: 'https://norte.example',
      username: 'yo@example.com',
      apiKey: 'clave-1234',
    };
    expect(createInput(dhru)).toEqual({
      name: 'Norte',
      protocol: 'dhru',
      url: 'https://norte.example',
      username: 'yo@example.com',
      apiKey: 'clave-1234',
    });
    const smm = { ...dhru, protocol: 'smm' as const, lowBalanceThreshold: ' 10.00 ' };
    expect(createInput(smm)).toEqual({
      name: 'Norte',
      protocol: 'smm',
      url: 'https://norte.example',
      apiKey: 'clave-1234',
      lowBalanceThreshold: '10.00',
    });
  });

  it('checks the connect form with the server’s schema, message by input', () => {
    expect(
      createErrors({ ...newSupplierDraft(), name: 'N', url: 'ftp://x', apiKey: 'ab' }),
    ).toEqual({
      name: 'El nombre debe tener al menos 2 caracteres.',
      url: 'La dirección debe empezar por http:// o https://.',
      apiKey: 'La clave API es demasiado corta.',
      username: 'Un proveedor DHRU necesita el usuario (normalmente el correo de la cuenta).',
    });
    expect(
      createErrors({
        ...newSupplierDraft(),
        protocol: 'smm',
        name: 'Panel',
        url: 'https://panel.example',
        apiKey: 'c0ffee',
        lowBalanceThreshold: 'mucho',
      }),
    ).toEqual({
      lowBalanceThreshold:
        'Escribe un importe válido, con hasta dos decimales (por ejemplo 25,50).',
    });
  });

  it('decimal comma: a threshold typed «1.000,50» was refused (issue 20)', () => {
    const smm = {
      ...newSupplierDraft(),
      protocol: 'smm' as const,
      name: 'Panel',
      url: 'https://panel.example',
      apiKey: 'c0ffee',
    };
    expect(createInput({ ...smm, lowBalanceThreshold: '1.000,50' })).toMatchObject({
      lowBalanceThreshold: '1000.50',
    });
    expect(createErrors({ ...smm, lowBalanceThreshold: '25,5' })).toEqual({});
    expect(createErrors({ ...smm, lowBalanceThreshold: '1.500' }).lowBalanceThreshold).toMatch(
      /^No queda claro si «1\.500» es 1500 o 1,5\./,
    );
  });

  it('edits only what changed; an empty new key keeps the saved one', () => {
    const base = toSupplierDraft(SUPPLIER);
    expect(base).toMatchObject({ apiKey: '', lowBalanceThreshold: '25.50', maxConcurrency: '4' });
    expect(updateInput(base, base)).toEqual({});
    expect(updateErrors(base, base)).toEqual({ form: 'No hay cambios que guardar.' });
    expect(
      updateInput(
        {
          ...base,
          name: 'Norte 2',
          apiKey: 'nueva-clave',
          lowBalanceThreshold: '',
          maxConcurrency: '8',
        },
        base,
      ),
    ).toEqual({
      name: 'Norte 2',
      apiKey: 'nueva-clave',
      lowBalanceThreshold: null,
      settings: { maxConcurrency: 8 },
    });
    expect(updateErrors({ ...base, maxConcurrency: '99' }, base)).toEqual({
      maxConcurrency: 'Como máximo 32 peticiones simultáneas.',
    });
    expect(updateErrors({ ...base, maxConcurrency: 'dos' }, base)).toEqual({
      maxConcurrency: 'Las peticiones simultáneas deben ser un número.',
    });
  });

  it('places the server’s settings errors under their inputs', () => {
    expect(placeSupplierErrors({ url: 'x', 'settings.maxConcurrency': 'y' })).toEqual({
      url: 'x',
      maxConcurrency: 'y',
    });
  });

  it('words balances, quantities and the import button', () => {
    expect(balanceText(SUPPLIER)).toBe('US$100.00');
    expect(balanceText({ balance: null, currency: null })).toBe('Sin leer');
    expect(quantityText({ minQuantity: 50, maxQuantity: 10000 })).toBe('De 50 a 10000');
    expect(quantityText({})).toBeNull();
    expect(importLabel(0)).toBe('Importar servicios');
    expect(importLabel(1)).toBe('Importar 1 servicio');
    expect(importLabel(2)).toBe('Importar 2 servicios');
  });

  it('keeps only importable services in the selection', () => {
    let selection: Selection = new Map();
    selection = toggleSelection(selection, remote({}), true);
    selection = toggleSelection(selection, remote({ remoteId: '2210' }), true);
    selection = toggleSelection(selection, remote({ remoteId: '4100', importable: false }), true);
    expect([...selection.keys()]).toEqual(['1382', '2210']);
    const without = toggleSelection(selection, remote({}), false);
    expect([...without.keys()]).toEqual(['2210']);
    expect([...selection.keys()]).toEqual(['1382', '2210']);
  });
});
