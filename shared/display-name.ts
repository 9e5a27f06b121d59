// Header name rules (docs/domain.md §8).
export const DEFAULT_DISPLAY_NAME = 'Usuario';
const MAX_NAME_LENGTH = 20;
const CUT_NAME_LENGTH = 17;

/** The name shown in the user menu: 'Usuario' when missing, cut to 17 + '...' past 20 characters. */
export function displayName(name: string | null | undefined): string {
  const trimmed = (name ?? '').trim();
  if (trimmed === '') return DEFAULT_DISPLAY_NAME;
  const chars = Array.from(trimmed);
  return chars.length > MAX_NAME_LENGTH
    ? `${chars.slice(0, CUT_NAME_LENGTH).join('')}...`
    : trimmed;
}

/** The avatar letter: first letter of the name in uppercase, or '?' when the name is empty. */
export function avatarLetter(name: string | null | undefined): string {
  const first = Array.from((name ?? '').trim())[0];
  return first ? first.toLocaleUpperCase('es') : '?';
}
