// Phone numbers as Better Auth's phone plugin takes them: E.164 ("+34600111222"). Shared by the
// sign-in with a phone (/login) and the phone on Mi perfil → Seguridad.

export const PHONE_ERROR =
  'Escribe el número con el prefijo del país, por ejemplo +34 600 111 222.';

/** What the person typed, without spaces, dots, dashes or brackets; "00" becomes "+". */
export function normalizePhone(text: string): string {
  const compact = text.trim().replace(/[\s.\-()]/g, '');
  return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}

/** Why a (normalized) number cannot be used, or null when it is a plausible E.164 number. */
export function phoneProblem(phone: string): string | null {
  if (phone === '') return 'Escribe tu número de teléfono.';
  return /^\+[1-9]\d{6,14}$/.test(phone) ? null : PHONE_ERROR;
}
