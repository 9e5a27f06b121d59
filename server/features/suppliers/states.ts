import type { SupplierState } from '../../../shared/schemas/service-routes';

const TO_API: Record<string, SupplierState> = {
  active: 'activo',
  failing: 'fallando',
  disabled: 'desactivado',
};

/** The stored state (active, failing, disabled) as the API names it (activo, fallando, desactivado). */
export function apiSupplierState(stored: string): SupplierState {
  return TO_API[stored] ?? 'fallando';
}
