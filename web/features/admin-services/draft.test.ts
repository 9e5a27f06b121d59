import { describe, expect, it } from 'vitest';
import {
  bulkResultSentence,
  bulkSentence,
  changedInput,
  draftToInput,
  fieldDraftErrors,
  fieldErrorKey,
  moveId,
  moveItem,
  newFieldDraft,
  parsePercent,
  placeErrors,
  priceWithUnit,
  toDraft,
  type FieldDraft,
  typedAmountErrors,
  withSmmType,
} from './draft';
import type { AdminService } from './types';

function field(patch: Partial<FieldDraft>): FieldDraft {
  return { ...newFieldDraft(), ...patch };
}

const SERVICE: AdminService = {
  id: 's1',
  number: 7,
  category: 'social',
  name: 'Seguidores de Instagram',
  description: 'Seguidores reales.',
  deliveryTime: '24 h',
  price: '1.50',
  unit: '1000',
  minQuantity: 100,
  maxQuantity: 10000,
  allowRecheck: true,
  active: false,
  sortOrder: 20,
  markupPercent: null,
  needsTranslation: false,
  routes: [],
  smmType: null,
  dripfeed: false,
  refillDays: null,
  cancelable: false,
  stock: null,
  delivery: 'supplier',
  lowStockThreshold: 5,
  fields: [
    { key: 'link', label: 'Perfil', type: 'url', required: true, identifier: true },
    { key: 'modelo', label: 'Modelo', type: 'select', required: false, options: ['A', 'B'] },
  ],
};

describe('service draft', () => {
  it('round-trips a saved service into the API input', () => {
    const input = draftToInput(toDraft(SERVICE));
    expect(input).toEqual({
      category: 'social',
      name: 'Seguidores de Instagram',
      description: 'Seguidores reales.',
      deliveryTime: '24 h',
      price: '1.50',
      unit: '1000',
      minQuantity: 100,
      maxQuantity: 10000,
      allowRecheck: true,
      active: false,
      fields: SERVICE.fields,
      smmType: null,
      dripfeed: false,
      refillDays: null,
      cancelable: false,
    });
  });

  it('sends no quantities for per-order services and keeps typed non-numbers for the server', () => {
    const draft = { ...toDraft(undefined, 'IMEI'), unit: 'order' as const, minQuantity: '5' };
    expect(draftToInput(draft)).toMatchObject({
      category: 'IMEI',
      minQuantity: null,
      maxQuantity: null,
    });
    const perThousand = { ...draft, unit: '1000' as const, minQuantity: 'diez', maxQuantity: '' };
    expect(draftToInput(perThousand)).toMatchObject({ minQuantity: 'diez', maxQuantity: null });
  });

  it('decimal comma: a price «4,90» and a quantity «1.000» were refused (issue 20)', () => {
    const draft = {
      ...toDraft(SERVICE),
      price: '4,90',
      minQuantity: '1.000',
      maxQuantity: '10.000.000',
    };
    expect(draftToInput(draft)).toMatchObject({
      price: '4.90',
      minQuantity: 1000,
      maxQuantity: 10_000_000,
    });
    expect(draftToInput({ ...draft, price: '1.234,50' }).price).toBe('1234.50');
    // Typed differently, the same price is no change.
    expect(changedInput({ ...toDraft(SERVICE), price: '1,5' }, toDraft(SERVICE))).toEqual({});
    expect(typedAmountErrors({ price: '1.500' }).price).toMatch(/^No queda claro si «1\.500»/);
    expect(typedAmountErrors({ price: '1,50' })).toEqual({});
  });

  it('sends only the options that apply to the field type', () => {
    const serial = field({
      key: 'serie',
      label: 'Serie',
      type: 'serial',
      minLength: '10',
      maxLength: '12',
      allowLetters: false,
      min: '3',
      options: 'x',
      hint: '  ',
    });
    expect(draftToInput({ ...toDraft(), fields: [serial] }).fields).toEqual([
      {
        key: 'serie',
        label: 'Serie',
        type: 'serial',
        required: true,
        minLength: 10,
        maxLength: 12,
        allowLetters: false,
      },
    ]);
    const select = field({ key: 'modelo', label: 'Modelo', type: 'select', options: 'A\n\n B \n' });
    expect(draftToInput({ ...toDraft(), fields: [select] }).fields).toEqual([
      { key: 'modelo', label: 'Modelo', type: 'select', required: true, options: ['A', 'B'] },
    ]);
  });

  it('places field errors next to the input they are about', () => {
    const a = field({ key: 'imei', label: 'IMEI', type: 'imei', identifier: true });
    const b = field({ key: 'imei', label: 'Modelo', type: 'select', identifier: true });
    const c = field({ key: 'Serie', label: '', type: 'serial', minLength: '9', maxLength: '3' });
    const errors = fieldDraftErrors([a, b, c]);
    expect(errors).toEqual({
      [fieldErrorKey(b.uid, 'options')]: 'Una lista de opciones necesita al menos una opción.',
      [fieldErrorKey(b.uid, 'key')]: 'La clave «imei» está repetida.',
      [fieldErrorKey(b.uid, 'identifier')]: 'Solo un campo puede ser el identificador.',
      [fieldErrorKey(c.uid, 'key')]: expect.stringMatching(/^La clave debe empezar/) as string,
      [fieldErrorKey(c.uid, 'label')]: 'Escribe la etiqueta del campo.',
      [fieldErrorKey(c.uid, 'minLength')]: 'La longitud mínima no puede ser mayor que la máxima.',
    });
    expect(fieldDraftErrors([a])).toEqual({});
  });

  it('puts the server’s "Campo N: …" on field N, and other errors under their names', () => {
    const a = field({ key: 'imei', label: 'IMEI', type: 'imei' });
    const b = field({ key: 'modelo', label: 'Modelo', type: 'text' });
    expect(
      placeErrors(
        {
          maxQuantity: 'La cantidad máxima no puede ser menor que la mínima.',
          fields: 'Campo 2: X',
        },
        [a, b],
      ),
    ).toEqual({
      maxQuantity: 'La cantidad máxima no puede ser menor que la mínima.',
      [fieldErrorKey(b.uid)]: 'X',
    });
    expect(placeErrors({ fields: 'Solo un campo puede ser el identificador.' }, [a])).toEqual({
      fields: 'Solo un campo puede ser el identificador.',
    });
  });

  it('moves ids and fields one place, never past the ends', () => {
    expect(moveId(['a', 'b', 'c'], 'b', 'up')).toEqual(['b', 'a', 'c']);
    expect(moveId(['a', 'b', 'c'], 'b', 'down')).toEqual(['a', 'c', 'b']);
    expect(moveId(['a', 'b', 'c'], 'a', 'up')).toBeNull();
    expect(moveId(['a', 'b', 'c'], 'c', 'down')).toBeNull();
    expect(moveId(['a'], 'x', 'down')).toBeNull();
    expect(moveItem([1, 2, 3], 0, 'down')).toEqual([2, 1, 3]);
    expect(moveItem([1, 2, 3], 2, 'down')).toEqual([1, 2, 3]);
  });

  it('reads percentages like the API and words the bulk change in Spanish', () => {
    expect(parsePercent('10')).toEqual({ ok: true, value: 10 });
    expect(parsePercent(' -5,5 % ')).toEqual({ ok: true, value: -5.5 });
    expect(parsePercent('0')).toEqual({ ok: false, message: 'El porcentaje no puede ser cero.' });
    expect(parsePercent('-91').ok).toBe(false);
    expect(parsePercent('501').ok).toBe(false);
    expect(parsePercent('1.234').ok).toBe(false);
    expect(parsePercent('diez').ok).toBe(false);
    expect(bulkSentence(10, 3, 'Desbloqueo')).toBe(
      'Subir un 10 % el precio de 3 servicios de Desbloqueo.',
    );
    expect(bulkSentence(-5.5, 1, null)).toBe(
      'Bajar un 5,5 % el precio de 1 servicio del catálogo.',
    );
    expect(bulkResultSentence(10, 3)).toBe('Listo: el precio de 3 servicios subió un 10 %.');
    expect(priceWithUnit(SERVICE)).toBe('US$1.50 por 1000');
    expect(priceWithUnit({ price: '0.5', unit: 'order' })).toBe('US$0.50 por orden');
  });
});

describe('changedInput', () => {
  it('sends only what the admin changed, so a toggle made meanwhile is not written back', () => {
    const base = toDraft(SERVICE);
    expect(changedInput({ ...base, price: '14.00' }, base)).toEqual({ price: '14.00' });
    expect(changedInput(base, base)).toEqual({});
    const fields = changedInput(
      { ...base, fields: base.fields.map((f) => ({ ...f, label: 'Perfil público' })) },
      base,
    );
    expect(Object.keys(fields)).toEqual(['fields']);
  });
});

describe('withSmmType', () => {
  it("gives the draft its type's unit and exactly its inputs, keeping labels already given", () => {
    const base = toDraft(SERVICE);
    const typed = withSmmType({ ...base, dripfeed: true }, 'Custom Comments');
    expect(typed.unit).toBe('1000');
    expect(typed.dripfeed).toBe(false);
    expect(typed.fields.map((f) => [f.key, f.type])).toEqual([
      ['link', 'url'],
      ['comments', 'lines'],
    ]);
    // The link the service already had keeps its label («Perfil»).
    expect(typed.fields[0]?.label).toBe('Perfil');
    expect(draftToInput(typed)).toMatchObject({
      smmType: 'Custom Comments',
      dripfeed: false,
      refillDays: null,
      cancelable: false,
    });
    const pack = withSmmType(typed, 'Package');
    expect(pack.unit).toBe('order');
    expect(draftToInput({ ...pack, refillDays: '30', cancelable: true })).toMatchObject({
      smmType: 'Package',
      refillDays: 30,
      cancelable: true,
    });
    expect(withSmmType(pack, '').smmType).toBe('');
  });
});
