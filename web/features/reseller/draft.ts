// The API key and webhook forms' state and its conversion to the API's input, and the words the
// profile uses for keys, endpoints and deliveries. Pure functions, unit-tested.
import { fieldErrors } from '../../../shared/schemas/auth';
import {
  CreateApiKeySchema,
  CreateWebhookEndpointSchema,
  type ApiKeyDto,
  type WebhookAttemptDtoSchema,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
} from '../../../shared/schemas/api-keys';
import type { z } from 'zod';

type Errors = Record<string, string>;
/** How a date is shown (the components pass `useDates().dateTime`; tests pass something stable). */
export type DateFormat = (iso: string) => string;

// ─── API keys ────────────────────────────────────────────────────────────────────────────────

/** The «Crear clave» form, as typed: the addresses are one per line. */
export type KeyDraft = { name: string; allowedIps: string };

export function newKeyDraft(): KeyDraft {
  return { name: '', allowedIps: '' };
}

/** The filled lines of the addresses box, each with its line number (1-based) in the box. */
export function ipLines(text: string): { values: string[]; lines: number[] } {
  const values: string[] = [];
  const lines: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const value = line.trim();
    if (value === '') return;
    values.push(value);
    lines.push(i + 1);
  });
  return { values, lines };
}

/** The body of POST /api/keys. */
export function keyInput(draft: KeyDraft): { name: string; allowedIps: string[] } {
  return { name: draft.name, allowedIps: ipLines(draft.allowedIps).values };
}

/**
 * Field messages with `allowedIps.<n>` (the n-th address sent) placed under the addresses box,
 * saying which line of the box it is about.
 */
export function placeKeyErrors(draft: KeyDraft, fields: Errors): Errors {
  const { lines } = ipLines(draft.allowedIps);
  const out: Errors = {};
  for (const [name, message] of Object.entries(fields)) {
    const match = /^allowedIps\.(\d+)$/.exec(name);
    if (match) {
      const line = lines[Number(match[1])];
      out.allowedIps ??= line === undefined ? message : `Línea ${line}: ${message}`;
    } else {
      out[name] ??= message;
    }
  }
  return out;
}

/** The form checked with the server's own schema: messages by input (empty when fine). */
export function keyErrors(draft: KeyDraft): Errors {
  const parsed = CreateApiKeySchema.safeParse(keyInput(draft));
  if (parsed.success) return {};
  const fields: Errors = {};
  for (const issue of parsed.error.issues) {
    const [first, index] = issue.path;
    const name =
      first === 'allowedIps' && typeof index === 'number'
        ? `allowedIps.${index}`
        : String(first ?? 'form');
    fields[name] ??= issue.message;
  }
  return placeKeyErrors(draft, fields);
}

/** `cmt_AbCd1234…`: the start of a key, to tell keys apart. */
export function prefixText(key: Pick<ApiKeyDto, 'prefix'>): string {
  return `${key.prefix}…`;
}

export function allowedIpsText(key: Pick<ApiKeyDto, 'allowedIps'>): string {
  return key.allowedIps.length === 0 ? 'Cualquier dirección' : key.allowedIps.join(', ');
}

export function lastUsedText(key: Pick<ApiKeyDto, 'lastUsedAt'>, format: DateFormat): string {
  return key.lastUsedAt === null ? 'Nunca' : format(key.lastUsedAt);
}

// ─── Webhooks ────────────────────────────────────────────────────────────────────────────────

/** The «Añadir destino» form checked with the server's own schema. */
export function endpointErrors(url: string): Errors {
  const parsed = CreateWebhookEndpointSchema.safeParse({ url });
  return parsed.success ? {} : fieldErrors(parsed.error);
}

/** "3 fallos seguidos", or null when the last attempt went well. */
export function failuresText(endpoint: Pick<WebhookEndpointDto, 'failures'>): string | null {
  if (endpoint.failures <= 0) return null;
  return endpoint.failures === 1 ? '1 fallo seguido' : `${endpoint.failures} fallos seguidos`;
}

type Attempt = z.infer<typeof WebhookAttemptDtoSchema>;

/**
 * "HTTP 200" for an answer that went well, otherwise the server's short reason («El servidor
 * respondió HTTP 500», «Tiempo de espera agotado»…). The answer's body is never shown.
 */
export function attemptResult(attempt: Pick<Attempt, 'httpStatus' | 'reason'>): string {
  if (attempt.reason) return attempt.reason;
  return attempt.httpStatus !== null ? `HTTP ${attempt.httpStatus}` : 'Sin respuesta';
}

/**
 * How a «Probar» test event went, from its delivery: null while it waits for its one try; the
 * status code when the destination answered, the reason otherwise.
 */
export function testOutcome(
  delivery: Pick<WebhookDeliveryDto, 'state' | 'lastAttempts'>,
): { ok: boolean; text: string } | null {
  const last = delivery.lastAttempts[0];
  if (delivery.state === 'pending' || !last) return null;
  if (delivery.state === 'delivered')
    return {
      ok: true,
      text: `Prueba entregada: el servidor respondió ${last.httpStatus !== null ? `HTTP ${last.httpStatus}` : 'bien'}.`,
    };
  return { ok: false, text: `La prueba falló (${attemptResult(last)}).` };
}

/** What one delivery's row shows, read from the delivery and the JSON it carries. */
export type DeliverySummary = {
  /** The order's number, from the body (`data.number`); null when the body has none. */
  orderNumber: number | null;
  /** The order's status as the body tells it (`data.statusLabel`). */
  orderStatus: string | null;
  attemptsText: string;
  /** The newest attempt's outcome; null before the first attempt. */
  lastResult: string | null;
  lastOk: boolean;
  /** The body, indented for reading (as sent when it is not JSON). */
  body: string;
  /** Every attempt listed (newest first), as plain text. */
  attemptsLog: string;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readBody(raw: string): { pretty: string; data: Record<string, unknown> | null } {
  try {
    const parsed: unknown = JSON.parse(raw);
    return {
      pretty: JSON.stringify(parsed, null, 2),
      data: isRecord(parsed) && isRecord(parsed.data) ? parsed.data : null,
    };
  } catch {
    return { pretty: raw, data: null };
  }
}

export function summarizeDelivery(
  delivery: Pick<WebhookDeliveryDto, 'attempts' | 'body' | 'lastAttempts'>,
  format: DateFormat,
): DeliverySummary {
  const { pretty, data } = readBody(delivery.body);
  const last = delivery.lastAttempts[0];
  const attemptsLog = delivery.lastAttempts
    .map((a) => `${format(a.at)} · ${attemptResult(a)} · ${a.ms} ms`)
    .join('\n');
  return {
    orderNumber: typeof data?.number === 'number' ? data.number : null,
    orderStatus: typeof data?.statusLabel === 'string' ? data.statusLabel : null,
    attemptsText:
      delivery.attempts === 0
        ? 'Sin intentos todavía'
        : delivery.attempts === 1
          ? '1 intento'
          : `${delivery.attempts} intentos`,
    lastResult: last ? attemptResult(last) : null,
    lastOk:
      last !== undefined &&
      last.httpStatus !== null &&
      last.httpStatus >= 200 &&
      last.httpStatus < 300,
    body: pretty,
    attemptsLog: attemptsLog || 'Todavía no hubo ningún intento.',
  };
}
