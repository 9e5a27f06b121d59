/**
 * A 15-digit IMEI with a correct Luhn check digit: `35`, then `seed` in 12 digits (pad with a
 * run-specific prefix where IMEIs must differ between runs against one database).
 */
export function imeiFor(seed: number | string): string {
  const body = `35${String(seed).padStart(12, '0')}`.slice(0, 14);
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const t = Number(body[i]) * ((i % 2) + 1);
    sum += (t % 10) + Math.floor(t / 10);
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}
