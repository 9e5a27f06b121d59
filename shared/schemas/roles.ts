// The roles as zod schemas (shared/roles.ts stays free of zod: public pages import it).
import { z } from 'zod';
import { ROLES, STAFF_ROLES } from '../roles';

export const roleSchema = z.enum(ROLES);
export const staffRoleSchema = z.enum(STAFF_ROLES);
