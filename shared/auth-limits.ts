// The length limits of the account fields, for forms that show them (hints, maxLength) without
// loading the schemas: no zod here, so the prerendered /register page stays light. The schemas in
// shared/schemas/auth.ts enforce the same numbers; auth-limits.test.ts keeps both in step.
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 80;
