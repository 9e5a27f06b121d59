// The one schema object Drizzle and Better Auth are given.
import * as announcements from './schema/announcements';
import * as auth from './schema/auth';
import * as catalogue from './schema/catalogue';
import * as contact from './schema/contact';
import * as desk from './schema/desk';
import * as instances from './schema/instances';
import * as ledger from './schema/ledger';
import * as notes from './schema/notes';
import * as payments from './schema/payments';
import * as reports from './schema/reports';
import * as reseller from './schema/reseller';
import * as security from './schema/security';
import * as staff from './schema/staff';
import * as suppliers from './schema/suppliers';
import * as telegram from './schema/telegram';
import * as tickets from './schema/tickets';

export const schema = {
  ...announcements,
  ...auth,
  ...catalogue,
  ...contact,
  ...desk,
  ...instances,
  ...ledger,
  ...notes,
  ...payments,
  ...reports,
  ...reseller,
  ...security,
  ...staff,
  ...suppliers,
  ...telegram,
  ...tickets,
};
export type Schema = typeof schema;
