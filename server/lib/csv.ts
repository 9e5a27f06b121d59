// The one CSV writer of the exports (orders, voucher codes): RFC 4180 quoting, CRLF line ends,
// and no cell a spreadsheet would run as a formula.

/**
 * What a spreadsheet reads as the start of a formula (or DDE call) when a cell begins with it:
 * `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP, «CSV injection»).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** What makes a cell need quotes: a quote, a comma or a line break. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell: a value that would start a formula gets a leading apostrophe (shown as text, never
 * run), then the cell is quoted, with its quotes doubled, when it holds `"`, `,`, CR or LF.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line (without its line end): the cells, each made safe, separated by commas. */
export function csvLine(fields: readonly string[]): string {
  return fields.map(csvCell).join(',');
}

/** A whole file: the header line, then one line per row, each ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((fields) => `${csvLine(fields)}\r\n`).join('');
}
