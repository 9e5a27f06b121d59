// A tiny PDF text extractor for tests: enough to read what pdfkit writes with its standard fonts
// (receipts). It inflates the FlateDecode streams, and decodes the strings of every `Tj`/`TJ`
// through WinAnsi; each BT…ET block (pdfkit writes one per line) becomes one line of text.
import { inflateSync } from 'node:zlib';

/** The bytes 0x80–0x9F of WinAnsiEncoding; the rest of the upper half is Latin-1. */
const WIN_ANSI_HIGH: Record<number, string> = {
  0x80: '€',
  0x82: '‚',
  0x83: 'ƒ',
  0x84: '„',
  0x85: '…',
  0x86: '†',
  0x87: '‡',
  0x88: 'ˆ',
  0x89: '‰',
  0x8a: 'Š',
  0x8b: '‹',
  0x8c: 'Œ',
  0x8e: 'Ž',
  0x91: '‘',
  0x92: '’',
  0x93: '“',
  0x94: '”',
  0x95: '•',
  0x96: '–',
  0x97: '—',
  0x98: '˜',
  0x99: '™',
  0x9a: 'š',
  0x9b: '›',
  0x9c: 'œ',
  0x9e: 'ž',
  0x9f: 'Ÿ',
};

function winAnsi(bytes: number[]): string {
  return bytes.map((b) => WIN_ANSI_HIGH[b] ?? String.fromCharCode(b)).join('');
}

/** The content of every stream, inflated when it is FlateDecode. */
export function pdfStreams(pdf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  const text = pdf.toString('latin1');
  const pattern = /<<([\s\S]*?)>>\s*stream\r?\n/g;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    let data = pdf.subarray(start, end);
    // The stream's end of line before `endstream` is not part of the data.
    if (data.at(-1) === 0x0a) data = data.subarray(0, -1);
    if (data.at(-1) === 0x0d) data = data.subarray(0, -1);
    out.push(/\/FlateDecode/.test(m[1] ?? '') ? inflateSync(data) : Buffer.from(data));
    pattern.lastIndex = end;
  }
  return out;
}

/** A literal string `(…)` from `i` (just after the opening parenthesis): its bytes and the end. */
function literal(s: string, i: number): { bytes: number[]; end: number } {
  const bytes: number[] = [];
  let depth = 1;
  while (i < s.length) {
    const ch = s[i]!;
    if (ch === '\\') {
      const next = s[i + 1] ?? '';
      const octal = /^[0-7]{1,3}/.exec(s.slice(i + 1, i + 4));
      if (octal) {
        bytes.push(parseInt(octal[0], 8));
        i += 1 + octal[0].length;
        continue;
      }
      const escapes: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12 };
      if (next !== '\n' && next !== '\r') bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 2;
      continue;
    }
    if (ch === '(') depth++;
    if (ch === ')' && --depth === 0) return { bytes, end: i + 1 };
    bytes.push(ch.charCodeAt(0));
    i++;
  }
  return { bytes, end: i };
}

/** The text a content stream shows, one line per BT…ET block. */
export function contentText(content: string): string[] {
  const lines: string[] = [];
  let line: string[] | null = null;
  let operands: string[] = [];
  let i = 0;
  while (i < content.length) {
    const ch = content[i]!;
    if (ch === '<' && content[i + 1] !== '<') {
      const end = content.indexOf('>', i);
      const hex = content.slice(i + 1, end).replace(/\s+/g, '');
      const bytes: number[] = [];
      for (let k = 0; k < hex.length; k += 2)
        bytes.push(parseInt(hex.slice(k, k + 2).padEnd(2, '0'), 16));
      operands.push(winAnsi(bytes));
      i = end + 1;
    } else if (ch === '(') {
      const { bytes, end } = literal(content, i + 1);
      operands.push(winAnsi(bytes));
      i = end;
    } else if (ch === '/') {
      i = i + 1 + (/^[^\s/<>[\]()]*/.exec(content.slice(i + 1))?.[0].length ?? 0);
    } else if (/[A-Za-z'"*]/.test(ch)) {
      const op = /^[A-Za-z'"*]+/.exec(content.slice(i))![0];
      if (op === 'BT') line = [];
      else if (op === 'ET') {
        if (line?.length) lines.push(line.join(''));
        line = null;
      } else if (op === 'Tj' || op === 'TJ' || op === "'" || op === '"') line?.push(...operands);
      operands = [];
      i += op.length;
    } else i++;
  }
  return lines;
}

/** Every line of text of a PDF (pdfkit, standard fonts), in the order it is drawn. */
export function pdfText(pdf: Buffer): string {
  return pdfStreams(pdf)
    .flatMap((stream) => contentText(stream.toString('latin1')))
    .join('\n');
}
