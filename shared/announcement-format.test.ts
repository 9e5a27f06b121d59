import { describe, expect, it } from 'vitest';
import {
  announcementExcerpt,
  announcementHtml,
  announcementPlainText,
  parseAnnouncement,
  safeLinkUrl,
} from './announcement-format';

describe('parseAnnouncement', () => {
  it('splits paragraphs on blank lines and keeps line breaks inside one', () => {
    expect(parseAnnouncement('Hola\nmundo\n\n  \nAdiós')).toEqual([
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'Hola' },
          { type: 'break' },
          { type: 'text', text: 'mundo' },
        ],
      },
      { type: 'paragraph', children: [{ type: 'text', text: 'Adiós' }] },
    ]);
    expect(parseAnnouncement('  \r\n ')).toEqual([]);
    expect(parseAnnouncement('a\r\n\r\nb')).toHaveLength(2);
  });

  it('reads bold, italic and bold inside italic', () => {
    expect(parseAnnouncement('**Nuevo** precio *hoy*')[0]?.children).toEqual([
      { type: 'strong', children: [{ type: 'text', text: 'Nuevo' }] },
      { type: 'text', text: ' precio ' },
      { type: 'em', children: [{ type: 'text', text: 'hoy' }] },
    ]);
    expect(parseAnnouncement('*muy **importante** ya*')[0]?.children).toEqual([
      {
        type: 'em',
        children: [
          { type: 'text', text: 'muy ' },
          { type: 'strong', children: [{ type: 'text', text: 'importante' }] },
          { type: 'text', text: ' ya' },
        ],
      },
    ]);
  });

  it('leaves unclosed or empty marks as text', () => {
    expect(parseAnnouncement('2 * 3 = 6')[0]?.children).toEqual([
      { type: 'text', text: '2 * 3 = 6' },
    ]);
    expect(parseAnnouncement('**sin cerrar')[0]?.children).toEqual([
      { type: 'text', text: '**sin cerrar' },
    ]);
    expect(parseAnnouncement('****')[0]?.children).toEqual([{ type: 'text', text: '****' }]);
  });

  it('reads https links only', () => {
    expect(parseAnnouncement('Mira [la guía](https://ejemplo.com/guia?a=1).')[0]?.children).toEqual(
      [
        { type: 'text', text: 'Mira ' },
        {
          type: 'link',
          href: 'https://ejemplo.com/guia?a=1',
          children: [{ type: 'text', text: 'la guía' }],
        },
        { type: 'text', text: '.' },
      ],
    );
    for (const bad of [
      '[x](http://ejemplo.com)',
      '[x](javascript:alert(1))',
      '[x](JAVASCRIPT:alert(1))',
      '[x](data:text/html,<script>alert(1)</script>)',
      '[x](//ejemplo.com)',
      '[x](https://ejemplo.com" onclick="alert(1))',
      '[x](https://user:pass@ejemplo.com)',
      '[](https://ejemplo.com)',
    ])
      expect(
        parseAnnouncement(bad)[0]?.children.every((n) => n.type === 'text'),
        bad,
      ).toBe(true);
  });

  it('keeps HTML and script as text', () => {
    const source = '<script>alert("x")</script> <img src=x onerror=alert(1)> **<b>hola</b>**';
    const [p] = parseAnnouncement(source);
    expect(p?.children[0]).toEqual({
      type: 'text',
      text: '<script>alert("x")</script> <img src=x onerror=alert(1)> ',
    });
    const html = announcementHtml(source);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
    expect(html).toContain('<strong>&#60;b&#62;hola&#60;/b&#62;</strong>');
  });
});

describe('announcementHtml and announcementPlainText', () => {
  const source =
    '**Mantenimiento** el *lunes*.\nDetalles: [aquí](https://ejemplo.com/a&b)\n\nGracias';

  it('writes escaped HTML with safe links', () => {
    expect(announcementHtml(source)).toBe(
      '<p><strong>Mantenimiento</strong> el <em>lunes</em>.<br>Detalles: <a href="https://ejemplo.com/a&#38;b" rel="noopener noreferrer" target="_blank">aquí</a></p>\n<p>Gracias</p>',
    );
    expect(announcementHtml('a', 'margin:0')).toBe('<p style="margin:0">a</p>');
  });

  it('writes the plain text without marks, links spelled out', () => {
    expect(announcementPlainText(source)).toBe(
      'Mantenimiento el lunes.\nDetalles: aquí (https://ejemplo.com/a&b)\n\nGracias',
    );
  });

  it('cuts an excerpt of the first paragraph', () => {
    expect(announcementExcerpt(source)).toBe(
      'Mantenimiento el lunes. Detalles: aquí (https://ejemplo.com/a&b)',
    );
    expect(announcementExcerpt('abcdefghij', 5)).toBe('abcd…');
  });
});

describe('safeLinkUrl', () => {
  it('accepts https addresses and nothing else', () => {
    expect(safeLinkUrl('https://ejemplo.com')).toBe('https://ejemplo.com/');
    expect(safeLinkUrl('http://ejemplo.com')).toBeNull();
    expect(safeLinkUrl('https://')).toBeNull();
    expect(safeLinkUrl('https://ejemplo.com/<x>')).toBeNull();
  });
});
