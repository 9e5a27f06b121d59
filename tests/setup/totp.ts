// The code an authenticator app shows, computed by the tests from the `otpauth://` URI the
// two-factor enrolment returns (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits). Test code only:
// the product uses Better Auth's own TOTP.
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The base32 secret inside an `otpauth://totp/...?secret=...` URI. */
export function secretOf(totpUri: string): string {
  const secret = new URL(totpUri).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${totpUri}`);
  return secret;
}

/** The 6-digit code for `secret` (base32) at `time` (default now), `step` periods away. */
export function totpCode(secret: string, time = Date.now(), step = 0): string {
  const counter = Math.floor(time / 1000 / 30) + step;
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const hmac = createHmac('sha1', base32Decode(secret)).update(message).digest();
  const offset = (hmac[hmac.length - 1] ?? 0) & 0x0f;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/** One TOTP step, in milliseconds. */
export const TOTP_STEP_MS = 30_000;

/**
 * The step to use after `lastUsed`, at step `now`: Cometa accepts the current step and its
 * neighbours, but only a step newer than the last one the account used. Null while the next
 * usable step is still more than one step ahead (wait for the clock).
 */
export function nextTotpStep(lastUsed: number | null, now: number): number | null {
  const step = lastUsed === null ? now : Math.max(now, lastUsed + 1);
  return step <= now + 1 ? step : null;
}

const lastStepUsed = new Map<string, number>();

/**
 * A code for `secret` of a step this process has not handed out before (so the server has not
 * accepted it yet), as a person would wait for the next code of their app; waits for the clock
 * when two steps were used within one.
 */
export async function freshTotpCode(secret: string): Promise<string> {
  for (;;) {
    const now = Math.floor(Date.now() / TOTP_STEP_MS);
    const step = nextTotpStep(lastStepUsed.get(secret) ?? null, now);
    if (step !== null) {
      lastStepUsed.set(secret, step);
      return totpCode(secret, step * TOTP_STEP_MS);
    }
    await new Promise((resolve) => setTimeout(resolve, TOTP_STEP_MS - (Date.now() % TOTP_STEP_MS)));
  }
}
