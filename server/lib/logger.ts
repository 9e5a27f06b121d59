import pino from 'pino';

export type Logger = pino.Logger;

/**
 * JSON lines on standard output. The destination writes asynchronously (sonic-boom, `sync:
 * false`): a request's access line does not cost the event loop a blocking write, and lines
 * written while one write is in flight go out together. `flushLogs()` before exiting.
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['req.headers.cookie', 'req.headers.authorization', '*.password', '*.token'],
        censor: '[redacted]',
      },
    },
    level === 'silent' ? undefined : pino.destination({ dest: 1, sync: false }),
  );
}

/** Writes out what the logger still holds (call on shutdown). */
export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
