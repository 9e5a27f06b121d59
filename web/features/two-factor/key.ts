// Pure helpers of the two-factor enrolment: what the person types or keeps, taken from what
// Better Auth answers (`totpURI`, `backupCodes`).

/** The base32 secret of an `otpauth://totp/...?secret=...` URI, or null when it has none. */
export function secretOf(totpURI: string): string | null {
  try {
    const secret = new URL(totpURI).searchParams.get('secret');
    return secret ? secret.toUpperCase() : null;
  } catch {
    return null;
  }
}

/** The secret as the person types it into an app by hand: blocks of 4 ("ABCD EFGH IJ"). */
export function groupedKey(secret: string): string {
  return (secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/** The contents of the backup codes file ("Descargar códigos"). */
export function backupCodesText(codes: readonly string[], account: string, appName: string) {
  return [
    `Códigos de respaldo de ${appName}`,
    `Cuenta: ${account}`,
    '',
    'Cada código sirve una sola vez para entrar si no tienes tu aplicación de autenticación.',
    'Guárdalos en un lugar seguro.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** A 6-digit code as typed: spaces and dashes removed. */
export function cleanCode(value: string): string {
  return value.replace(/[\s-]/g, '');
}
