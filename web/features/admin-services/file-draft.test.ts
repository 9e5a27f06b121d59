import { describe, expect, it } from 'vitest';
import { fieldDraftErrors, fieldDraftToInput, newFieldDraft, toDraft } from './draft';

describe('file fields in the service editor', () => {
  it('sends the size in bytes and the extensions as a list, only for file fields', () => {
    const field = {
      ...newFieldDraft(),
      key: 'volcado',
      label: 'Volcado',
      type: 'file' as const,
      maxMegabytes: '2,5',
      extensions: 'bin, .ZIP  img',
    };
    expect(fieldDraftToInput(field)).toEqual({
      key: 'volcado',
      label: 'Volcado',
      type: 'file',
      required: true,
      maxBytes: 2_621_440,
      extensions: ['bin', '.ZIP', 'img'],
    });
    expect(fieldDraftToInput({ ...field, type: 'text' })).not.toHaveProperty('maxBytes');
    // Typed nonsense goes as it is: the shared schema answers in Spanish, next to the input.
    const errors = fieldDraftErrors([{ ...field, maxMegabytes: 'mucho' }]);
    expect(errors[`fields.${field.uid}.maxBytes`]).toMatch(/número/);
  });

  it('reads a saved file field back, and allows one file per service', () => {
    const draft = toDraft({
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      number: 7,
      category: 'unlock',
      name: 'Por archivo',
      description: 'x',
      deliveryTime: '1 hora',
      price: '1.00',
      unit: 'order',
      allowRecheck: false,
      active: true,
      sortOrder: 0,
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
        {
          key: 'volcado',
          label: 'Volcado',
          type: 'file',
          required: true,
          maxBytes: 1048576,
          extensions: ['bin'],
        },
      ],
    });
    const [file] = draft.fields;
    expect(file).toMatchObject({ maxMegabytes: '1', extensions: 'bin' });
    const second = { ...newFieldDraft(), key: 'otro', label: 'Otro', type: 'file' as const };
    const errors = fieldDraftErrors([...draft.fields, second]);
    expect(errors[`fields.${second.uid}.type`]).toBe(
      'Un servicio puede pedir como máximo un archivo.',
    );
  });
});
