import { describe, expect, it } from 'vitest';
import { describeDevice, deviceHash, placeOf, shortenIp } from './devices';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0';
const EDGE_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70';
const ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('describeDevice', () => {
  it('names the common browsers, systems and kinds of device in Spanish', () => {
    expect(describeDevice(CHROME_WINDOWS, null)).toMatchObject({
      device: 'Ordenador',
      browser: 'Chrome 131 en Windows',
    });
    expect(describeDevice(SAFARI_IPHONE, null)).toMatchObject({
      device: 'Móvil',
      browser: 'Safari 18 en iPhone',
    });
    expect(describeDevice(FIREFOX_ANDROID, null)).toMatchObject({
      device: 'Móvil',
      browser: 'Firefox 132 en Android',
    });
    expect(describeDevice(EDGE_MAC, null).browser).toBe('Edge 131 en macOS');
    expect(describeDevice(ANDROID_TABLET, null).device).toBe('Tableta');
  });

  it('says so when it cannot tell', () => {
    expect(describeDevice(null, null)).toEqual({
      device: 'Dispositivo desconocido',
      browser: 'Navegador desconocido',
      ip: null,
      place: 'Ubicación desconocida',
    });
    expect(describeDevice('curl/8.5.0', '203.0.113.7').browser).toBe('Navegador desconocido');
  });
});

describe('addresses', () => {
  it('shortens addresses to recognise them without keeping them whole', () => {
    expect(shortenIp('203.0.113.7')).toBe('203.0.113.x');
    expect(shortenIp('::ffff:203.0.113.7')).toBe('203.0.113.x');
    expect(shortenIp('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::x');
  });

  it('tells the local network from the internet', () => {
    expect(placeOf('192.168.1.20')).toBe('Red local');
    expect(placeOf('10.1.2.3')).toBe('Red local');
    expect(placeOf('127.0.0.1')).toBe('Red local');
    expect(placeOf('::1')).toBe('Red local');
    expect(placeOf('::ffff:10.0.0.1')).toBe('Red local');
    expect(placeOf('203.0.113.7')).toBe('Internet');
    expect(placeOf(null)).toBe('Ubicación desconocida');
    expect(placeOf('not an address')).toBe('Ubicación desconocida');
  });

  it('identifies a browser by a hash of its user agent', () => {
    expect(deviceHash(CHROME_WINDOWS)).toBe(deviceHash(CHROME_WINDOWS));
    expect(deviceHash(CHROME_WINDOWS)).not.toBe(deviceHash(SAFARI_IPHONE));
    expect(deviceHash(CHROME_WINDOWS)).toMatch(/^[0-9a-f]{64}$/);
    expect(deviceHash(null)).toBe(deviceHash(''));
  });
});
