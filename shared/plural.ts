// Counted words for people: «1 recarga pendiente», «3 órdenes creadas», never «recarga(s)».

/** «1 orden», «3 órdenes», «0 órdenes»: the count and the form of the word that goes with it. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${pluralWord(n, one, many)}`;
}

/** Only the word: `one` for exactly 1 (and -1), `many` otherwise («0 órdenes» in Spanish). */
export function pluralWord(n: number, one: string, many: string): string {
  return Math.abs(n) === 1 ? one : many;
}
