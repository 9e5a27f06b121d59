// What a session's user agent and address tell a person about the device: "Chrome 131 en
// Windows", "Móvil", "Red local". A small parser for the browsers people use (no database of
// every agent), and no geolocation database: a public address shows shortened, private ones as
// "Red local".
import { createHash } from 'node:crypto';
import net from 'node:net';

export type DeviceDescription = {
  device: string;
  browser: string;
  ip: string | null;
  place: string;
};

/** Identifies a browser across sessions (the user agent, hashed: the raw string is not kept). */
export function deviceHash(userAgent: string | null | undefined): string {
  return createHash('sha256')
    .update((userAgent ?? '').trim() || 'unknown')
    .digest('hex');
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/SamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/FxiOS\/(\d+)/, 'Firefox'],
  [/CriOS\/(\d+)/, 'Chrome'],
  [/Chrome\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari/, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

function browserOf(ua: string): string | null {
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) return `${name} ${m[1] ?? ''}`.trim();
  }
  return null;
}

function systemOf(ua: string): string | null {
  return SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? null;
}

function kindOf(ua: string): string {
  if (/iPad|Tablet/.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua))) return 'Tableta';
  if (/Mobi|iPhone|Android/.test(ua)) return 'Móvil';
  if (/Windows|Macintosh|X11|Linux|CrOS/.test(ua)) return 'Ordenador';
  return 'Dispositivo desconocido';
}

const PRIVATE = (() => {
  const list = new net.BlockList();
  list.addSubnet('10.0.0.0', 8, 'ipv4');
  list.addSubnet('172.16.0.0', 12, 'ipv4');
  list.addSubnet('192.168.0.0', 16, 'ipv4');
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addSubnet('169.254.0.0', 16, 'ipv4');
  list.addSubnet('100.64.0.0', 10, 'ipv4');
  list.addAddress('::1', 'ipv6');
  list.addSubnet('fc00::', 7, 'ipv6');
  list.addSubnet('fe80::', 10, 'ipv6');
  return list;
})();

/** 203.0.113.7 → 203.0.113.x; 2001:db8:1:2::5 → 2001:db8:1:2::x (enough to recognise, not more). */
export function shortenIp(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+)\.\d+$/i.exec(ip);
  if (v4) return `${v4[1]}.x`;
  if (net.isIP(ip) === 6) return `${ip.split(':').slice(0, 4).join(':')}::x`;
  return ip;
}

export function placeOf(ip: string | null): string {
  if (!ip) return 'Ubicación desconocida';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip;
  const family = net.isIP(mapped);
  if (family === 0) return 'Ubicación desconocida';
  return PRIVATE.check(mapped, family === 6 ? 'ipv6' : 'ipv4') ? 'Red local' : 'Internet';
}

export function describeDevice(
  userAgent: string | null | undefined,
  ip: string | null,
): DeviceDescription {
  const ua = (userAgent ?? '').trim();
  const browser = browserOf(ua);
  const system = systemOf(ua);
  return {
    device: ua === '' ? 'Dispositivo desconocido' : kindOf(ua),
    browser:
      browser && system
        ? `${browser} en ${system}`
        : (browser ?? (system ? `Navegador en ${system}` : 'Navegador desconocido')),
    ip: ip ? shortenIp(ip) : null,
    place: placeOf(ip),
  };
}
