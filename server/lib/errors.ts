import { ERROR_MESSAGES, ERROR_STATUS, type ErrorCode } from '../../shared/error-codes';

/** The one error type services throw. `message` is for people (Spanish); `code` is for clients. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;

  constructor(code: ErrorCode, message?: string, fields?: Record<string, string>) {
    super(message ?? ERROR_MESSAGES[code]);
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
  }

  get status(): (typeof ERROR_STATUS)[ErrorCode] {
    return ERROR_STATUS[this.code];
  }
}
