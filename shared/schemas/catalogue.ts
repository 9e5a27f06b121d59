import type { CategorySlug } from '../categories';

/** The input a service asks for. The IMEI field has the key `imei`. */
export type ServiceFieldType =
  'imei' | 'serial' | 'email' | 'username' | 'url' | 'number' | 'text' | 'select';

export type ServiceField = {
  key: string;
  label: string;
  type: ServiceFieldType;
  required: boolean;
  /** serial: allowed lengths; text/username: max length. */
  minLength?: number;
  maxLength?: number;
  /** serial: letters allowed besides digits (default true). */
  allowLetters?: boolean;
  /** number: bounds. */
  min?: number;
  max?: number;
  /** select: the choices. */
  options?: string[];
  /** Shown under the field. */
  hint?: string;
  /** This field is the identifier the duplicate-in-flight rule looks at. */
  identifier?: boolean;
};

export type ServiceDto = {
  id: string;
  category: CategorySlug;
  name: string;
  description: string;
  deliveryTime: string;
  price: string;
  unit: 'order' | '1000';
  minQuantity?: number;
  maxQuantity?: number;
  allowRecheck: boolean;
  fields: ServiceField[];
};
