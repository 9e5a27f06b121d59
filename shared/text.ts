// The one check of text that people and programs send us. PostgreSQL refuses NUL bytes and lone
// surrogates (a 500 if they reach it); control characters and bidirectional overrides make text
// that displays as something else ("Juan\u202egnp.exe" shows as "Juanexe.png"). The server
// applies `textProblem` to every string of every request at the edge; forms use it too.

/** C0 controls except tab/newline/carriage return, DEL, C1 controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Embedding, override and isolate controls (the "Trojan Source" family). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
/** Noncharacters that are never text. */
const NONCHARACTER = /[\ufffe\uffff]/;
/** Line breaks and tabs: allowed in multi-line text (messages, pasted lists), not in a name. */
const LINE_BREAK = /[\t\n\r\u2028\u2029]/;

export const TEXT_PROBLEM_MESSAGES = {
  control: 'Contiene caracteres de control no permitidos.',
  unicode: 'Contiene caracteres que no son texto válido.',
  bidi: 'Contiene caracteres de control de dirección del texto no permitidos.',
  lineBreak: 'No puede contener saltos de línea ni tabuladores.',
} as const;

export type TextProblem = keyof typeof TEXT_PROBLEM_MESSAGES;

function hasLoneSurrogate(value: string): boolean {
  // `isWellFormed` exists from Node 20; the loop is the fallback for older browsers.
  const s = value as string & { isWellFormed?: () => boolean };
  if (typeof s.isWellFormed === 'function') return !s.isWellFormed();
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return true;
    } else if (code >= 0xdc00 && code <= 0xdfff) return true;
  }
  return false;
}

/** What is wrong with a piece of text, or null. `singleLine` also refuses tabs and line breaks. */
export function textProblem(
  value: string,
  options: { singleLine?: boolean } = {},
): TextProblem | null {
  if (hasLoneSurrogate(value) || NONCHARACTER.test(value)) return 'unicode';
  if (CONTROL.test(value)) return 'control';
  if (BIDI.test(value)) return 'bidi';
  if (options.singleLine && LINE_BREAK.test(value)) return 'lineBreak';
  return null;
}

/** The Spanish message for the first problem of `value`, or null. */
export function textProblemMessage(
  value: string,
  options: { singleLine?: boolean } = {},
): string | null {
  const problem = textProblem(value, options);
  return problem ? TEXT_PROBLEM_MESSAGES[problem] : null;
}

/**
 * The first string (or object key) anywhere in a parsed JSON value that has a problem, with the
 * dotted path of where it is (`fields.imei`, `lines.3`). Bounded by depth so a hostile nesting
 * cannot recurse without end.
 */
export function findTextProblem(
  value: unknown,
  path: string[] = [],
  depth = 0,
): { path: string; message: string } | null {
  if (depth > 64)
    return { path: path.join('.') || 'body', message: 'Demasiados niveles anidados.' };
  if (typeof value === 'string') {
    const message = textProblemMessage(value);
    return message ? { path: path.join('.') || 'body', message } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findTextProblem(value[i], [...path, String(i)], depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const keyMessage = textProblemMessage(key);
      if (keyMessage) return { path: [...path, '(clave)'].join('.'), message: keyMessage };
      const found = findTextProblem(child, [...path, key], depth + 1);
      if (found) return found;
    }
  }
  return null;
}

/**
 * `text` trimmed and cut to at most `max` characters (an ellipsis marks the cut). `flatten`
 * folds every run of white space, line breaks included, into one space (one-line reasons).
 */
export function clipText(text: string, max: number, options: { flatten?: boolean } = {}): string {
  const clean = (options.flatten ? text.replace(/\s+/g, ' ') : text).trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`;
}
