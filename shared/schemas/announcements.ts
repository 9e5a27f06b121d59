// Announcements: what admins publish (/api/admin/announcements) and what a customer sees
// (/api/announcements). docs/domain.md "Announcements". The body is the short format of
// shared/announcement-format.ts.
import { z } from 'zod';
import { DateTimeSchema } from './common';

export const ANNOUNCEMENT_TITLE_MAX = 120;
export const ANNOUNCEMENT_BODY_MAX = 2000;
/** Price groups one announcement can name. */
export const ANNOUNCEMENT_GROUPS_MAX = 50;

const TitleSchema = z
  .string({ error: 'Escribe el título.' })
  .trim()
  .min(1, { error: 'Escribe el título.' })
  .max(ANNOUNCEMENT_TITLE_MAX, {
    error: `El título admite hasta ${ANNOUNCEMENT_TITLE_MAX} caracteres.`,
  })
  .meta({ description: 'Título del anuncio (hasta 120 caracteres).' });

const BodySchema = z
  .string({ error: 'Escribe el texto del anuncio.' })
  .trim()
  .min(1, { error: 'Escribe el texto del anuncio.' })
  .max(ANNOUNCEMENT_BODY_MAX, {
    error: `El texto admite hasta ${ANNOUNCEMENT_BODY_MAX} caracteres.`,
  })
  .meta({
    description:
      'Texto con formato breve: párrafos (una línea en blanco), saltos de línea, `**negrita**`, `*cursiva*` y enlaces `[texto](https://…)` (solo https). Cualquier otra cosa, HTML incluido, se muestra como texto.',
  });

export const AudienceSchema = z
  .strictObject({
    groupIds: z
      .array(z.uuid({ error: 'El grupo de precios no es válido.' }), {
        error: 'Elige los grupos de precios.',
      })
      .min(1, { error: 'Elige al menos un grupo de precios, o «Todos».' })
      .max(ANNOUNCEMENT_GROUPS_MAX, {
        error: `Elige hasta ${ANNOUNCEMENT_GROUPS_MAX} grupos de precios.`,
      })
      .optional(),
  })
  .meta({
    description:
      'A quién va: `{}` (o sin `groupIds`) a todos los clientes; `groupIds`, a los clientes de esos grupos de precios (los del grupo predeterminado incluyen a los que no tienen grupo).',
  });
export type Audience = z.infer<typeof AudienceSchema>;

const InstantSchema = z.iso.datetime({ offset: true, error: 'Indica una fecha y hora válidas.' });

const PinnedSchema = z.boolean({ error: 'Indica si el anuncio va fijado.' });
const EmailSchema = z.boolean({ error: 'Indica si se envía también por correo.' });

const END_BEFORE_START = 'El fin debe ser posterior al inicio.';

/** endsAt after startsAt, when both are given. */
export function endAfterStart(startsAt: string | Date, endsAt: string | Date | null): boolean {
  if (endsAt === null) return true;
  return new Date(endsAt).getTime() > new Date(startsAt).getTime();
}

export const AnnouncementInputSchema = z
  .strictObject({
    title: TitleSchema,
    body: BodySchema,
    audience: AudienceSchema.default({}),
    pinned: PinnedSchema.default(false),
    startsAt: InstantSchema.optional().meta({
      description: 'Desde cuándo se muestra (ISO 8601). Sin él: ahora.',
    }),
    endsAt: InstantSchema.nullable()
      .optional()
      .meta({ description: 'Hasta cuándo se muestra (ISO 8601); `null` o sin él: sin fin.' }),
    email: EmailSchema.default(false).meta({
      description:
        'Enviarlo también por correo a su audiencia (clientes verificados), en lotes, al publicarse o al llegar su inicio.',
    }),
  })
  .superRefine((v, ctx) => {
    if (v.endsAt && !endAfterStart(v.startsAt ?? new Date(), v.endsAt))
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: END_BEFORE_START });
  });
export type AnnouncementInput = z.input<typeof AnnouncementInputSchema>;
/** The body as the route hands it over, defaults applied. */
export type AnnouncementInputData = z.output<typeof AnnouncementInputSchema>;

/** A change: only what is sent changes (the end is checked against the saved start too). */
export const AnnouncementPatchSchema = z
  .strictObject({
    title: TitleSchema.optional(),
    body: BodySchema.optional(),
    audience: AudienceSchema.optional(),
    pinned: PinnedSchema.optional(),
    startsAt: InstantSchema.optional(),
    endsAt: InstantSchema.nullable().optional(),
    email: EmailSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.startsAt && v.endsAt && !endAfterStart(v.startsAt, v.endsAt))
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: END_BEFORE_START });
  });
export type AnnouncementPatch = z.input<typeof AnnouncementPatchSchema>;

export const END_BEFORE_START_MESSAGE = END_BEFORE_START;

export const ANNOUNCEMENT_STATES = ['scheduled', 'active', 'ended'] as const;
export type AnnouncementState = (typeof ANNOUNCEMENT_STATES)[number];
export const ANNOUNCEMENT_STATE_LABELS: Record<AnnouncementState, string> = {
  scheduled: 'Programado',
  active: 'Activo',
  ended: 'Terminado',
};

/** An announcement as the back office sees it. */
export const AdminAnnouncementSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  audience: z.strictObject({ groupIds: z.array(z.string()).optional() }),
  /** The audience's groups with their names (empty for everyone). */
  groups: z.array(z.strictObject({ id: z.string(), name: z.string() })),
  pinned: z.boolean(),
  startsAt: DateTimeSchema,
  endsAt: DateTimeSchema.nullable(),
  email: z.boolean(),
  state: z.enum(ANNOUNCEMENT_STATES),
  /** E-mails queued so far (one per customer). */
  emailsSent: z.number().int(),
  /** When the e-mail reached its whole audience (null: not yet, or not sent by e-mail). */
  emailDoneAt: DateTimeSchema.nullable(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type AdminAnnouncementDto = z.infer<typeof AdminAnnouncementSchema>;

export const AdminAnnouncementListSchema = z.strictObject({
  items: z.array(AdminAnnouncementSchema),
});
export type AdminAnnouncementList = z.infer<typeof AdminAnnouncementListSchema>;

/** An announcement as its customer sees it. */
export const AnnouncementSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  pinned: z.boolean(),
  startsAt: DateTimeSchema,
  endsAt: DateTimeSchema.nullable(),
  read: z.boolean(),
});
export type AnnouncementDto = z.infer<typeof AnnouncementSchema>;

export const AnnouncementListSchema = z.strictObject({ items: z.array(AnnouncementSchema) });
export type AnnouncementList = z.infer<typeof AnnouncementListSchema>;
