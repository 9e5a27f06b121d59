import { z } from 'zod';
import { ERROR_CODES } from './error-messages';

// The codes, statuses and messages live in ./error-messages (no zod, so the web app's API client
// stays light); re-exported here for the server.
export * from './error-messages';

/** The body of every error answer: a code for clients, a Spanish message for people, field messages. */
export const ApiErrorBodySchema = z.strictObject({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;
