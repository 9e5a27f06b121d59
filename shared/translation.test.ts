import { describe, expect, it } from 'vitest';
import { englishWords, needsTranslation } from './translation';

describe('English left in supplier texts', () => {
  it('finds English words, whole words only, any case', () => {
    expect(englishWords('1-5 Minutes')).toEqual(['minutes']);
    expect(englishWords('Instagram Followers [No Refill] Instant')).toEqual([
      'followers',
      'no refill',
      'instant',
    ]);
    expect(englishWords('0-24 hrs · Working days')).toEqual(['hrs', 'working', 'days']);
    // «Refilled» is not «refill», «día» is not «day», «minutos» is not «minutes».
    expect(englishWords('Entrega en 1-5 minutos, 2 días hábiles')).toEqual([]);
  });

  it('leaves Spanish texts alone, «real» included', () => {
    expect(
      needsTranslation({
        name: 'Seguidores reales de Instagram',
        description: 'Seguidores 100% real, con reposición de 30 días.',
        deliveryTime: 'De 1 a 5 minutos',
      }),
    ).toBe(false);
  });

  it('flags a service when any of its texts is still English', () => {
    expect(needsTranslation({ name: 'Liberación Telcel', deliveryTime: '1-3 Days' })).toBe(true);
    expect(needsTranslation({ name: 'TikTok Views', description: null })).toBe(true);
    expect(needsTranslation({ name: 'Liberación Telcel', description: 'Check IMEI' })).toBe(true);
  });
});
