// «Cargar stock»: what the admin pasted or picked, counted and checked in the browser before it
// is sent (POST /api/admin/services/:id/stock). The server decides what is added; these checks
// only keep a paste or a file the server would refuse whole (too many lines, too large, not a
// text file) from being sent, and tell the admin beforehand which lines will be refused. Pure
// functions, unit-tested.
import { plural } from '../../../shared/plural';
import {
  STOCK_ITEM_MAX_LENGTH,
  STOCK_REFUSALS,
  STOCK_UPLOAD_MAX_BYTES,
  STOCK_UPLOAD_MAX_ITEMS,
} from '../../../shared/schemas/stock';

export { STOCK_ITEM_MAX_LENGTH };
/** Lines one upload may hold (the server refuses more, whole). */
export const STOCK_MAX_LINES = STOCK_UPLOAD_MAX_ITEMS;
/** The largest body the server takes. */
export const STOCK_FILE_MAX_BYTES = STOCK_UPLOAD_MAX_BYTES;
/** The file types the picker offers and the browser takes. */
export const STOCK_FILE_EXTENSIONS = ['txt', 'csv'] as const;
export const STOCK_FILE_ACCEPT = '.txt,.csv,text/plain,text/csv';

export type StockLineProblem = 'empty' | 'duplicate' | 'too-long';

/** The server's own reasons (shared/schemas/stock.ts), so the preview says what the result will. */
export const STOCK_LINE_PROBLEMS: Record<StockLineProblem, string> = {
  empty: STOCK_REFUSALS.empty,
  duplicate: STOCK_REFUSALS.duplicateInUpload,
  'too-long': STOCK_REFUSALS.tooLong,
};

/** One line that will be refused, numbered as the server numbers them (from 1). */
export type RefusedLine = { line: number; problem: StockLineProblem };

export type StockText = {
  /** Lines counted (a final line break does not start another line). */
  lines: number;
  /** Lines that look like items: not empty, not repeated above, not too long. */
  items: number;
  /** The lines that will be refused here already (the server may refuse more: items it holds). */
  refused: RefusedLine[];
};

/**
 * The text's lines as the server numbers them: a byte order mark and one final line break are
 * not lines; lines end at \n or \r\n.
 */
export function stockLines(text: string): string[] {
  const body = text.replace(/^\uFEFF/, '').replace(/\r?\n$/, '');
  if (body === '') return [];
  return body.split(/\r?\n/);
}

/** Counts the lines and finds the empty, repeated and too long ones. */
export function checkStockText(text: string): StockText {
  const lines = stockLines(text);
  const seen = new Set<string>();
  const refused: RefusedLine[] = [];
  let items = 0;
  lines.forEach((raw, i) => {
    const item = raw.trim();
    const line = i + 1;
    if (item === '') refused.push({ line, problem: 'empty' });
    // Characters as people count them (an emoji is one), as the server does.
    else if ([...item].length > STOCK_ITEM_MAX_LENGTH) refused.push({ line, problem: 'too-long' });
    else if (seen.has(item)) refused.push({ line, problem: 'duplicate' });
    else {
      seen.add(item);
      items += 1;
    }
  });
  return { lines: lines.length, items, refused };
}

/** Why the whole text cannot be sent (nothing in it, too many lines), or null. */
export function stockTextProblem(checked: StockText): string | null {
  if (checked.lines > STOCK_MAX_LINES)
    return `Hay ${checked.lines.toLocaleString('es-MX')} líneas: se pueden cargar hasta ${STOCK_MAX_LINES.toLocaleString('es-MX')} a la vez. Divide la lista.`;
  if (checked.items === 0)
    return checked.lines === 0
      ? 'Pega al menos un artículo, uno por línea.'
      : 'Ninguna línea tiene un artículo que se pueda agregar.';
  return null;
}

/** What the box holds, for the hint under it: «3 líneas: 2 artículos, 1 vacía». */
export function stockTextSummary(checked: StockText): string {
  if (checked.lines === 0) return 'Un artículo por línea (código o usuario:contraseña).';
  const counts = (['empty', 'duplicate', 'too-long'] as const)
    .map((problem) => {
      const n = checked.refused.filter((r) => r.problem === problem).length;
      if (n === 0) return '';
      if (problem === 'empty') return plural(n, 'vacía', 'vacías');
      if (problem === 'duplicate') return plural(n, 'repetida', 'repetidas');
      return plural(n, 'demasiado larga', 'demasiado largas');
    })
    .filter(Boolean);
  const refused = counts.length > 0 ? ` (no se agregan: ${counts.join(', ')})` : '';
  return `${plural(checked.lines, 'línea', 'líneas')}: ${plural(checked.items, 'artículo', 'artículos')}${refused}.`;
}

/** The extension of a file name, lower case, without the dot. */
function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Why a picked file cannot be sent (type, empty, size), before reading it; null when it can. */
export function stockFileProblem(file: { name: string; size: number }): string | null {
  if (!(STOCK_FILE_EXTENSIONS as readonly string[]).includes(extension(file.name)))
    return 'Elige un archivo .txt o .csv, con un artículo por línea.';
  if (file.size === 0) return 'El archivo está vacío.';
  if (file.size > STOCK_FILE_MAX_BYTES)
    return `El archivo pesa más de ${STOCK_FILE_MAX_BYTES / 1024 / 1024} MB: divídelo en partes de hasta ${STOCK_MAX_LINES.toLocaleString('es-MX')} líneas.`;
  return null;
}

/** «Se agregaron 2» / «Se agregó 1» / «No se agregó ningún artículo». */
export function addedSentence(added: number): string {
  if (added === 0) return 'No se agregó ningún artículo.';
  return added === 1
    ? 'Se agregó 1 artículo.'
    : `Se agregaron ${added.toLocaleString('es-MX')} artículos.`;
}
