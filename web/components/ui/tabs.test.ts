import { describe, expect, it } from 'vitest';
import { tabAfterKey } from './tabs';

describe('tabAfterKey', () => {
  const keys = ['datos', 'seguridad', 'api', 'notificaciones'] as const;
  it('steps with the arrows, around the ends', () => {
    expect(tabAfterKey(keys, 'datos', 'ArrowRight')).toBe('seguridad');
    expect(tabAfterKey(keys, 'notificaciones', 'ArrowRight')).toBe('datos');
    expect(tabAfterKey(keys, 'datos', 'ArrowLeft')).toBe('notificaciones');
    expect(tabAfterKey(keys, 'api', 'ArrowLeft')).toBe('seguridad');
  });
  it('jumps with Home and End, and ignores other keys', () => {
    expect(tabAfterKey(keys, 'api', 'Home')).toBe('datos');
    expect(tabAfterKey(keys, 'seguridad', 'End')).toBe('notificaciones');
    expect(tabAfterKey(keys, 'api', 'Enter')).toBeNull();
  });
});
