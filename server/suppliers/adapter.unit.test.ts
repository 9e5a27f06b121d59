import { describe, expect, it } from 'vitest';
import { createAdapter, endpointUrl } from './adapter';
import type { PostResult } from './http';
import type { SupplierConnection } from './types';

describe('endpointUrl', () => {
  it('completes a DHRU base URL and keeps a full endpoint as typed', () => {
    expect(endpointUrl('dhru', 'https://sup.example.com')).toBe(
      'https://sup.example.com/api/index.php',
    );
    expect(endpointUrl('dhru', 'https://sup.example.com/')).toBe(
      'https://sup.example.com/api/index.php',
    );
    expect(endpointUrl('dhru', 'https://sup.example.com/panel//')).toBe(
      'https://sup.example.com/panel/api/index.php',
    );
    expect(endpointUrl('dhru', 'https://sup.example.com/api')).toBe(
      'https://sup.example.com/api/index.php',
    );
    expect(endpointUrl('dhru', 'https://sup.example.com/connect/api/index.php')).toBe(
      'https://sup.example.com/connect/api/index.php',
    );
    expect(endpointUrl('dhru', 'https://sup.example.com/api.PHP?x=1')).toBe(
      'https://sup.example.com/api.PHP?x=1',
    );
    expect(endpointUrl('dhru', 'http://127.0.0.1:8080/?lang=es')).toBe(
      'http://127.0.0.1:8080/api/index.php?lang=es',
    );
  });

  it('completes an SMM base URL and keeps /api/v2 and /api/v1 as typed', () => {
    expect(endpointUrl('smm', 'https://panel.example.com')).toBe(
      'https://panel.example.com/api/v2',
    );
    expect(endpointUrl('smm', 'https://panel.example.com/api')).toBe(
      'https://panel.example.com/api/v2',
    );
    expect(endpointUrl('smm', 'https://panel.example.com/api/v2')).toBe(
      'https://panel.example.com/api/v2',
    );
    expect(endpointUrl('smm', 'https://panel.example.com/api/v1/')).toBe(
      'https://panel.example.com/api/v1/',
    );
    expect(endpointUrl('smm', 'https://panel.example.com/shop/?ref=7')).toBe(
      'https://panel.example.com/shop/api/v2?ref=7',
    );
  });

  it('leaves a URL that does not parse as typed', () => {
    expect(endpointUrl('smm', 'panel.example.com')).toBe('panel.example.com');
    expect(endpointUrl('dhru', ' not a url ')).toBe('not a url');
  });
});

describe('createAdapter', () => {
  it('chooses by protocol', async () => {
    const actions: string[] = [];
    const transport = async (action: string, fields: Record<string, string>) => {
      actions.push(`${action}:${Object.keys(fields).join(',')}`);
      return { kind: 'not-sent', error: 'offline', ms: 0 } satisfies PostResult;
    };
    const conn: SupplierConnection = {
      id: 's1',
      protocol: 'dhru',
      url: 'https://sup.example.com',
      username: 'u',
      apiKey: 'k',
      settings: {},
    };
    await createAdapter(conn, transport).balance();
    await createAdapter({ ...conn, protocol: 'smm' }, transport).balance();
    expect(actions).toEqual([
      'accountinfo:username,apiaccesskey,action,requestformat,parameters',
      'balance:key,action',
    ]);
  });

  it('DHRU has no refills or cancels: a clear refusal, nothing sent', async () => {
    const actions: string[] = [];
    const transport = async (action: string) => {
      actions.push(action);
      return { kind: 'not-sent', error: 'offline', ms: 0 } satisfies PostResult;
    };
    const dhru = createAdapter(
      {
        id: 's1',
        protocol: 'dhru',
        url: 'https://sup.example.com',
        username: 'u',
        apiKey: 'k',
        settings: {},
      },
      transport,
    );
    expect(await dhru.refill('9001')).toEqual({
      ok: false,
      kind: 'refused-order',
      message: 'El protocolo DHRU no admite reposiciones.',
      exchanges: [],
    });
    expect(await dhru.refillStatus(['1'])).toMatchObject({ ok: false, kind: 'refused-order' });
    expect(await dhru.cancel(['9001'])).toMatchObject({
      ok: false,
      kind: 'refused-order',
      message: 'El protocolo DHRU no admite cancelaciones.',
    });
    expect(actions).toEqual([]);
  });
});
