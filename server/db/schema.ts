// The one schema object Drizzle and Better Auth are given.
import * as auth from './schema/auth';
import * as contact from './schema/contact';
import * as ledger from './schema/ledger';
import * as payments from './schema/payments';
import * as security from './schema/security';

export const schema = { ...auth, ...contact, ...ledger, ...payments, ...security };
export type Schema = typeof schema;
