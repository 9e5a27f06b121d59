/** /login, coming back to `path` afterwards; `expired` says the session ended meanwhile. */
export function loginUrl(path: string, expired: boolean): string {
  return `/login?next=${encodeURIComponent(path)}${expired ? '&motivo=expirada' : ''}`;
}
