// An error a job can hand to pg-boss and a log line can carry. pg-boss stores a failed job's
// error as JSON in the database: an error carrying a BigInt (a database error keeps its query
// parameters) cannot be serialised, and one whose text holds NUL is refused by PostgreSQL; either
// way pg-boss's own call failed outside any handler and took the process down.
import { plainText } from '../suppliers/decimal';

const MESSAGE_MAX = 2000;
const STACK_MAX = 8000;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function textOf(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === 'string') return value;
  try {
    return (
      JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ??
      String(value)
    );
  } catch {
    return String(value);
  }
}

/**
 * A plain Error with only a name, a message and a stack, all text without NUL or controls and
 * of bounded length; the database code of the cause (SQLSTATE) is kept in the message.
 */
export function safeError(err: unknown): Error {
  const cause = err instanceof Error ? (err as Error & { cause?: unknown }).cause : undefined;
  const code =
    cause && typeof cause === 'object' && typeof (cause as { code?: unknown }).code === 'string'
      ? ` [${(cause as { code: string }).code}]`
      : '';
  const safe = new Error(clip(plainText(`${textOf(err)}${code}`), MESSAGE_MAX));
  safe.name = err instanceof Error ? plainText(err.name).slice(0, 100) : 'Error';
  safe.stack =
    err instanceof Error && typeof err.stack === 'string'
      ? clip(plainText(err.stack), STACK_MAX)
      : `${safe.name}: ${safe.message}`;
  return safe;
}
