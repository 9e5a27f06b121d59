// Route slug → Spanish label (docs/domain.md §4). The order is the order shown to customers.
export const CATEGORIES = [
  { slug: 'IMEI', label: 'Servicios IMEI' },
  { slug: 'unlock', label: 'Desbloqueo' },
  { slug: 'licenses', label: 'Licencias' },
  { slug: 'streaming', label: 'Streaming' },
  { slug: 'gaming', label: 'Gaming' },
  { slug: 'social', label: 'Redes sociales' },
  { slug: 'cleanimei', label: 'Limpieza de IMEI' },
] as const;

export type CategorySlug = (typeof CATEGORIES)[number]['slug'];

/** The Spanish label of a category's slug ("IMEI" → "Servicios IMEI"); the slug when unknown. */
export function categoryLabel(slug: string): string {
  return CATEGORIES.find((c) => c.slug === slug)?.label ?? slug;
}
