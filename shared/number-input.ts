// Amounts and quantities as people type them in forms: «25,50», «1.234,50», «1,234.50», «1.000».
// The JSON API keeps its strict forms (amounts "12.50", quantities JSON numbers): the web forms
// turn what was typed into those with these functions before they build a request.
// Rules: docs/domain.md §2 (Input amounts).
import { formatAmount, type Cents } from './money';

export type AmountInputResult =
  { ok: true; cents: Cents; amount: string } | { ok: false; message: string };

export type IntegerInputResult = { ok: true; value: number } | { ok: false; message: string };

export const AMOUNT_INPUT_EXAMPLE = '25,50';

const INVALID_AMOUNT = `Escribe un importe válido, con hasta dos decimales (por ejemplo ${AMOUNT_INPUT_EXAMPLE}).`;
const MAX_WHOLE_DIGITS = 12;

/** Spaces people (and spreadsheets) put between thousands: plain, no-break and thin spaces. */
const SPACE = '[\\s\\u00a0\\u2007\\u202f]';
const SPACED_NUMBER = new RegExp(`^(\\d{1,3}(?:${SPACE}+\\d{3})+)(?:[.,](\\d+))?$`);

/** "1.234.567" with `sep` → "1234567" when every group after the first has 3 digits; else null. */
function ungroup(text: string, sep: string): string | null {
  const [first = '', ...rest] = text.split(sep);
  if (!/^[1-9]\d{0,2}$/.test(first) || rest.some((g) => !/^\d{3}$/.test(g))) return null;
  return first + rest.join('');
}

type Reading =
  | { kind: 'number'; whole: string; fraction: string }
  | { kind: 'ambiguous'; whole: string; fraction: string }
  | { kind: 'invalid' };

/**
 * Reads an unsigned number written with `,` or `.` as the decimal separator and `.`, `,` or
 * spaces between thousands. One separator followed by exactly three digits («1.500») could be
 * either: it is `ambiguous`, and the caller decides (amounts ask, integers take thousands).
 */
function readNumber(input: string): Reading {
  const text = input.trim();
  const spaced = SPACED_NUMBER.exec(text);
  if (spaced) {
    // «1 234,50»: spaces separate thousands, so the one `,` or `.` left is the decimal separator.
    const whole = ungroup((spaced[1] ?? '').replace(new RegExp(`${SPACE}+`, 'g'), ' '), ' ');
    return whole === null
      ? { kind: 'invalid' }
      : { kind: 'number', whole, fraction: spaced[2] ?? '' };
  }
  if (!/^[\d.,]+$/.test(text) || !/\d/.test(text)) return { kind: 'invalid' };
  const commas = text.split(',').length - 1;
  const dots = text.split('.').length - 1;
  if (commas === 0 && dots === 0) return { kind: 'number', whole: text, fraction: '' };
  if (commas > 0 && dots > 0) {
    // Both: the last one is the decimal separator, the other one separates thousands.
    const decimal = text.lastIndexOf(',') > text.lastIndexOf('.') ? ',' : '.';
    const at = text.lastIndexOf(decimal);
    const head = text.slice(0, at);
    const fraction = text.slice(at + 1);
    if (head.includes(decimal) || !/^\d+$/.test(fraction)) return { kind: 'invalid' };
    const whole = ungroup(head, decimal === ',' ? '.' : ',');
    return whole === null ? { kind: 'invalid' } : { kind: 'number', whole, fraction };
  }
  const sep = commas > 0 ? ',' : '.';
  if (commas + dots > 1) {
    // «1.234.567»: only thousands separators repeat.
    const whole = ungroup(text, sep);
    return whole === null ? { kind: 'invalid' } : { kind: 'number', whole, fraction: '' };
  }
  const [whole = '', fraction = ''] = text.split(sep);
  if (!/^\d+$/.test(fraction)) return { kind: 'invalid' };
  if (fraction.length === 3 && /^[1-9]\d{0,2}$/.test(whole)) {
    return { kind: 'ambiguous', whole, fraction };
  }
  return { kind: 'number', whole: whole || '0', fraction };
}

function plainDigits(whole: string): string {
  return whole.replace(/^0+(?=\d)/, '');
}

/**
 * An amount in dollars as a person types it: «25», «25,5», «25,50», «25.50», «1.234,50»,
 * «1,234.50», «1 234,50», optionally signed («-2,00», for adjustments) and after a `$` or
 * `US$`. Gives the cents and the API's decimal string ("1234.50"), or a Spanish message; a
 * single separator followed by three digits («1.500») is refused as ambiguous, never guessed.
 */
export function parseAmountInput(input: string): AmountInputResult {
  let text = input.trim();
  if (text === '') return { ok: false, message: 'Escribe un importe.' };
  let negative = false;
  const sign = /^([+-])\s*/.exec(text);
  if (sign) {
    negative = sign[1] === '-';
    text = text.slice(sign[0].length);
  }
  text = text.replace(/^(?:US)?\$\s*/i, '').replace(/\s*(?:USD|US\$)$/i, '');
  const reading = readNumber(text);
  if (reading.kind === 'ambiguous') {
    const thousands = plainDigits(reading.whole + reading.fraction);
    const trimmed = reading.fraction.replace(/0+$/, '');
    const decimal = trimmed ? `${reading.whole},${trimmed}` : reading.whole;
    return {
      ok: false,
      message: `No queda claro si «${text}» es ${thousands} o ${decimal}. Escribe ${thousands} sin separador de miles, o los centavos con dos cifras (por ejemplo ${reading.whole},${reading.fraction.slice(0, 2)}).`,
    };
  }
  if (reading.kind === 'invalid') return { ok: false, message: INVALID_AMOUNT };
  const whole = plainDigits(reading.whole);
  if (reading.fraction.length > 2) {
    return { ok: false, message: 'El importe puede tener como máximo dos decimales.' };
  }
  if (whole.length > MAX_WHOLE_DIGITS)
    return { ok: false, message: 'El importe es demasiado grande.' };
  const abs = BigInt(whole) * 100n + BigInt(reading.fraction.padEnd(2, '0'));
  const cents = negative ? -abs : abs;
  return { ok: true, cents, amount: formatAmount(cents) };
}

/**
 * A whole number as a person types it: «1000», «1.000», «1,000», «1 000», «10.000.000». A
 * separator can only separate thousands here, so «1.000» is one thousand; «1,5» is refused.
 * `what` names the number in the messages («La cantidad»).
 */
export function parseIntegerInput(input: string, what = 'El número'): IntegerInputResult {
  const text = input.trim();
  const integerMessage = `${what} debe ser un número entero.`;
  if (text === '') return { ok: false, message: integerMessage };
  const negative = text.startsWith('-');
  const reading = readNumber(negative ? text.slice(1) : text);
  let digits: string;
  if (reading.kind === 'ambiguous') digits = reading.whole + reading.fraction;
  else if (reading.kind === 'number' && reading.fraction === '') digits = reading.whole;
  else return { ok: false, message: integerMessage };
  const value = Number(plainDigits(digits)) * (negative ? -1 : 1);
  if (!Number.isSafeInteger(value)) return { ok: false, message: `${what} es demasiado grande.` };
  return { ok: true, value: value === 0 ? 0 : value };
}

/**
 * What a form sends for a typed amount: the API's decimal string ("1234.50") when the text reads
 * as an amount, else the text as typed, so that the API's own schema refuses it.
 */
export function amountForApi(text: string): string {
  const r = parseAmountInput(text);
  return r.ok ? r.amount : text;
}

/** What a form sends for a typed whole number: a JSON number when it reads, else the text as typed. */
export function integerForApi(text: string): number | string {
  const r = parseIntegerInput(text);
  return r.ok ? r.value : text;
}

/**
 * The messages of typed amounts that do not read, by key (empty values are left to the form's
 * schema, which knows whether they are required).
 */
export function amountInputErrors(
  values: Record<string, string | undefined>,
  keys: readonly string[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const key of keys) {
    const text = values[key] ?? '';
    if (text.trim() === '') continue;
    const r = parseAmountInput(text);
    if (!r.ok) errors[key] = r.message;
  }
  return errors;
}
