import { describe, expect, it } from 'vitest';
import type { WebhookDeliveryDto } from '../../../shared/schemas/api-keys';
import {
  allowedIpsText,
  attemptResult,
  endpointErrors,
  failuresText,
  ipLines,
  keyErrors,
  keyInput,
  lastUsedText,
  newKeyDraft,
  placeKeyErrors,
  prefixText,
  summarizeDelivery,
  testOutcome,
} from './draft';

const format = (iso: string) => `[${iso}]`;

describe('the «Crear clave» form', () => {
  it('sends the filled lines of the addresses box, trimmed', () => {
    expect(ipLines(' 203.0.113.7 \r\n\n2001:db8::/32\n  \n')).toEqual({
      values: ['203.0.113.7', '2001:db8::/32'],
      lines: [1, 3],
    });
    expect(keyInput({ name: 'Mi panel', allowedIps: '\n203.0.113.0/24\n' })).toEqual({
      name: 'Mi panel',
      allowedIps: ['203.0.113.0/24'],
    });
    expect(keyInput(newKeyDraft())).toEqual({ name: '', allowedIps: [] });
  });

  it('checks the name and the addresses with the server schema', () => {
    expect(keyErrors({ name: 'Mi panel', allowedIps: '' })).toEqual({});
    expect(keyErrors({ name: '   ', allowedIps: '' })).toEqual({
      name: 'Escribe un nombre para la clave.',
    });
    expect(keyErrors({ name: 'x'.repeat(61), allowedIps: '' }).name).toMatch(/máximo 60/);
    expect(keyErrors({ name: 'Mi panel', allowedIps: '203.0.113.7\n\n1' })).toEqual({
      allowedIps: 'Línea 3: Escribe una dirección IP o un rango (por ejemplo 203.0.113.0/24).',
    });
    const many = Array.from({ length: 21 }, (_, i) => `203.0.113.${i}`).join('\n');
    expect(keyErrors({ name: 'Mi panel', allowedIps: many })).toEqual({
      allowedIps: 'Como máximo 20 direcciones.',
    });
  });

  it("places the server's `allowedIps.N` under the box with the line it came from", () => {
    const draft = { name: 'Mi panel', allowedIps: '203.0.113.7\n\n300.1.1.1' };
    expect(
      placeKeyErrors(draft, {
        'allowedIps.1': '«300.1.1.1» no es una dirección IP ni un rango válido.',
        name: 'Otro problema',
      }),
    ).toEqual({
      allowedIps: 'Línea 3: «300.1.1.1» no es una dirección IP ni un rango válido.',
      name: 'Otro problema',
    });
    expect(placeKeyErrors(draft, { 'allowedIps.9': 'Fuera' })).toEqual({ allowedIps: 'Fuera' });
  });
});

describe('what a key shows', () => {
  it('shows the prefix, the addresses and the last use', () => {
    expect(prefixText({ prefix: 'cmt_AbCd1234' })).toBe('cmt_AbCd1234…');
    expect(allowedIpsText({ allowedIps: [] })).toBe('Cualquier dirección');
    expect(allowedIpsText({ allowedIps: ['203.0.113.7', '2001:db8::/32'] })).toBe(
      '203.0.113.7, 2001:db8::/32',
    );
    expect(lastUsedText({ lastUsedAt: null }, format)).toBe('Nunca');
    expect(lastUsedText({ lastUsedAt: '2026-05-01T10:00:00.000Z' }, format)).toBe(
      '[2026-05-01T10:00:00.000Z]',
    );
  });
});

describe('webhook endpoints', () => {
  it('checks the address with the server schema', () => {
    expect(endpointErrors('https://mi-panel.example/avisos')).toEqual({});
    expect(endpointErrors('ftp://mi-panel.example')).toEqual({
      url: 'La dirección debe empezar por http:// o https://.',
    });
    expect(endpointErrors('')).toEqual({
      url: 'La dirección debe empezar por http:// o https://.',
    });
  });

  it('counts the failures in a row', () => {
    expect(failuresText({ failures: 0 })).toBeNull();
    expect(failuresText({ failures: 1 })).toBe('1 fallo seguido');
    expect(failuresText({ failures: 4 })).toBe('4 fallos seguidos');
  });
});

describe('summarizeDelivery', () => {
  const body = JSON.stringify({
    id: 'evt_1',
    type: 'order.updated',
    createdAt: '2026-05-01T10:00:00.000Z',
    data: { id: 'o1', number: 42, status: 'pending', statusLabel: 'Pendiente' },
  });
  const delivery: Pick<WebhookDeliveryDto, 'attempts' | 'body' | 'lastAttempts'> = {
    attempts: 2,
    body,
    lastAttempts: [
      { at: '2026-05-01T10:00:02.000Z', httpStatus: 200, reason: null, ms: 12 },
      {
        at: '2026-05-01T10:00:01.000Z',
        httpStatus: 500,
        reason: 'El servidor respondió HTTP 500',
        ms: 30,
      },
    ],
  };

  it('reads the order from the body and the outcome from the newest attempt', () => {
    const summary = summarizeDelivery(delivery, format);
    expect(summary.orderNumber).toBe(42);
    expect(summary.orderStatus).toBe('Pendiente');
    expect(summary.attemptsText).toBe('2 intentos');
    expect(summary.lastResult).toBe('HTTP 200');
    expect(summary.lastOk).toBe(true);
    expect(summary.body).toBe(JSON.stringify(JSON.parse(body), null, 2));
    // A status and the server's short reason for each try; never what the receiver answered.
    expect(summary.attemptsLog).toBe(
      [
        '[2026-05-01T10:00:02.000Z] · HTTP 200 · 12 ms',
        '[2026-05-01T10:00:01.000Z] · El servidor respondió HTTP 500 · 30 ms',
      ].join('\n'),
    );
  });

  it('says when there was no answer, and before the first attempt', () => {
    expect(attemptResult({ httpStatus: null, reason: 'Tiempo de espera agotado' })).toBe(
      'Tiempo de espera agotado',
    );
    expect(attemptResult({ httpStatus: null, reason: null })).toBe('Sin respuesta');
    const failed = summarizeDelivery(
      {
        attempts: 1,
        body,
        lastAttempts: [
          {
            at: '2026-05-01T10:00:01.000Z',
            httpStatus: null,
            reason: 'No se pudo conectar',
            ms: 3,
          },
        ],
      },
      format,
    );
    expect(failed.lastResult).toBe('No se pudo conectar');
    expect(failed.lastOk).toBe(false);
    expect(failed.attemptsText).toBe('1 intento');
    expect(failed.attemptsLog).toBe('[2026-05-01T10:00:01.000Z] · No se pudo conectar · 3 ms');
    const fresh = summarizeDelivery({ attempts: 0, body, lastAttempts: [] }, format);
    expect(fresh.attemptsText).toBe('Sin intentos todavía');
    expect(fresh.lastResult).toBeNull();
    expect(fresh.lastOk).toBe(false);
    expect(fresh.attemptsLog).toBe('Todavía no hubo ningún intento.');
  });

  it('shows a body that is not JSON as it is', () => {
    const odd = summarizeDelivery({ attempts: 0, body: 'no es json', lastAttempts: [] }, format);
    expect(odd.body).toBe('no es json');
    expect(odd.orderNumber).toBeNull();
    expect(odd.orderStatus).toBeNull();
  });
});

describe('testOutcome («Probar»)', () => {
  const at = '2026-05-01T10:00:00.000Z';
  it('waits while the one try has not happened', () => {
    expect(testOutcome({ state: 'pending', lastAttempts: [] })).toBeNull();
  });
  it('shows the status code the destination answered', () => {
    expect(
      testOutcome({
        state: 'delivered',
        lastAttempts: [{ at, httpStatus: 204, reason: null, ms: 12 }],
      }),
    ).toEqual({ ok: true, text: 'Prueba entregada: el servidor respondió HTTP 204.' });
    expect(
      testOutcome({
        state: 'failed',
        lastAttempts: [{ at, httpStatus: 500, reason: 'El servidor respondió HTTP 500', ms: 9 }],
      }),
    ).toEqual({ ok: false, text: 'La prueba falló (El servidor respondió HTTP 500).' });
  });
  it('shows the reason when nothing answered', () => {
    expect(
      testOutcome({
        state: 'failed',
        lastAttempts: [{ at, httpStatus: null, reason: 'Tiempo de espera agotado', ms: 10000 }],
      }),
    ).toEqual({ ok: false, text: 'La prueba falló (Tiempo de espera agotado).' });
  });
});
