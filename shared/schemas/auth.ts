import { z } from 'zod';
import { textProblemMessage } from '../text';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 80;

export const EmailSchema = z
  .string({ error: 'Escribe tu correo electrónico.' })
  .trim()
  .min(1, 'Escribe tu correo electrónico.')
  .max(254, 'El correo electrónico es demasiado largo.')
  .pipe(z.email({ error: 'Escribe un correo electrónico válido.' }))
  .transform((v) => v.toLowerCase());

export const PasswordSchema = z
  .string({ error: 'Escribe una contraseña.' })
  .min(PASSWORD_MIN, `La contraseña debe tener al menos ${PASSWORD_MIN} caracteres.`)
  .max(PASSWORD_MAX, `La contraseña no puede tener más de ${PASSWORD_MAX} caracteres.`);

/**
 * The one rule for a person's name, wherever it is set: the register and profile forms, PATCH
 * /api/me, and Better Auth's sign-up, update-user and admin endpoints (server/lib/auth.ts).
 * Trimmed, 1–80 characters, one line, no `<`/`>`, no control or bidirectional-override
 * characters (`Juan\u202egnp.exe` would display as "Juanexe.png").
 */
export const NameSchema = z
  .string({ error: 'Escribe tu nombre.' })
  .trim()
  .min(1, 'Escribe tu nombre.')
  .max(NAME_MAX, `El nombre no puede tener más de ${NAME_MAX} caracteres.`)
  .refine((v) => !/[<>]/.test(v), 'El nombre no puede contener los caracteres < o >.')
  .superRefine((v, ctx) => {
    const problem = textProblemMessage(v, { singleLine: true });
    if (problem) ctx.addIssue({ code: 'custom', message: `El nombre no es válido. ${problem}` });
  });

export const RegisterSchema = z
  .object({
    name: NameSchema,
    email: EmailSchema,
    password: PasswordSchema,
    confirmPassword: z.string({ error: 'Repite la contraseña.' }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Las contraseñas no coinciden.',
  });
export type Register = z.infer<typeof RegisterSchema>;

export const LoginSchema = z.object({
  email: EmailSchema,
  password: z.string({ error: 'Escribe tu contraseña.' }).min(1, 'Escribe tu contraseña.'),
});
export type Login = z.infer<typeof LoginSchema>;

export const ForgotPasswordSchema = z.object({ email: EmailSchema });

export const ResetPasswordSchema = z
  .object({
    token: z.string().min(1, 'El enlace no es válido.'),
    password: PasswordSchema,
    confirmPassword: z.string({ error: 'Repite la contraseña.' }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Las contraseñas no coinciden.',
  });

export const UpdateProfileSchema = z.object({ name: NameSchema });
export type UpdateProfile = z.infer<typeof UpdateProfileSchema>;

/** Field errors keyed by the first path segment, first message wins. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form');
    out[key] ??= issue.message;
  }
  return out;
}

/**
 * What Better Auth's GET /api/auth/get-session answers: the session and its user, or null when
 * signed out. Its own answer, with more properties than these: only the ones read are checked.
 */
export const AuthSessionSchema = z
  .looseObject({
    session: z.looseObject({ expiresAt: z.string() }),
    user: z.looseObject({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      emailVerified: z.boolean(),
      role: z.string().nullish(),
    }),
  })
  .nullable();
export type AuthSession = z.infer<typeof AuthSessionSchema>;
