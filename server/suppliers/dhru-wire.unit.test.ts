import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  customFields,
  decodeBulkRows,
  decodeParameters,
  encodeBase64Json,
  encodeParametersJson,
  encodeParametersXml,
  errorEnvelope,
  isEmptyParameterBlock,
  jsonDepthWithin,
  MAX_JSON_DEPTH,
  paramLookup,
  parseEnvelope,
  successEnvelope,
} from './dhru-wire';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

describe('encodeParametersXml', () => {
  it('writes the tags as given, values escaped', () => {
    expect(encodeParametersXml({ ID: '1382', IMEI: '359702373699048' })).toBe(
      '<PARAMETERS><ID>1382</ID><IMEI>359702373699048</IMEI></PARAMETERS>',
    );
    expect(encodeParametersXml({ SecRO: `a<b>&"c'` })).toBe(
      '<PARAMETERS><SecRO>a&lt;b&gt;&amp;&quot;c&apos;</SecRO></PARAMETERS>',
    );
    expect(encodeParametersXml({})).toBe('<PARAMETERS></PARAMETERS>');
  });

  it('refuses a name that is not a tag name', () => {
    expect(() => encodeParametersXml({ 'A B': '1' })).toThrow(RangeError);
    expect(() => encodeParametersXml({ '<x>': '1' })).toThrow(RangeError);
  });
});

describe('decodeParameters', () => {
  it('reads the XML dialect, with a prolog, CDATA, entities and references', () => {
    expect(
      decodeParameters(
        `  <?xml version="1.0" encoding="utf-8"?>\n<PARAMETERS>\n  <ID>1382</ID>\n  <IMEI><![CDATA[35970<2>37]]>3699048</IMEI>\n  <NOTE>a &amp; b &lt;c&gt; &#65;&#x42;</NOTE><EMPTY/><BLANK></BLANK>\n</PARAMETERS>  `,
      ),
    ).toEqual({
      ID: '1382',
      IMEI: '35970<2>373699048',
      NOTE: 'a & b <c> AB',
      EMPTY: '',
      BLANK: '',
    });
    expect(decodeParameters('<PARAMETERS/>')).toEqual({});
    expect(decodeParameters('<parameters><id>7</id></parameters>')).toEqual({ id: '7' });
  });

  it('refuses DTDs, entities, stylesheets and anything not flat', () => {
    for (const bad of [
      '<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><PARAMETERS><ID>&xxe;</ID></PARAMETERS>',
      '<PARAMETERS><!ENTITY a "b"><ID>1</ID></PARAMETERS>',
      '<?xml-stylesheet href="x"?><PARAMETERS><ID>1</ID></PARAMETERS>',
      '<PARAMETERS><ID><X>1</X></ID></PARAMETERS>',
      '<PARAMETERS><ID>1</IMEI></PARAMETERS>',
      '<PARAMETERS><ID>1</ID>',
      '<PARAMETERS><ID>1</ID></PARAMETERS><MORE/>',
      '<PARAMETERS>text<ID>1</ID></PARAMETERS>',
      '<PARAMETERS><ID>a & b</ID></PARAMETERS>',
      '<PARAMETERS><ID>&nbsp;</ID></PARAMETERS>',
      '<PARAMETERS><ID>&#0;</ID></PARAMETERS>',
      '<PARAMETERS><ID><![CDATA[x</ID></PARAMETERS>',
      '<',
    ]) {
      expect(decodeParameters(bad), bad).toBeNull();
    }
  });

  it('reads base64 JSON, standard or url-safe, padded or not', () => {
    const params = { ID: '1382', IMEI: '359702373699048', NOTE: '¿Sí? ~~~>>>' };
    const standard = b64(params);
    expect(standard).toMatch(/[+/=]/);
    expect(decodeParameters(standard)).toEqual(params);
    expect(decodeParameters(standard.replace(/=+$/, ''))).toEqual(params);
    const urlSafe = standard.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(decodeParameters(urlSafe)).toEqual(params);
    expect(decodeParameters(`\n${standard.slice(0, 8)}\r\n${standard.slice(8)}  `)).toEqual(params);
  });

  it('writes numbers and nested objects out as strings', () => {
    expect(decodeParameters(b64({ ID: 1382, QNT: 1.5, ROW: { ID: '1' }, LIST: [1] }))).toEqual({
      ID: '1382',
      QNT: '1.5',
      ROW: '{"ID":"1"}',
      LIST: '[1]',
    });
  });

  it('refuses what is not base64 of a JSON object', () => {
    for (const bad of [
      '',
      '   ',
      'not base64!',
      b64(['a']),
      b64('text'),
      b64(null),
      Buffer.from('{"ID":').toString('base64'),
      Buffer.from([0xff, 0xfe, 0x7b]).toString('base64'),
      'e30=e30=',
      'e',
    ]) {
      expect(decodeParameters(bad), bad).toBeNull();
    }
  });

  it('round-trips both dialects', () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/);
    // Characters XML 1.0 can carry (no NUL or other C0 controls besides tab, LF and CR).
    const xmlChar = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) =>
      [...s].every((ch) => {
        const code = ch.codePointAt(0) ?? 0;
        return (
          (code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) &&
          code !== 0xfffe &&
          code !== 0xffff
        );
      }),
    );
    fc.assert(
      fc.property(fc.dictionary(name, xmlChar, { maxKeys: 8 }), (params) => {
        expect(decodeParameters(encodeParametersXml(params))).toEqual(params);
      }),
    );
    fc.assert(
      fc.property(
        fc.dictionary(name, fc.string({ unit: 'grapheme' }), { maxKeys: 8 }),
        (params) => {
          expect(decodeParameters(encodeParametersJson(params))).toEqual(params);
        },
      ),
    );
    // A property test: generous time on a loaded CI machine.
  }, 30_000);
});

describe('customFields and paramLookup', () => {
  it('decodes CUSTOMFIELD whatever its case', () => {
    const custom = { Username: 'ana', 'E-mail': 'ana@example.com' };
    expect(customFields({ CUSTOMFIELD: encodeBase64Json(custom) })).toEqual(custom);
    expect(customFields({ customfield: encodeBase64Json(custom) })).toEqual(custom);
    expect(customFields({ ID: '1' })).toEqual({});
    expect(customFields({ CUSTOMFIELD: '' })).toEqual({});
    expect(customFields({ CUSTOMFIELD: 'nope!' })).toBeNull();
    expect(customFields({ CUSTOMFIELD: b64(['x']) })).toBeNull();
  });

  it('reads null, "", [] and {} as no custom fields (a DHRU panel sends base64 of null)', () => {
    expect(b64(null)).toBe('bnVsbA==');
    for (const empty of [null, '', [], {}])
      expect(customFields({ customfield: b64(empty) })).toEqual({});
    expect(customFields({ CUSTOMFIELD: '{"Email":"a@b.co","n":5,"x":null}' })).toEqual({
      Email: 'a@b.co',
      n: '5',
      x: '',
    });
  });

  it('reads custom fields inside XML parameters', () => {
    const params = decodeParameters(
      encodeParametersXml({ ID: '4100', CUSTOMFIELD: encodeBase64Json({ Email: 'a@b.co' }) }),
    );
    expect(params && customFields(params)).toEqual({ Email: 'a@b.co' });
  });

  it('compares names case-insensitively, an exact match first', () => {
    expect(paramLookup({ Id: '7' }, 'ID')).toBe('7');
    expect(paramLookup({ id: '1', ID: '2' }, 'ID')).toBe('2');
    expect(paramLookup({ IMEI: '1' }, 'ID')).toBeNull();
  });
});

describe('envelopes', () => {
  it('builds the standard shapes', () => {
    expect(successEnvelope({ MESSAGE: 'Order received', REFERENCEID: '2323' })).toEqual({
      SUCCESS: [{ MESSAGE: 'Order received', REFERENCEID: '2323' }],
      apiversion: '6.1',
    });
    expect(errorEnvelope('Not enough credits')).toEqual({
      ERROR: [{ MESSAGE: 'Not enough credits' }],
      apiversion: '6.1',
    });
    expect(errorEnvelope('Invalid IMEI', 'Check digit', '8.1')).toEqual({
      ERROR: [{ MESSAGE: 'Invalid IMEI', FULL_DESCRIPTION: 'Check digit' }],
      apiversion: '8.1',
    });
  });

  it('parses success, error and everything else', () => {
    expect(parseEnvelope(JSON.stringify(successEnvelope({ REFERENCEID: 9 })))).toEqual({
      kind: 'success',
      payload: { REFERENCEID: 9 },
    });
    expect(parseEnvelope('{"success":[{"message":"ok"}]}')).toEqual({
      kind: 'success',
      payload: { message: 'ok' },
    });
    expect(parseEnvelope(JSON.stringify(errorEnvelope('Duplicate IMEI')))).toEqual({
      kind: 'error',
      message: 'Duplicate IMEI',
    });
    expect(
      parseEnvelope('{"error":[{"message":"Invalid IMEI","full_description":"Luhn"}]}'),
    ).toEqual({ kind: 'error', message: 'Invalid IMEI: Luhn' });
    expect(parseEnvelope('{"ERROR":[],"SUCCESS":[{"A":1}]}')).toEqual({
      kind: 'success',
      payload: { A: 1 },
    });
    for (const bad of ['', '<html>', '[]', '"SUCCESS"', '{"apiversion":"6.1"}', '{"1":{}}']) {
      expect(parseEnvelope(bad), bad).toEqual({ kind: 'invalid' });
    }
  });
});

describe('jsonDepthWithin', () => {
  it('regression: nesting 100,000 deep overflowed the stack when read back into text', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(jsonDepthWithin(deep)).toBe(false);
    const b64 = Buffer.from(`{"ID":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`).toString(
      'base64',
    );
    expect(decodeParameters(b64)).toBeNull();
  });

  it('counts brackets outside strings only', () => {
    expect(jsonDepthWithin(`{"a":"${'['.repeat(100)}"}`)).toBe(true);
    // An escaped quote stays inside the string; an escaped backslash ends before the quote.
    expect(jsonDepthWithin(`{"a":"\\"${'['.repeat(MAX_JSON_DEPTH)}"}`)).toBe(true);
    expect(jsonDepthWithin(`{"a":"\\\\"${'['.repeat(MAX_JSON_DEPTH)}`)).toBe(false);
    expect(jsonDepthWithin('['.repeat(MAX_JSON_DEPTH))).toBe(true);
    expect(jsonDepthWithin('['.repeat(MAX_JSON_DEPTH + 1))).toBe(false);
  });
});

describe('isEmptyParameterBlock', () => {
  it('knows every way clients send no parameters', () => {
    for (const raw of [
      '',
      '\n',
      '   ',
      '< />',
      '<PARAMETERS/>',
      '<PARAMETERS />',
      '<PARAMETERS></PARAMETERS>',
      '<?xml version="1.0"?><PARAMETERS/>',
      b64(null),
      b64([]),
      b64({}),
      '{}',
    ])
      expect(isEmptyParameterBlock(raw), JSON.stringify(raw)).toBe(true);
    for (const raw of [
      '<PARAMETERS><ID>1</ID></PARAMETERS>',
      b64({ ID: '1' }),
      'nope',
      '<',
      b64([{ ID: '1' }]),
    ])
      expect(isEmptyParameterBlock(raw), raw).toBe(false);
  });
});

describe('decodeBulkRows', () => {
  it('keys an object by its references and a list by its indexes', () => {
    expect(decodeBulkRows(b64({ r1: { ID: '1' }, r2: { ID: '2' } }))).toEqual(
      new Map([
        ['r1', { ID: '1' }],
        ['r2', { ID: '2' }],
      ]),
    );
    expect(decodeBulkRows(b64([{ ID: '1', MODELID: null }, 'x', { ID: '3' }]))).toEqual(
      new Map([
        ['0', { ID: '1', MODELID: null }],
        ['2', { ID: '3' }],
      ]),
    );
    expect(decodeBulkRows('nope')).toBeNull();
    expect(decodeBulkRows(b64('text'))).toBeNull();
  });
});

describe('decodeParameters of JSON sent without base64', () => {
  it('reads a JSON object as it is, and still refuses what is neither dialect', () => {
    expect(decodeParameters('{"ID":"1382","IMEI":"359702373699048"}')).toEqual({
      ID: '1382',
      IMEI: '359702373699048',
    });
    expect(decodeParameters('{not json')).toBeNull();
    expect(decodeParameters('[1,2]')).toBeNull();
  });
});
