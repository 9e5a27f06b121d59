// Where a catalogue service is bought (its routes to suppliers), as the admin API shows it. Kept
// apart from suppliers.ts so the catalogue's admin shape can include it without a cycle.
import { z } from 'zod';
import { DecimalSchema } from './common';

/** The states as the API names them: working, its last calls failed, or turned off by an admin. */
export const SUPPLIER_STATES = ['activo', 'fallando', 'desactivado'] as const;
export type SupplierState = (typeof SUPPLIER_STATES)[number];
export const SUPPLIER_STATE_LABELS: Record<SupplierState, string> = {
  activo: 'Activo',
  fallando: 'Fallando',
  desactivado: 'Desactivado',
};

export const ServiceRouteDtoSchema = z.strictObject({
  position: z.number().int(),
  supplierId: z.uuid(),
  supplierName: z.string(),
  supplierState: z.enum(SUPPLIER_STATES),
  remoteId: z.string(),
  remoteName: z.string().nullable(),
  cost: DecimalSchema.nullable(),
  currency: z.string().nullable(),
  missing: z.boolean(),
});
export type ServiceRouteDto = z.infer<typeof ServiceRouteDtoSchema>;
