// The one CSV writer of the exports (orders, voucher codes): RFC 4180 quoting, CRLF line ends,
// and no cell a spreadsheet would run as a formula, whether it splits on `,`, or on `;` as
// Excel does in Spanish and other locales whose decimal mark is a comma.
//
// Two forms (docs/domain.md §5, Lists and export): by default the one a Spanish Excel opens as
// it is (a UTF-8 byte order mark, `;` between cells, dates as dd/mm/yyyy hh:mm in the reader's
// zone, amounts with a decimal comma, labels in Spanish), and `?format=rfc4180` for scripts
// (`,`, no mark, ISO 8601 times, amounts as the API writes them, the API's codes).
import type { CsvFormat } from '../../shared/schemas/query';

export type { CsvFormat };

/** How an export writes its file and its values. */
export type CsvStyle = {
  format: CsvFormat;
  /** IANA zone of the reader's dates in the Excel form; null: UTC. */
  timeZone: string | null;
};

/**
 * What a spreadsheet reads as the start of a formula (or DDE call) when a cell begins with it:
 * `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP, «CSV injection»).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A `;` or tab inside a cell, followed (after any quotes) by a formula start. A reader that
 * splits on `;` or tabs starts a new cell there, and our quotes do not protect it: they are
 * only special at the start of the cells it sees.
 */
const FORMULA_AFTER_SEPARATOR = /([;\t])(?="*[=+\-@\t\r])/g;

/**
 * What makes a cell need quotes: a quote, a comma, a semicolon, a tab or a line break, in both
 * forms (a `;` file opened by a reader that splits on commas keeps its cells, and its formula
 * quoting).
 */
const NEEDS_QUOTES = /[",;\t\r\n]/;

/**
 * One cell: a value that would start a formula gets a leading apostrophe (shown as text, never
 * run), and so does what follows a `;` or tab that would start one; then the cell is quoted,
 * with its quotes doubled, when it started a formula or holds `"`, `,`, `;`, a tab, CR or LF.
 */
export function csvCell(value: string): string {
  const formula = FORMULA_START.test(value);
  const safe = (formula ? `'${value}` : value).replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return formula || NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line (without its line end): the cells, each made safe, separated by `separator`. */
export function csvLine(fields: readonly string[], separator: ',' | ';' = ','): string {
  return fields.map(csvCell).join(separator);
}

/**
 * A whole file: the header line, then one line per row, each ended by CRLF. The Excel form
 * starts with a UTF-8 byte order mark (without it Excel reads «Añadir» as «AÃ±adir») and
 * separates cells with `;`; RFC 4180 (the default here) with `,` and no mark.
 */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  format: CsvFormat = 'rfc4180',
): string {
  const separator = format === 'excel' ? ';' : ',';
  const text = [header, ...rows].map((fields) => `${csvLine(fields, separator)}\r\n`).join('');
  return format === 'excel' ? `\uFEFF${text}` : text;
}

/** A moment as the form writes it: ISO 8601, or «24/11/2026 07:50» in the reader's zone. */
export function csvDateTime(value: Date | null, style: CsvStyle): string {
  if (value === null) return '';
  if (style.format === 'rfc4180') return value.toISOString();
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: style.timeZone ?? 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(value)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
}

/** An amount ("1234.50") as the form writes it: as is, or with a decimal comma ("1234,50"). */
export function csvAmount(amount: string, style: CsvStyle): string {
  return style.format === 'excel' ? amount.replace('.', ',') : amount;
}

/** The Content-Type of both forms. */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
