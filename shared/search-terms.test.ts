import { describe, expect, it } from 'vitest';
import { searchTerms } from './search-terms';

describe('IMEIs as people write them were not found by the search (issue 20)', () => {
  it('an IMEI with dashes, dots or slashes is searched as its 15 digits', () => {
    expect(searchTerms('35-970237-369904-8')).toEqual(['359702373699048']);
    expect(searchTerms('35.970237.369904.8, 35/332211/000066/9')).toEqual([
      '359702373699048',
      '353322110000669',
    ]);
  });

  it('an IMEI split by spaces is one term when its digits make a valid IMEI', () => {
    expect(searchTerms('35 970237 369904 8')).toEqual(['359702373699048']);
    expect(searchTerms('#42 35 332211 000066 9 #7')).toEqual(['42', '353322110000669', '7']);
    // Not a valid IMEI together: each number stays an order number.
    expect(searchTerms('12 345 678')).toEqual(['12', '345', '678']);
  });

  it('keeps order numbers, identifiers and lines as before', () => {
    expect(searchTerms('359702373699048 #42\n43;  ABC123 ,,')).toEqual([
      '359702373699048',
      '42',
      '43',
      'ABC123',
    ]);
    expect(searchTerms('')).toEqual([]);
    expect(searchTerms('#')).toEqual([]);
  });

  it('a link without a scheme is searched as stored too', () => {
    expect(searchTerms('instagram.com/tienda')).toEqual([
      'instagram.com/tienda',
      'https://instagram.com/tienda',
    ]);
    expect(searchTerms('https://instagram.com/tienda')).toEqual(['https://instagram.com/tienda']);
  });
});
