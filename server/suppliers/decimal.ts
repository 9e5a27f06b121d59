// Supplier money and supplier text. Money arrives as "0.27819", "$16.41" or a JSON number, with
// up to 8 decimals (docs/protocols.md §1); it is parsed into millionths as text, never through a
// float. Descriptions arrive as HTML and are kept as plain text only.

const MICROS_DECIMALS = 6;

/** Sign, an optional dollar sign (either side of the sign), digits, an optional fraction. */
const DECIMAL_PATTERN = /^([+-]?)\$?([+-]?)(\d*)(?:\.(\d*))?$/;

/** Longest text accepted: far beyond any real amount, short enough to stay cheap. */
const MAX_DECIMAL_LENGTH = 64;

/**
 * Parses supplier money into millionths: "16.41", " $16.41 ", "-2.5", "0.27819" or a finite
 * number. Commas, exponents and anything else give null. Past six decimals the amount is
 * rounded away from zero, so a supplier's cost is never understated.
 */
export function parseDecimalMicros(value: unknown): bigint | null {
  let text: string;
  if (typeof value === 'string') text = value.trim();
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else return null;
  if (text.length === 0 || text.length > MAX_DECIMAL_LENGTH) return null;
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return null;
  const [, before = '', after = '', whole = '', fraction = ''] = match;
  if (before !== '' && after !== '') return null;
  if (whole === '' && fraction === '') return null;
  const negative = (before || after) === '-';
  const kept = fraction.slice(0, MICROS_DECIMALS).padEnd(MICROS_DECIMALS, '0');
  let micros = BigInt(whole || '0') * 10n ** BigInt(MICROS_DECIMALS) + BigInt(kept);
  if (/[1-9]/.test(fraction.slice(MICROS_DECIMALS))) micros += 1n;
  return negative ? -micros : micros;
}

/** Millionths as a plain decimal string with 2 to 6 decimals: 16410000n → "16.41". */
export function formatMicros(micros: bigint): string {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const unit = 10n ** BigInt(MICROS_DECIMALS);
  const whole = (abs / unit).toString();
  let fraction = (abs % unit).toString().padStart(MICROS_DECIMALS, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${negative && abs !== 0n ? '-' : ''}${whole}.${fraction}`;
}

/** Named entities decoded: the XML five, the space, and the accents of supplier descriptions. */
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  aacute: 'á',
  eacute: 'é',
  iacute: 'í',
  oacute: 'ó',
  uacute: 'ú',
  Aacute: 'Á',
  Eacute: 'É',
  Iacute: 'Í',
  Oacute: 'Ó',
  Uacute: 'Ú',
  ntilde: 'ñ',
  Ntilde: 'Ñ',
  uuml: 'ü',
  Uuml: 'Ü',
  iexcl: '¡',
  iquest: '¿',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  trade: '™',
  deg: '°',
  euro: '€',
  bull: '•',
  middot: '·',
  hellip: '…',
  ndash: '–',
  mdash: '—',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/** A code point as text; U+FFFD for NUL, surrogates and values past Unicode. */
function codePointText(code: number): string {
  if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff) return '\ufffd';
  if (code >= 0xd800 && code <= 0xdfff) return '\ufffd';
  return String.fromCodePoint(code);
}

/** Decodes named and numeric character references; unknown names stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(
    /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));/g,
    (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (decimal !== undefined) return codePointText(Number.parseInt(decimal, 10));
      if (hex !== undefined) return codePointText(Number.parseInt(hex, 16));
      const named = name === undefined ? undefined : NAMED_ENTITIES[name];
      return named ?? whole;
    },
  );
}

/** C0 controls but tab and line feed, DEL, C1 controls: never text, and NUL breaks PostgreSQL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Bidirectional embeddings, overrides and isolates, which make text display as something else. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
/** Noncharacters, and halves of surrogate pairs without their other half. */
const NOT_TEXT =
  /[\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text from a supplier made safe to store and show: controls (NUL included) and bidirectional
 * overrides removed, broken Unicode replaced, line separators as line feeds, CR as LF.
 */
export function plainText(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(CONTROLS, '')
    .replace(BIDI, '')
    .replace(NOT_TEXT, '\ufffd');
}

/**
 * Supplier HTML (service names and descriptions, unlock codes, messages) as plain text:
 * entities decoded FIRST, so that markup written as entities (`&lt;script&gt;`) is markup and
 * is removed with the rest; then line breaks where the HTML broke lines, every tag removed,
 * controls removed (plainText), lines trimmed, blank runs shortened. What is left may still hold
 * `<` or `&` as text ("5 < 6"): whoever writes it into HTML encodes it.
 */
export function htmlToText(html: string): string {
  const text = decodeEntities(html.replace(/\r\n?/g, '\n'))
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(?:p|div|li)\s*>/gi, '\n')
    .replace(/<\/?[A-Za-z!?/][^>]*>/g, '')
    .replace(/<\/?[A-Za-z][^>]*$/, '');
  return plainText(text)
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
