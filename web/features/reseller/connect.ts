// «Cómo conectar»: the addresses of the three APIs on this server, the copyable curl examples
// and the signature check of the webhooks. Pure functions, unit-tested.
import type { ServiceDto } from '../../../shared/schemas/catalogue';

/** What the examples show instead of a real key (a key is only ever shown once). */
export const KEY_PLACEHOLDER = 'TU_CLAVE';
/** A made-up IMEI with a valid check digit, for the examples. */
export const SAMPLE_IMEI = '356938035643809';

/** The addresses other panels and programs are given. */
export function apiAddresses(origin: string) {
  const base = origin.replace(/\/+$/, '');
  return {
    /** DHRU Fusion panels (some only want the origin: they add /api/index.php). */
    dhru: `${base}/api/index.php`,
    /** SMM panels (API v2). */
    smm: `${base}/api/v2`,
    /** The REST API, with `Authorization: Bearer`. */
    rest: `${base}/api`,
    /** The API's documentation page. */
    docs: `${base}/api/docs`,
    origin: base,
  };
}

/** `text` as one shell word: in single quotes, a quote inside written as '\''. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** One command over several lines, each continued with a backslash. */
function lines(first: string, rest: string[]): string {
  return [first, ...rest.map((l) => `  ${l}`)].join(' \\\n');
}

function form(name: string, value: string): string {
  return `--data-urlencode ${shellQuote(`${name}=${value}`)}`;
}

type ExampleService = Pick<ServiceDto, 'id' | 'number' | 'name' | 'unit' | 'fields'> &
  Partial<Pick<ServiceDto, 'minQuantity'>>;

/** The services by their number, lowest first (the list people look numbers up in). */
export function byNumber<T extends { number: number }>(services: readonly T[]): T[] {
  return [...services].sort((a, b) => a.number - b.number);
}

/** The DHRU `parameters` of an IMEI order, in XML (what DHRU panels send). */
export function dhruParameters(serviceNumber: number | string, imei: string): string {
  return `<PARAMETERS><ID>${serviceNumber}</ID><IMEI>${imei}</IMEI></PARAMETERS>`;
}

/** The services the examples order: one sold per order with an IMEI, one SMM service by link. */
export function exampleServices(services: readonly ExampleService[]): {
  imei: ExampleService | null;
  smm: ExampleService | null;
} {
  const imei =
    services.find((s) => s.unit === 'order' && s.fields.some((f) => f.type === 'imei')) ?? null;
  const smm =
    services.find(
      (s) =>
        s.unit === '1000' &&
        s.fields.some((f) => f.type === 'url') &&
        s.fields.every((f) => !f.required || f.type === 'url'),
    ) ?? null;
  return { imei, smm };
}

export type CurlExample = {
  id: string;
  title: string;
  /** One sentence on what it does and what it answers. */
  description: string;
  command: string;
};

/**
 * The curl examples of «Cómo conectar», against this server (`origin`) as this account
 * (`email`), with TU_CLAVE in place of the key and real service numbers when there are some.
 */
export function curlExamples({
  origin,
  email,
  services,
}: {
  origin: string;
  email: string;
  services: readonly ExampleService[];
}): CurlExample[] {
  const urls = apiAddresses(origin);
  const { imei, smm } = exampleServices(services);
  const imeiNumber = imei ? String(imei.number) : 'NUMERO_DE_SERVICIO';
  const imeiKey = imei?.fields.find((f) => f.type === 'imei')?.key ?? 'imei';
  const dhruAuth = [form('username', email), form('apiaccesskey', KEY_PLACEHOLDER)];
  const bearer = `-H ${shellQuote(`Authorization: Bearer ${KEY_PLACEHOLDER}`)}`;
  const examples: CurlExample[] = [
    {
      id: 'dhru-accountinfo',
      title: 'DHRU Fusion: saldo de la cuenta (accountinfo)',
      description: 'Responde tu saldo disponible y tu correo dentro de SUCCESS.',
      command: lines(`curl ${shellQuote(urls.dhru)}`, [
        ...dhruAuth,
        form('action', 'accountinfo'),
        form('requestformat', 'JSON'),
      ]),
    },
    {
      id: 'dhru-placeimeiorder',
      title: 'DHRU Fusion: pedir un servicio IMEI (placeimeiorder)',
      description: `Responde el número de la orden en SUCCESS[0].REFERENCEID.${
        imei ? ` Servicio del ejemplo: ${imei.number}, «${imei.name}».` : ''
      }`,
      command: lines(`curl ${shellQuote(urls.dhru)}`, [
        ...dhruAuth,
        form('action', 'placeimeiorder'),
        form('requestformat', 'JSON'),
        form('parameters', dhruParameters(imeiNumber, SAMPLE_IMEI)),
      ]),
    },
    {
      id: 'smm-balance',
      title: 'Panel SMM: saldo (balance)',
      description: 'Responde { "balance": "…", "currency": "USD" }.',
      command: lines(`curl ${shellQuote(urls.smm)}`, [
        form('key', KEY_PLACEHOLDER),
        form('action', 'balance'),
      ]),
    },
  ];
  if (smm) {
    examples.push({
      id: 'smm-add',
      title: 'Panel SMM: pedir un servicio (add)',
      description: `Responde { "order": <número> }. Servicio del ejemplo: ${smm.number}, «${smm.name}».`,
      command: lines(`curl ${shellQuote(urls.smm)}`, [
        form('key', KEY_PLACEHOLDER),
        form('action', 'add'),
        form('service', String(smm.number)),
        form('link', 'https://www.instagram.com/tu_cuenta'),
        form('quantity', String(smm.minQuantity ?? 1000)),
      ]),
    });
  }
  examples.push(
    {
      id: 'rest-wallet',
      title: 'API REST: tu saldo (GET /api/wallet)',
      description: 'Cualquier ruta de tu cuenta en /api acepta la clave en la cabecera.',
      command: lines(`curl ${shellQuote(`${urls.rest}/wallet`)}`, [bearer]),
    },
    {
      id: 'rest-order',
      title: 'API REST: pedir un servicio (POST /api/orders)',
      description:
        'serviceId es el id del servicio (GET /api/services); con la misma Idempotency-Key, repetir la petición no cobra dos veces.',
      command: lines(`curl ${shellQuote(`${urls.rest}/orders`)}`, [
        bearer,
        `-H ${shellQuote('Content-Type: application/json')}`,
        '-H "Idempotency-Key: $(uuidgen)"',
        `-d ${shellQuote(
          JSON.stringify({
            serviceId: imei?.id ?? 'ID_DEL_SERVICIO',
            fields: { [imeiKey]: SAMPLE_IMEI },
          }),
        )}`,
      ]),
    },
  );
  return examples;
}

/** How a receiver checks `Cometa-Signature` in Node.js (shown on the page as it is). */
export const SIGNATURE_EXAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// header: la cabecera Cometa-Signature; body: el cuerpo tal como llegó (texto, sin reformatear).
function avisoValido(secret, header, body) {
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=')));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(\`\${t}.\${body}\`).digest('hex');
  const given = String(parts.v1 ?? '');
  return (
    given.length === expected.length &&
    timingSafeEqual(Buffer.from(given), Buffer.from(expected))
  );
}`;
