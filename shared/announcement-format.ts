// The short formatted text of an announcement (docs/domain.md "Announcements"): paragraphs
// (a blank line), line breaks, **negrita**, *cursiva* and links [texto](https://…). Anything
// else, HTML included, is text. One parser for the web (React elements, never raw HTML) and the
// e-mail (escaped HTML and plain text).

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'break' }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] };

export type Paragraph = { type: 'paragraph'; children: Inline[] };

type Context = { strong: boolean; em: boolean; link: boolean };

const LINK_URL = /^https:\/\/[^\s()<>"'`\\]+$/;

/** An https address a link may point to (null when it is anything else). */
export function safeLinkUrl(raw: string): string | null {
  if (!LINK_URL.test(raw)) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' || url.hostname === '' || url.username || url.password)
      return null;
    return url.href;
  } catch {
    return null;
  }
}

function pushText(out: Inline[], text: string): void {
  if (text === '') return;
  const last = out.at(-1);
  if (last?.type === 'text') last.text += text;
  else out.push({ type: 'text', text });
}

/** The index of the `**` closing one opened at `from` (null: none in this text). */
function closingStrong(text: string, from: number): number | null {
  const at = text.indexOf('**', from);
  return at > from ? at : null;
}

/** The index of a single `*` closing one opened at `from` (a `**` is skipped whole). */
function closingEm(text: string, from: number): number | null {
  let i = from;
  while (i < text.length) {
    const at = text.indexOf('*', i);
    if (at < 0) return null;
    if (text[at + 1] === '*') {
      // A bold run inside the italic: skip to after its closing pair.
      const close = closingStrong(text, at + 2);
      if (close === null) return null;
      i = close + 2;
      continue;
    }
    return at > from ? at : null;
  }
  return null;
}

/** `[label](url)` at `from` (text[from] === '['): its parts and where it ends, or null. */
function linkAt(text: string, from: number): { label: string; href: string; end: number } | null {
  const close = text.indexOf('](', from + 1);
  if (close < 0) return null;
  const label = text.slice(from + 1, close);
  if (label === '' || label.includes('[') || label.includes(']')) return null;
  const end = text.indexOf(')', close + 2);
  if (end < 0) return null;
  const href = safeLinkUrl(text.slice(close + 2, end));
  if (!href) return null;
  return { label, href, end: end + 1 };
}

function parseInline(text: string, ctx: Context): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  let i = 0;
  const flush = () => {
    pushText(out, plain);
    plain = '';
  };
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\n') {
      flush();
      out.push({ type: 'break' });
      i += 1;
      continue;
    }
    if (ch === '*' && text[i + 1] === '*' && !ctx.strong) {
      const close = closingStrong(text, i + 2);
      if (close !== null) {
        flush();
        out.push({
          type: 'strong',
          children: parseInline(text.slice(i + 2, close), { ...ctx, strong: true }),
        });
        i = close + 2;
        continue;
      }
    }
    if (ch === '*' && text[i + 1] !== '*' && !ctx.em) {
      const close = closingEm(text, i + 1);
      if (close !== null) {
        flush();
        out.push({
          type: 'em',
          children: parseInline(text.slice(i + 1, close), { ...ctx, em: true }),
        });
        i = close + 1;
        continue;
      }
    }
    if (ch === '[' && !ctx.link) {
      const link = linkAt(text, i);
      if (link) {
        flush();
        out.push({
          type: 'link',
          href: link.href,
          children: parseInline(link.label, { ...ctx, link: true }),
        });
        i = link.end;
        continue;
      }
    }
    plain += ch;
    i += 1;
  }
  flush();
  return out;
}

/** The text as paragraphs of formatted runs. Never throws; unknown syntax stays as text. */
export function parseAnnouncement(source: string): Paragraph[] {
  const text = source.replace(/\r\n?/g, '\n').trim();
  if (text === '') return [];
  return text
    .split(/\n[ \t]*\n\s*/)
    .map((block) => block.replace(/[ \t]+\n/g, '\n').trim())
    .filter((block) => block !== '')
    .map((block) => ({ type: 'paragraph' as const, children: parseInline(block, NO_CONTEXT) }));
}

const NO_CONTEXT: Context = { strong: false, em: false, link: false };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function inlineHtml(nodes: Inline[]): string {
  return nodes
    .map((n) => {
      switch (n.type) {
        case 'text':
          return escapeHtml(n.text);
        case 'break':
          return '<br>';
        case 'strong':
          return `<strong>${inlineHtml(n.children)}</strong>`;
        case 'em':
          return `<em>${inlineHtml(n.children)}</em>`;
        case 'link':
          return `<a href="${escapeHtml(n.href)}" rel="noopener noreferrer" target="_blank">${inlineHtml(n.children)}</a>`;
      }
    })
    .join('');
}

/** Escaped HTML of the text, one `<p>` per paragraph (the e-mail's body). */
export function announcementHtml(source: string, paragraphStyle = ''): string {
  const style = paragraphStyle ? ` style="${escapeHtml(paragraphStyle)}"` : '';
  return parseAnnouncement(source)
    .map((p) => `<p${style}>${inlineHtml(p.children)}</p>`)
    .join('\n');
}

function inlineText(nodes: Inline[]): string {
  return nodes
    .map((n) => {
      switch (n.type) {
        case 'text':
          return n.text;
        case 'break':
          return '\n';
        case 'strong':
        case 'em':
          return inlineText(n.children);
        case 'link': {
          const label = inlineText(n.children);
          return label === n.href ? n.href : `${label} (${n.href})`;
        }
      }
    })
    .join('');
}

/** The text without its marks, links written out ("texto (https://…)"): the e-mail's text part. */
export function announcementPlainText(source: string): string {
  return parseAnnouncement(source)
    .map((p) => inlineText(p.children))
    .join('\n\n');
}

/** The first paragraph without marks, cut to `max` characters (a preview line). */
export function announcementExcerpt(source: string, max = 160): string {
  const first = parseAnnouncement(source)[0];
  const text = first ? inlineText(first.children).replace(/\s+/g, ' ').trim() : '';
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
