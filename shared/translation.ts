// Supplier catalogues come in English («Instagram Followers [Real]», «1-5 Minutes»). A service
// whose name, description or delivery time still has English words is shown to the admin as
// «Por traducir» (derived when read: it clears as soon as the text is rewritten in Spanish).

/**
 * Words (and two-word phrases) that are English and not Spanish. Ambiguous ones («real», «no»,
 * «premium», «super») are left out: «seguidores reales» must not be flagged.
 */
const ENGLISH = [
  'minute',
  'minutes',
  'hour',
  'hours',
  'hrs',
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'instant',
  'instantly',
  'working',
  'work',
  'works',
  'followers',
  'follower',
  'likes',
  'views',
  'viewers',
  'subscribers',
  'members',
  'comments',
  'shares',
  'plays',
  'refill',
  'refills',
  'no refill',
  'guaranteed',
  'guarantee',
  'lifetime',
  'speed',
  'fast',
  'slow',
  'start',
  'starts',
  'delivery',
  'quality',
  'high',
  'cheap',
  'worldwide',
  'unlock',
  'unlocking',
  'check',
  'checker',
  'carrier',
  'blacklist',
  'only',
  'with',
  'without',
  'and',
  'the',
  'per',
  'up to',
  'business',
  'random',
  'custom',
  'female',
  'male',
];

const PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}])(${ENGLISH.map((w) => w.replace(/ /g, '\\s+')).join('|')})(?![\\p{L}\\p{N}])`,
  'giu',
);

/** The English words found in `text`, lowercased, each once, in order («1-5 Minutes» → minutes). */
export function englishWords(text: string | null | undefined): string[] {
  if (!text) return [];
  const found = new Set<string>();
  for (const match of text.matchAll(PATTERN))
    found.add(match[0].toLowerCase().replace(/\s+/g, ' '));
  return [...found];
}

/** True when the service's texts people read still carry English words: «Por traducir». */
export function needsTranslation(service: {
  name: string;
  description?: string | null;
  deliveryTime?: string | null;
}): boolean {
  return [service.name, service.description, service.deliveryTime].some(
    (text) => englishWords(text).length > 0,
  );
}
