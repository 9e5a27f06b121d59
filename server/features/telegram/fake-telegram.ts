// Test support: a local stand-in for the Bot API methods Cometa calls (sendMessage, getMe,
// setWebhook), at `/bot<token>/<method>` like api.telegram.org. It records every message, checks
// the token, and can be told to answer 429 (with `retry_after`) or 403 (bot blocked) for a chat.
// No test-runner imports, so browser tests can start it too.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeTelegramMessage = {
  chatId: string;
  text: string;
  parseMode: string | null;
  messageId: number;
  at: number;
};

export type FakeTelegram = {
  /** e.g. http://127.0.0.1:41234: give it to TELEGRAM_API_BASE. */
  baseUrl: string;
  token: string;
  username: string;
  /** Messages delivered, oldest first. */
  messages: FakeTelegramMessage[];
  /** Every call, delivered or refused, oldest first. */
  calls: { method: string; chatId: string | null; status: number; at: number }[];
  /** The webhook set with setWebhook. */
  webhook: { url: string; secretToken: string | null } | null;
  /** The next `times` sendMessage calls to `chatId` answer 429 with `retry_after`. */
  rateLimit: (chatId: string, retryAfter: number, times?: number) => void;
  /** Every sendMessage to `chatId` answers 403 «bot was blocked by the user» from now on. */
  block: (chatId: string) => void;
  /** Every sendMessage to `chatId` answers 400 «chat not found» from now on. */
  forget: (chatId: string) => void;
  /** The next `times` sendMessage calls to `chatId` answer 502 (a passing failure). */
  fail: (chatId: string, times?: number) => void;
  /** Messages delivered to one chat. */
  to: (chatId: string) => FakeTelegramMessage[];
  reset: () => void;
  close: () => Promise<void>;
};

export const FAKE_TELEGRAM_TOKEN = '123456789:AAFakeTokenForTestsOnly_0123456789abc';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startFakeTelegram(
  options: { token?: string; username?: string; port?: number } = {},
): Promise<FakeTelegram> {
  const token = options.token ?? FAKE_TELEGRAM_TOKEN;
  const username = options.username ?? 'cometa_test_bot';
  const messages: FakeTelegramMessage[] = [];
  const calls: FakeTelegram['calls'] = [];
  const limited = new Map<string, { retryAfter: number; times: number }>();
  const blocked = new Set<string>();
  const gone = new Set<string>();
  const failing = new Map<string, number>();
  let nextMessageId = 1;
  const fake: FakeTelegram = {
    baseUrl: '',
    token,
    username,
    messages,
    calls,
    webhook: null,
    rateLimit: (chatId, retryAfter, times = 1) => limited.set(chatId, { retryAfter, times }),
    block: (chatId) => blocked.add(chatId),
    forget: (chatId) => gone.add(chatId),
    fail: (chatId, times = 1) => failing.set(chatId, times),
    to: (chatId) => messages.filter((m) => m.chatId === chatId),
    reset: () => {
      messages.length = 0;
      calls.length = 0;
      limited.clear();
      blocked.clear();
      gone.clear();
      failing.clear();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server = createServer((req, res) => {
    void (async () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url?.split('?')[0] ?? '');
      if (!match) return answer(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      const [, given, method = ''] = match;
      const raw = await readBody(req);
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return answer(res, 400, { ok: false, error_code: 400, description: 'Bad Request' });
      }
      const rawChat = body.chat_id;
      const chatId =
        typeof rawChat === 'string' || typeof rawChat === 'number' ? String(rawChat) : null;
      const reply = (status: number, payload: unknown) => {
        calls.push({ method, chatId, status, at: Date.now() });
        answer(res, status, payload);
      };
      if (given !== token)
        return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      switch (method) {
        case 'getMe':
          return reply(200, {
            ok: true,
            result: { id: 123456789, is_bot: true, first_name: 'Cometa', username },
          });
        case 'setWebhook':
          fake.webhook = {
            url: String(body.url),
            secretToken: typeof body.secret_token === 'string' ? body.secret_token : null,
          };
          return reply(200, { ok: true, result: true, description: 'Webhook was set' });
        case 'sendMessage': {
          const text = typeof body.text === 'string' ? body.text : '';
          if (!chatId || !text)
            return reply(400, {
              ok: false,
              error_code: 400,
              description: 'Bad Request: message text is empty',
            });
          if (blocked.has(chatId))
            return reply(403, {
              ok: false,
              error_code: 403,
              description: 'Forbidden: bot was blocked by the user',
            });
          if (gone.has(chatId))
            return reply(400, {
              ok: false,
              error_code: 400,
              description: 'Bad Request: chat not found',
            });
          const failures = failing.get(chatId) ?? 0;
          if (failures > 0) {
            failing.set(chatId, failures - 1);
            return reply(502, { ok: false, error_code: 502, description: 'Bad Gateway' });
          }
          const limit = limited.get(chatId);
          if (limit && limit.times > 0) {
            limit.times -= 1;
            return reply(429, {
              ok: false,
              error_code: 429,
              description: `Too Many Requests: retry after ${limit.retryAfter}`,
              parameters: { retry_after: limit.retryAfter },
            });
          }
          const message: FakeTelegramMessage = {
            chatId,
            text,
            parseMode: typeof body.parse_mode === 'string' ? body.parse_mode : null,
            messageId: nextMessageId++,
            at: Date.now(),
          };
          messages.push(message);
          return reply(200, {
            ok: true,
            result: { message_id: message.messageId, chat: { id: Number(chatId) }, text },
          });
        }
        default:
          return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
      }
    })().catch(() => answer(res, 500, { ok: false, error_code: 500, description: 'fake error' }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
