// The queue's keyboard and its «age» column, as pure functions (unit-tested).

/** What a key pressed on a focused row of the queue does. */
export type RowKeyAction = { move: number } | { toggle: true } | { open: true } | null;

/**
 * j / ↓ next row, k / ↑ previous, Home / End first and last, x / space select the row, Enter
 * opens it (focuses its first button). Keys with a modifier are left to the browser.
 */
export function rowKeyAction(
  key: string,
  mods: { ctrl?: boolean; meta?: boolean; alt?: boolean } = {},
): RowKeyAction {
  if (mods.ctrl || mods.meta || mods.alt) return null;
  switch (key) {
    case 'j':
    case 'ArrowDown':
      return { move: 1 };
    case 'k':
    case 'ArrowUp':
      return { move: -1 };
    case 'Home':
      return { move: -Infinity };
    case 'End':
      return { move: Infinity };
    case 'x':
    case ' ':
      return { toggle: true };
    case 'Enter':
      return { open: true };
    default:
      return null;
  }
}

/** The row a move lands on, kept inside the list. */
export function movedIndex(index: number, move: number, count: number): number {
  if (count === 0) return 0;
  if (move === -Infinity) return 0;
  if (move === Infinity) return count - 1;
  return Math.min(count - 1, Math.max(0, index + move));
}

/** How long ago an order was placed, short: «ahora», «5 min», «3 h», «2 d». */
export function orderAge(createdAt: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(createdAt)) / 60_000));
  if (minutes < 1) return 'ahora';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}
