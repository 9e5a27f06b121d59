// The DHRU Fusion wire format (docs/protocols.md §2.2, §2.3): the `parameters` field in its two
// dialects (XML, base64 of JSON), custom fields, and the SUCCESS / ERROR envelope. Used by our
// client now and by our own DHRU server later, so it decodes leniently and encodes strictly.
import { htmlToText } from './decimal';

export type DhruEnvelope =
  | { kind: 'success'; payload: Record<string, unknown> }
  | { kind: 'error'; message: string }
  | { kind: 'invalid' };

/** Dhru's template answers 6.1; "2.0.0" would claim the GSM Fusion family. */
export const DHRU_API_VERSION = '6.1';

/** A tag name we write: letters, digits and `_`, starting with a letter. */
const XML_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A tag name we read (XML names without namespaces). */
const XML_READ_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*/;

/** True for a plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of `name` in `record`, compared case-insensitively (an exact match wins). */
export function lookup(record: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(record, name)) return record[name];
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(record)) {
    if (key.toLowerCase() === lower) return value;
  }
  return undefined;
}

/** A parameter by name, case-insensitively (`ID`, `Id` and `id` are the same); null when absent. */
export function paramLookup(params: Record<string, string>, name: string): string | null {
  const value = lookup(params, name);
  return typeof value === 'string' ? value : null;
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"'\r]/g, (ch) => {
    switch (ch) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case "'":
        return '&apos;';
      default:
        // A raw CR would be read back as LF (XML end-of-line handling).
        return '&#13;';
    }
  });
}

/** True when `name` can be written as a tag: letters, digits and `_`. */
export function isParameterName(name: string): boolean {
  return XML_NAME.test(name);
}

/** `<PARAMETERS><ID>1</ID>…</PARAMETERS>`; throws on a name that is not a plain tag name. */
export function encodeParametersXml(params: Record<string, string>): string {
  let xml = '<PARAMETERS>';
  for (const [name, value] of Object.entries(params)) {
    if (!isParameterName(name)) throw new RangeError(`not a parameter name: ${name}`);
    xml += `<${name}>${escapeXml(value)}</${name}>`;
  }
  return `${xml}</PARAMETERS>`;
}

/** Base64 (standard, padded) of the JSON of `value`. */
export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

/** The V6.1 dialect: base64 of the JSON object. */
export function encodeParametersJson(params: Record<string, string>): string {
  return encodeBase64Json(params);
}

const XML_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

/** XML character data with its five entities and numeric references decoded; null if malformed. */
function decodeXmlText(text: string): string | null {
  let failed = false;
  const decoded = text.replace(/&([^;&\s]{0,10});?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) {
      failed = true;
      return whole;
    }
    const named = XML_ENTITIES[body];
    if (named !== undefined) return named;
    const numeric = /^#(?:(\d{1,7})|x([0-9a-fA-F]{1,6}))$/.exec(body);
    if (!numeric) {
      failed = true;
      return whole;
    }
    const code =
      numeric[1] !== undefined ? Number(numeric[1]) : Number.parseInt(numeric[2] ?? '', 16);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      failed = true;
      return whole;
    }
    return String.fromCodePoint(code);
  });
  return failed ? null : decoded;
}

/**
 * A flat XML document: an optional `<?xml …?>` prolog, one root element, and children
 * `<NAME>value</NAME>` (or `<NAME/>`) whose values are text and CDATA. Null for anything else,
 * DTDs and entity declarations included.
 */
function decodeXml(xml: string): Record<string, string> | null {
  if (/<!DOCTYPE|<!ENTITY|<\?xml-stylesheet/i.test(xml)) return null;
  let rest = xml.replace(/^<\?xml\s[^?]*\?>\s*/i, '');
  const open = /^<([A-Za-z_][A-Za-z0-9_.-]*)(?:\s+[^<>]*?)?(\/?)>/.exec(rest);
  if (!open) return null;
  const [openTag, root = '', selfClosing] = open;
  rest = rest.slice(openTag.length);
  const params: Record<string, string> = {};
  if (selfClosing === '/') return rest.trim() === '' ? params : null;

  for (;;) {
    rest = rest.replace(/^\s+/, '');
    if (rest.startsWith('</')) break;
    if (!rest.startsWith('<')) return null;
    const name = XML_READ_NAME.exec(rest.slice(1))?.[0];
    if (!name) return null;
    const afterName = rest.slice(1 + name.length);
    const empty = /^\s*\/>/.exec(afterName);
    if (empty) {
      params[name] = '';
      rest = afterName.slice(empty[0].length);
      continue;
    }
    const start = /^\s*>/.exec(afterName);
    if (!start) return null;
    rest = afterName.slice(start[0].length);
    let value = '';
    for (;;) {
      if (rest.startsWith('<![CDATA[')) {
        const end = rest.indexOf(']]>');
        if (end < 0) return null;
        value += rest.slice('<![CDATA['.length, end);
        rest = rest.slice(end + 3);
        continue;
      }
      const lt = rest.indexOf('<');
      if (lt < 0) return null;
      if (lt > 0) {
        const text = decodeXmlText(rest.slice(0, lt).replace(/\r\n?/g, '\n'));
        if (text === null) return null;
        value += text;
        rest = rest.slice(lt);
        continue;
      }
      break;
    }
    const close = new RegExp(`^</${escapeRegex(name)}\\s*>`).exec(rest);
    if (!close) return null;
    params[name] = value;
    rest = rest.slice(close[0].length);
  }
  const rootClose = new RegExp(`^</${escapeRegex(root)}\\s*>\\s*$`).exec(rest);
  return rootClose ? params : null;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The text of standard or url-safe base64, padded or not; null when it is not base64 or not UTF-8. */
export function decodeBase64Text(raw: string): string | null {
  const compact = raw.replace(/[\r\n\t ]+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) return null;
  const body = compact.replace(/=+$/, '');
  if (body.length % 4 === 1) return null;
  if (compact.length !== body.length && compact.length % 4 !== 0) return null;
  const standard = body.replace(/-/g, '+').replace(/_/g, '/');
  try {
    return UTF8.decode(Buffer.from(standard, 'base64'));
  } catch {
    return null;
  }
}

/** A JSON value as a parameter string: strings as they are, numbers written out, objects as JSON. */
function parameterText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return null;
}

/** Deepest nesting of JSON we read: a bulk call is three levels; anything deeper is hostile. */
export const MAX_JSON_DEPTH = 32;

/**
 * True when the JSON text nests no deeper than `max` (brackets inside strings ignored). Checked
 * before parsing: reading a value nested 100,000 deep back into text (JSON.stringify) overflows
 * the stack.
 */
export function jsonDepthWithin(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // a backslash escapes the next character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x7b || ch === 0x5b) {
      depth += 1;
      if (depth > max) return false;
    } else if (ch === 0x7d || ch === 0x5d) {
      depth -= 1;
    }
  }
  return true;
}

/** Base64 of a JSON object, its values as strings; null for anything else. */
export function decodeBase64JsonObject(raw: string): Record<string, string> | null {
  // Some clients send the JSON itself rather than its base64.
  const text = raw.trim().startsWith('{') ? raw.trim() : decodeBase64Text(raw);
  if (text === null || text.trim() === '' || !jsonDepthWithin(text)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const text = parameterText(value);
    if (text === null) return null;
    params[key] = text;
  }
  return params;
}

/**
 * The `parameters` field in either dialect (docs/protocols.md §2.2): XML when it starts with `<`,
 * otherwise base64 of a JSON object (or the JSON object itself). Null for anything else: a
 * refusal, never a guess.
 */
export function decodeParameters(raw: string): Record<string, string> | null {
  const trimmed = raw.trim();
  if (trimmed.startsWith('<')) return decodeXml(trimmed);
  return decodeBase64JsonObject(trimmed);
}

/**
 * The JSON a `parameters` or `CUSTOMFIELD` value carries: base64 of JSON (the standard), or JSON
 * sent as it is. Undefined when it is neither (or nests deeper than MAX_JSON_DEPTH).
 */
function base64JsonValue(raw: string): unknown {
  const trimmed = raw.trim();
  const text = /^[[{]/.test(trimmed) ? trimmed : decodeBase64Text(trimmed);
  if (text === null || !jsonDepthWithin(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The decoded `CUSTOMFIELD` parameter (docs/protocols.md §2.2): {} when absent or empty, null
 * when it does not decode. A DHRU panel always sends base64(json_encode($customfields)), which
 * for a service without custom fields is base64 of `null` ("bnVsbA=="); `null`, `""`, `[]` and
 * `{}` all mean "no custom fields".
 */
export function customFields(params: Record<string, string>): Record<string, string> | null {
  const raw = paramLookup(params, 'CUSTOMFIELD');
  if (raw === null || raw.trim() === '') return {};
  const value = base64JsonValue(raw);
  if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) return {};
  if (!isRecord(value)) return null;
  const fields: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    const text = parameterText(item);
    if (text === null) return null;
    fields[key] = text;
  }
  return fields;
}

/**
 * True for a `parameters` value that carries nothing: empty or blank (the PHP kit sends "\n"),
 * an empty root element in any spelling (`<PARAMETERS/>`, `< />`, `<PARAMETERS></PARAMETERS>`),
 * or base64 of JSON `null`, `[]` or `{}`.
 */
export function isEmptyParameterBlock(raw: string): boolean {
  const trimmed = raw.trim();
  if (trimmed === '') return true;
  if (trimmed.startsWith('<')) {
    const body = trimmed.replace(/^<\?xml\s[^?]*\?>\s*/i, '');
    return (
      /^<\s*(?:[A-Za-z_][\w.-]*)?\s*\/>$/.test(body) ||
      /^<([A-Za-z_][\w.-]*)\s*>\s*<\/\1\s*>$/.test(body)
    );
  }
  const value = base64JsonValue(trimmed);
  return (
    value === null ||
    (Array.isArray(value) && value.length === 0) ||
    (isRecord(value) && Object.keys(value).length === 0)
  );
}

/**
 * The rows of a bulk `parameters` (docs/protocols.md §2.7): base64 of JSON, either an object
 * keyed by the caller's own references or a list (what PHP sends for a 0-indexed array, and the
 * documented example), whose rows are keyed by their index ("0", "1"…). Rows that are not
 * objects are left out; null when the whole value is not a list or object of rows.
 */
export function decodeBulkRows(raw: string): Map<string, Record<string, unknown>> | null {
  const value = base64JsonValue(raw);
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((row, index) => [String(index), row as unknown])
    : isRecord(value)
      ? Object.entries(value)
      : [];
  if (!Array.isArray(value) && !isRecord(value)) return null;
  const rows = new Map<string, Record<string, unknown>>();
  for (const [ref, row] of entries) if (isRecord(row)) rows.set(ref, row);
  return rows;
}

/** A success answer: `{ SUCCESS: [payload], apiversion }`. */
export function successEnvelope(
  payload: Record<string, unknown>,
  apiversion: string = DHRU_API_VERSION,
): Record<string, unknown> {
  return { SUCCESS: [payload], apiversion };
}

/** An error answer: `{ ERROR: [{ MESSAGE, FULL_DESCRIPTION? }], apiversion }`. */
export function errorEnvelope(
  message: string,
  fullDescription?: string,
  apiversion: string = DHRU_API_VERSION,
): Record<string, unknown> {
  const error: Record<string, string> = { MESSAGE: message };
  if (fullDescription !== undefined) error.FULL_DESCRIPTION = fullDescription;
  return { ERROR: [error], apiversion };
}

/** A JSON body as an object; null when it is not JSON or not an object. */
export function parseJsonObject(body: string): Record<string, unknown> | null {
  if (!jsonDepthWithin(body)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.trim());
  } catch {
    return null;
  }
  return isRecord(parsed) ? parsed : null;
}

/** A value as text when it is a string or a finite number; null otherwise. */
export function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** The reason of an ERROR entry (an array's first element, an object or a bare string). */
function errorMessage(error: unknown): string {
  const first = Array.isArray(error) ? (error[0] as unknown) : error;
  if (typeof first === 'string') return htmlToText(first) || 'Error sin mensaje del proveedor.';
  if (!isRecord(first)) return 'Error sin mensaje del proveedor.';
  const message = htmlToText(scalarText(lookup(first, 'MESSAGE')) ?? '');
  const full = htmlToText(scalarText(lookup(first, 'FULL_DESCRIPTION')) ?? '');
  if (full && full !== message) return message ? `${message}: ${full}` : full;
  return message || 'Error sin mensaje del proveedor.';
}

/** True for an ERROR value that carries something (an empty list is no error). */
function hasError(error: unknown): boolean {
  if (error === undefined || error === null || error === '' || error === false) return false;
  return !Array.isArray(error) || error.length > 0;
}

/** The payload of a parsed object's SUCCESS, or its ERROR message; invalid when neither. */
export function envelopeOf(answer: Record<string, unknown>): DhruEnvelope {
  const error = lookup(answer, 'ERROR');
  if (hasError(error)) return { kind: 'error', message: errorMessage(error) };
  const success = lookup(answer, 'SUCCESS');
  if (success === undefined || success === null) return { kind: 'invalid' };
  const first = Array.isArray(success) ? (success[0] as unknown) : success;
  if (first === undefined) return { kind: 'success', payload: {} };
  if (isRecord(first)) return { kind: 'success', payload: first };
  const text = scalarText(first);
  return text === null ? { kind: 'invalid' } : { kind: 'success', payload: { MESSAGE: text } };
}

/** A DHRU answer: SUCCESS (first element), ERROR (reason) or invalid (not this protocol). */
export function parseEnvelope(body: string): DhruEnvelope {
  const answer = parseJsonObject(body);
  return answer ? envelopeOf(answer) : { kind: 'invalid' };
}
