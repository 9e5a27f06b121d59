// The few Bot API methods Cometa calls (sendMessage, getMe), with plain fetch against
// `<TELEGRAM_API_BASE>/bot<token>/<method>`. Every answer is `{ ok, result }` or
// `{ ok: false, error_code, description, parameters? }`; the outcome is classified for the sender.
import type { Env } from '../../env';

export type TelegramConfig = NonNullable<Env['telegram']>;

export type SendOutcome =
  | { kind: 'sent'; messageId: number | null }
  /** 429: wait `retryAfter` seconds and send again (not a failure). */
  | { kind: 'rate-limited'; retryAfter: number }
  /** 403 (blocked, deactivated) or 400 chat not found: this chat cannot be written to. */
  | { kind: 'unreachable'; description: string }
  /** Another 4xx: this message will never go through (a bug of ours); dropped. */
  | { kind: 'refused'; description: string }
  /** 5xx, a network error or a time-out: try again later. */
  | { kind: 'failed'; description: string };

type ApiAnswer = {
  ok?: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
};

const TIMEOUT_MS = 10_000;

async function call(
  config: TelegramConfig,
  method: string,
  body: object,
): Promise<{ status: number; answer: ApiAnswer }> {
  const res = await fetch(`${config.apiBase}/bot${config.token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  let answer: ApiAnswer = {};
  try {
    answer = (await res.json()) as ApiAnswer;
  } catch {
    answer = { ok: false, description: `HTTP ${res.status}` };
  }
  return { status: res.status, answer };
}

/** Chats that can no longer be written to (the person blocked the bot, left, or never started). */
function unreachable(status: number, description: string): boolean {
  if (status === 403) return true;
  return status === 400 && /chat not found|user not found|peer_id_invalid/i.test(description);
}

export async function sendMessage(
  config: TelegramConfig,
  chatId: string,
  html: string,
): Promise<SendOutcome> {
  let status: number;
  let answer: ApiAnswer;
  try {
    ({ status, answer } = await call(config, 'sendMessage', {
      chat_id: chatId,
      text: html,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    }));
  } catch (err) {
    return { kind: 'failed', description: err instanceof Error ? err.message : String(err) };
  }
  if (answer.ok === true) {
    const result = answer.result as { message_id?: number } | undefined;
    return { kind: 'sent', messageId: result?.message_id ?? null };
  }
  const code = answer.error_code ?? status;
  const description = answer.description ?? `HTTP ${status}`;
  if (code === 429)
    return {
      kind: 'rate-limited',
      retryAfter: Math.max(1, Math.min(3600, answer.parameters?.retry_after ?? 5)),
    };
  if (unreachable(code, description)) return { kind: 'unreachable', description };
  if (code >= 400 && code < 500 && code !== 401 && code !== 404)
    return { kind: 'refused', description };
  return { kind: 'failed', description };
}

const usernames = new Map<string, Promise<string>>();

/** The bot's username: TELEGRAM_BOT_USERNAME, else read once per process with getMe. */
export function botUsername(config: TelegramConfig): Promise<string> {
  if (config.username) return Promise.resolve(config.username);
  const key = `${config.apiBase}|${config.token}`;
  let found = usernames.get(key);
  if (!found) {
    found = call(config, 'getMe', {}).then(({ answer }) => {
      const result = answer.result as { username?: string } | undefined;
      if (!answer.ok || !result?.username)
        throw new Error(`getMe failed: ${answer.description ?? 'no username'}`);
      return result.username;
    });
    // A failure is not kept: the next link asks again.
    found.catch(() => usernames.delete(key));
    usernames.set(key, found);
  }
  return found;
}
