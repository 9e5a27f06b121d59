// The order types of the SMM panel API v2 (docs/protocols.md §3.4) as Cometa sells them: the
// inputs each type takes (they are the service's fields, keyed by the protocol's own parameter
// names, so an SMM `add` maps onto them one to one), how the quantity is set, and how the
// price is counted. One definition for the admin's service editor, the order form, the REST and
// SMM servers, and the supplier client.
import type { ServiceField } from './schemas/service-fields';

export const SMM_TYPES = [
  'Default',
  'Package',
  'Custom Comments',
  'Custom Comments Package',
  'Mentions with Hashtags',
  'Mentions Custom List',
  'Mentions Hashtag',
  'Mentions User Followers',
  'Mentions Media Likers',
  'Comment Likes',
  'Poll',
  'Subscriptions',
] as const;
export type SmmType = (typeof SMM_TYPES)[number];

/** How an order's quantity is set. */
export type QuantityRule =
  /** The customer types it, within the service's minimum and maximum. */
  | { kind: 'input' }
  /** One per line of a field (comments, usernames), within the service's minimum and maximum. */
  | { kind: 'lines'; field: string }
  /** A package: one order, a flat price. */
  | { kind: 'none' }
  /** Subscriptions: up to `max` units for each of `posts` future posts (max × posts units). */
  | { kind: 'subscription' };

export type SmmTypeSpec = {
  /** Spanish name for people. */
  label: string;
  /** 'order': flat price per order; '1000': price per 1000 units. */
  unit: 'order' | '1000';
  quantity: QuantityRule;
  /** Drip-feed (runs × quantity, every interval) makes sense for this type. */
  dripfeed: boolean;
  /** The inputs, in the order the form shows them. */
  fields: ServiceField[];
};

/** Longest line of a comments or usernames list. */
export const LINE_MAX = 300;

/** Subscription delays panels offer, in minutes. */
export const SUBSCRIPTION_DELAYS = ['0', '5', '10', '15', '30', '60', '90'] as const;

const LINK: ServiceField = {
  key: 'link',
  label: 'Enlace',
  type: 'url',
  required: true,
  identifier: true,
};
const COMMENTS: ServiceField = {
  key: 'comments',
  label: 'Comentarios',
  type: 'lines',
  required: true,
  maxLength: LINE_MAX,
  hint: 'Uno por línea.',
};
const USERNAMES: ServiceField = {
  key: 'usernames',
  label: 'Usuarios',
  type: 'lines',
  required: true,
  maxLength: 100,
  hint: 'Uno por línea, sin @.',
};
const USERNAME: ServiceField = {
  key: 'username',
  label: 'Usuario',
  type: 'username',
  required: true,
};

function spec(
  label: string,
  unit: 'order' | '1000',
  quantity: QuantityRule,
  fields: ServiceField[],
  dripfeed = false,
): SmmTypeSpec {
  return { label, unit, quantity, dripfeed, fields };
}

export const SMM_TYPE_SPECS: Record<SmmType, SmmTypeSpec> = {
  Default: spec('Por cantidad', '1000', { kind: 'input' }, [LINK], true),
  Package: spec('Paquete', 'order', { kind: 'none' }, [LINK]),
  'Custom Comments': spec(
    'Comentarios personalizados',
    '1000',
    { kind: 'lines', field: 'comments' },
    [LINK, COMMENTS],
  ),
  'Custom Comments Package': spec(
    'Paquete de comentarios personalizados',
    'order',
    { kind: 'none' },
    [LINK, COMMENTS],
  ),
  'Mentions with Hashtags': spec('Menciones con hashtags', '1000', { kind: 'input' }, [
    LINK,
    USERNAMES,
    {
      key: 'hashtags',
      label: 'Hashtags',
      type: 'lines',
      required: true,
      maxLength: 100,
      hint: 'Uno por línea.',
    },
  ]),
  'Mentions Custom List': spec(
    'Menciones de una lista',
    '1000',
    { kind: 'lines', field: 'usernames' },
    [LINK, USERNAMES],
  ),
  'Mentions Hashtag': spec('Menciones de un hashtag', '1000', { kind: 'input' }, [
    LINK,
    { key: 'hashtag', label: 'Hashtag', type: 'text', required: true, maxLength: 100 },
  ]),
  'Mentions User Followers': spec(
    'Menciones de seguidores de un usuario',
    '1000',
    { kind: 'input' },
    [LINK, { ...USERNAME, hint: 'La cuenta cuyos seguidores mencionarán.' }],
  ),
  'Mentions Media Likers': spec(
    'Menciones de quienes dieron «me gusta»',
    '1000',
    { kind: 'input' },
    [LINK, { key: 'media', label: 'Enlace de la publicación', type: 'url', required: true }],
  ),
  'Comment Likes': spec('«Me gusta» en un comentario', '1000', { kind: 'input' }, [
    LINK,
    { ...USERNAME, hint: 'Quien escribió el comentario.' },
  ]),
  Poll: spec('Votos en una encuesta', '1000', { kind: 'input' }, [
    LINK,
    {
      key: 'answer_number',
      label: 'Número de respuesta',
      type: 'number',
      required: true,
      min: 1,
      max: 100,
    },
  ]),
  Subscriptions: spec('Suscripción a publicaciones nuevas', '1000', { kind: 'subscription' }, [
    { ...USERNAME, identifier: true },
    { key: 'min', label: 'Mínimo por publicación', type: 'number', required: true, min: 1 },
    { key: 'max', label: 'Máximo por publicación', type: 'number', required: true, min: 1 },
    {
      key: 'posts',
      label: 'Publicaciones',
      type: 'number',
      required: true,
      min: 1,
      max: 1000,
      hint: 'Cuántas publicaciones nuevas cubre.',
    },
    {
      key: 'delay',
      label: 'Retraso (minutos)',
      type: 'select',
      required: true,
      options: [...SUBSCRIPTION_DELAYS],
    },
    {
      key: 'expiry',
      label: 'Caduca el',
      type: 'date',
      required: false,
      hint: 'Opcional: después de esta fecha no se cubren más publicaciones.',
    },
  ]),
};

/** The type named as panels write it ("custom comments", "Custom_Comments"), or null. */
export function smmTypeOf(name: string): SmmType | null {
  const wanted = name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  return SMM_TYPES.find((t) => t.toLowerCase() === wanted) ?? null;
}

/** Non-empty lines of a list field, trimmed. */
export function listLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export type SmmQuantity =
  { ok: true; quantity: number } | { ok: false; field: string; message: string };

/**
 * The units an order of this type is for, from its checked field values and the quantity
 * typed: within [min, max] of the service (for subscriptions, `min ≤ max` per post within them,
 * and max × posts units in all). Drip-feed multiplies the result by its runs elsewhere.
 */
export function smmQuantity(
  type: SmmType,
  values: Record<string, string>,
  typed: number | undefined,
  bounds: { min: number; max: number },
): SmmQuantity {
  const rule = SMM_TYPE_SPECS[type].quantity;
  const within = (n: number, field: string): SmmQuantity =>
    n < bounds.min || n > bounds.max
      ? {
          ok: false,
          field,
          message:
            field === 'quantity'
              ? `La cantidad debe estar entre ${bounds.min} y ${bounds.max}.`
              : `Hacen falta entre ${bounds.min} y ${bounds.max} líneas (hay ${n}).`,
        }
      : { ok: true, quantity: n };
  switch (rule.kind) {
    case 'none':
      return typed === undefined || typed === 1
        ? { ok: true, quantity: 1 }
        : { ok: false, field: 'quantity', message: 'Este servicio se pide de uno en uno.' };
    case 'input':
      if (typed === undefined)
        return { ok: false, field: 'quantity', message: 'Indica la cantidad.' };
      return within(typed, 'quantity');
    case 'lines':
      return within(listLines(values[rule.field] ?? '').length, rule.field);
    case 'subscription': {
      const min = Number(values.min);
      const max = Number(values.max);
      const posts = Number(values.posts);
      if (min > max)
        return { ok: false, field: 'min', message: 'El mínimo no puede ser mayor que el máximo.' };
      if (min < bounds.min || max > bounds.max)
        return {
          ok: false,
          field: min < bounds.min ? 'min' : 'max',
          message: `Por publicación, entre ${bounds.min} y ${bounds.max}.`,
        };
      return { ok: true, quantity: max * posts };
    }
  }
}

/** Drip-feed limits: at least 2 runs (1 is a plain order), intervals in minutes. */
export const DRIPFEED_LIMITS = { runsMin: 2, runsMax: 1000, intervalMin: 1, intervalMax: 1440 };

/**
 * A service sold as an SMM type must ask for exactly that type's inputs (same keys and kinds;
 * labels and hints are the admin's) and use its unit; drip-feed only where the type has it.
 * Returns field errors (empty when fine).
 */
export function smmTypeErrors(v: {
  smmType: string | null | undefined;
  unit: string;
  fields: Pick<ServiceField, 'key' | 'type'>[];
  dripfeed: boolean;
}): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!v.smmType) {
    if (v.dripfeed && v.unit !== '1000')
      errors.dripfeed = 'El goteo solo es posible en servicios por cada 1000.';
    return errors;
  }
  const type = smmTypeOf(v.smmType);
  if (!type) {
    errors.smmType = 'Elige un tipo de servicio SMM válido.';
    return errors;
  }
  const spec = SMM_TYPE_SPECS[type];
  if (v.unit !== spec.unit)
    errors.unit =
      spec.unit === '1000'
        ? `Un servicio «${spec.label}» se vende por cada 1000.`
        : `Un servicio «${spec.label}» se vende por orden.`;
  const wanted = spec.fields.map((f) => `${f.key}:${f.type}`).sort();
  const given = v.fields.map((f) => `${f.key}:${f.type}`).sort();
  if (wanted.join() !== given.join())
    errors.fields = `Un servicio «${spec.label}» pide exactamente: ${spec.fields
      .map((f) => `${f.label} (${f.key})`)
      .join(', ')}.`;
  if (v.dripfeed && !spec.dripfeed)
    errors.dripfeed = `Un servicio «${spec.label}» no admite goteo.`;
  return errors;
}
