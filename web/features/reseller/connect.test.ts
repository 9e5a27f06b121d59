import { createHmac, timingSafeEqual } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { ServiceDto } from '../../../shared/schemas/catalogue';
import {
  apiAddresses,
  byNumber,
  curlExamples,
  dhruParameters,
  exampleServices,
  KEY_PLACEHOLDER,
  SAMPLE_IMEI,
  shellQuote,
  SIGNATURE_EXAMPLE,
} from './connect';

const ORIGIN = 'https://panel.example';

function service(patch: Partial<ServiceDto>): ServiceDto {
  return {
    id: '6d1f0c1e-2b1a-4d4e-9a55-0f7f5d3b2c10',
    number: 12,
    category: 'IMEI',
    name: 'Consulta IMEI completa',
    description: '',
    deliveryTime: '1-5 minutos',
    price: '0.50',
    unit: 'order',
    allowRecheck: false,
    fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true }],
    smmType: null,
    dripfeed: false,
    refillDays: null,
    cancelable: false,
    stock: null,
    ...patch,
  };
}

const FOLLOWERS = service({
  id: '0b5f3a8e-8c8d-4a5c-9a3e-2f1d2c3b4a59',
  number: 31,
  category: 'social',
  name: 'Seguidores de Instagram',
  unit: '1000',
  minQuantity: 100,
  fields: [{ key: 'link', label: 'Enlace', type: 'url', required: true }],
});

/** The sample IMEI has a valid Luhn check digit (the server would refuse it otherwise). */
function luhnValid(digits: string): boolean {
  let sum = 0;
  [...digits].reverse().forEach((d, i) => {
    const n = Number(d) * (i % 2 === 1 ? 2 : 1);
    sum += n > 9 ? n - 9 : n;
  });
  return sum % 10 === 0;
}

describe('apiAddresses', () => {
  it('gives the DHRU, SMM, REST and docs addresses of this server', () => {
    expect(apiAddresses(`${ORIGIN}/`)).toEqual({
      dhru: `${ORIGIN}/api/index.php`,
      smm: `${ORIGIN}/api/v2`,
      rest: `${ORIGIN}/api`,
      docs: `${ORIGIN}/api/docs`,
      origin: ORIGIN,
    });
  });
});

describe('shellQuote', () => {
  it('quotes a word for the shell, quotes inside included', () => {
    expect(shellQuote('a b')).toBe(`'a b'`);
    expect(shellQuote(`o'neil@example.com`)).toBe(`'o'\\''neil@example.com'`);
    expect(shellQuote('$(rm -rf /)')).toBe(`'$(rm -rf /)'`);
  });
});

describe('byNumber', () => {
  it('lists the services by number without touching the original', () => {
    const list = [{ number: 12 }, { number: 3 }, { number: 7 }];
    expect(byNumber(list).map((s) => s.number)).toEqual([3, 7, 12]);
    expect(list.map((s) => s.number)).toEqual([12, 3, 7]);
  });
});

describe('exampleServices', () => {
  it('picks an IMEI service sold per order and an SMM service ordered by link', () => {
    const found = exampleServices([
      service({ number: 5, unit: '1000', fields: [] }),
      FOLLOWERS,
      service({}),
    ]);
    expect(found.imei?.number).toBe(12);
    expect(found.smm?.number).toBe(31);
  });

  it('finds none in an empty catalogue', () => {
    expect(exampleServices([])).toEqual({ imei: null, smm: null });
  });
});

describe('curlExamples', () => {
  const examples = curlExamples({
    origin: ORIGIN,
    email: 'ana@example.com',
    services: [service({}), FOLLOWERS],
  });
  const byId = Object.fromEntries(examples.map((e) => [e.id, e.command]));

  it('uses a valid sample IMEI', () => {
    expect(SAMPLE_IMEI).toMatch(/^\d{15}$/);
    expect(luhnValid(SAMPLE_IMEI)).toBe(true);
  });

  it('asks DHRU for the account info with the e-mail and the placeholder key', () => {
    expect(byId['dhru-accountinfo']).toBe(
      [
        `curl 'https://panel.example/api/index.php'`,
        `  --data-urlencode 'username=ana@example.com'`,
        `  --data-urlencode 'apiaccesskey=TU_CLAVE'`,
        `  --data-urlencode 'action=accountinfo'`,
        `  --data-urlencode 'requestformat=JSON'`,
      ].join(' \\\n'),
    );
  });

  it('places an IMEI order over DHRU with the real service number', () => {
    expect(dhruParameters(12, SAMPLE_IMEI)).toBe(
      `<PARAMETERS><ID>12</ID><IMEI>${SAMPLE_IMEI}</IMEI></PARAMETERS>`,
    );
    expect(byId['dhru-placeimeiorder']).toContain(
      `--data-urlencode 'parameters=<PARAMETERS><ID>12</ID><IMEI>${SAMPLE_IMEI}</IMEI></PARAMETERS>'`,
    );
  });

  it('asks SMM for the balance and orders by link with the minimum quantity', () => {
    expect(byId['smm-balance']).toBe(
      [
        `curl 'https://panel.example/api/v2'`,
        `  --data-urlencode 'key=TU_CLAVE'`,
        `  --data-urlencode 'action=balance'`,
      ].join(' \\\n'),
    );
    expect(byId['smm-add']).toContain(`--data-urlencode 'service=31'`);
    expect(byId['smm-add']).toContain(`--data-urlencode 'quantity=100'`);
  });

  it('uses the Bearer header on the REST API, with the service id and an idempotency key', () => {
    expect(byId['rest-wallet']).toBe(
      `curl 'https://panel.example/api/wallet' \\\n  -H 'Authorization: Bearer ${KEY_PLACEHOLDER}'`,
    );
    expect(byId['rest-order']).toContain('-H "Idempotency-Key: $(uuidgen)"');
    expect(byId['rest-order']).toContain(
      `-d '{"serviceId":"6d1f0c1e-2b1a-4d4e-9a55-0f7f5d3b2c10","fields":{"imei":"${SAMPLE_IMEI}"}}'`,
    );
  });

  it('falls back to placeholders without services, and quotes an unusual e-mail', () => {
    const bare = curlExamples({ origin: ORIGIN, email: `o'neil@example.com`, services: [] });
    expect(bare.map((e) => e.id)).toEqual([
      'dhru-accountinfo',
      'dhru-placeimeiorder',
      'smm-balance',
      'rest-wallet',
      'rest-order',
    ]);
    expect(bare[0]?.command).toContain(`'username=o'\\''neil@example.com'`);
    expect(bare[1]?.command).toContain('<ID>NUMERO_DE_SERVICIO</ID>');
    expect(bare[4]?.command).toContain('"serviceId":"ID_DEL_SERVICIO"');
  });

  it('never contains a real key', () => {
    for (const e of examples) expect(e.command).not.toMatch(/cmt_/);
  });
});

describe('SIGNATURE_EXAMPLE', () => {
  // The example, run as a receiver would run it (its import replaced by the same functions).
  const code = SIGNATURE_EXAMPLE.replace(/^import .*\n/, '');
  const verify = runInNewContext(`${code}\navisoValido;`, {
    createHmac,
    timingSafeEqual,
    Buffer,
  }) as (secret: string, header: string, body: string) => boolean;
  const secret = 'whsec_prueba';
  const body = '{"id":"evt_1","type":"order.updated","data":{"number":7}}';
  const t = Math.floor(Date.now() / 1000);
  const mac = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

  it('accepts a signature made as the server makes it', () => {
    expect(verify(secret, `t=${t},v1=${mac}`, body)).toBe(true);
  });

  it('refuses another body, another secret, an old time and a malformed header', () => {
    expect(verify(secret, `t=${t},v1=${mac}`, `${body} `)).toBe(false);
    expect(verify('whsec_otro', `t=${t},v1=${mac}`, body)).toBe(false);
    const old = t - 600;
    const oldMac = createHmac('sha256', secret).update(`${old}.${body}`).digest('hex');
    expect(verify(secret, `t=${old},v1=${oldMac}`, body)).toBe(false);
    expect(verify(secret, 'v1=abc', body)).toBe(false);
  });
});
