// The order search box (history, admin queue, CSV export): order numbers and identifiers, many
// at once, separated by spaces, commas, semicolons or lines. IMEIs are searched as they are
// stored, whatever people wrote in them («35-970237-369904-8», «35 970237 369904 8»), and a
// link without its scheme as it is stored too («instagram.com/tienda» → https://…).
import { completeUrl, luhnValid, normaliseImei } from './fields';

/** A piece of an IMEI as people write it: digits, maybe with dashes, dots or slashes. */
const IMEI_PIECE = /^\d[\d\-\u2010-\u2015\u2212./\\]*$/;

/** At most this many terms are searched. */
export const SEARCH_TERMS_MAX = 30_000;

/**
 * The terms of a search: `#42` and `42` are the order number 42 (the caller decides which terms
 * are numbers: up to 9 digits), an IMEI split by spaces whose 15 digits pass the check is one
 * term, an IMEI with dashes, dots or slashes is its 15 digits, and a link typed without a
 * scheme is searched both as typed and completed.
 */
export function searchTerms(q: string): string[] {
  const out: string[] = [];
  for (const chunk of q.split(/[,;\r\n]+/)) {
    const tokens = chunk.split(/\s+/).filter(Boolean);
    for (let i = 0; i < tokens.length; i += 1) {
      const token = tokens[i] ?? '';
      // «35 970237 369904 8»: consecutive digit groups that make a valid IMEI are one term.
      let merged: { digits: string; end: number } | null = null;
      let digits = '';
      for (let j = i; j < tokens.length && IMEI_PIECE.test(tokens[j] ?? ''); j += 1) {
        digits += normaliseImei(tokens[j] ?? '');
        if (digits.length > 15) break;
        if (digits.length === 15 && j > i && luhnValid(digits)) merged = { digits, end: j };
      }
      if (merged) {
        out.push(merged.digits);
        i = merged.end;
        continue;
      }
      if (IMEI_PIECE.test(token) && normaliseImei(token).length === 15) {
        out.push(normaliseImei(token));
        continue;
      }
      const term = token.replace(/^#/, '');
      if (term === '') continue;
      out.push(term);
      const completed = completeUrl(term);
      if (completed !== term) out.push(completed);
    }
  }
  return [...new Set(out)].slice(0, SEARCH_TERMS_MAX);
}
