// The JSON the supplier API answers with: the response schemas in shared/schemas, so a renamed
// field there fails the type check here.
import type { CategorySlug } from '../../../shared/categories';
import type {
  RemoteServiceDto,
  RemoteServiceList,
  SupplierDto,
  SupplierLogEntry,
} from '../../../shared/schemas/suppliers';
import type { SupplierDraft } from './draft';

export type Supplier = SupplierDto;
export type RemoteService = RemoteServiceDto;
export type RemoteCatalogue = RemoteServiceList;
export type SupplierCall = SupplierLogEntry;

/** What the page's forms send to its clientAction (as JSON), told apart by `intent`. */
export type SuppliersPayload =
  | { intent: 'create'; draft: SupplierDraft }
  | { intent: 'update'; id: string; draft: SupplierDraft; base: SupplierDraft }
  | { intent: 'test'; id: string }
  | { intent: 'toggle'; id: string; state: 'activo' | 'desactivado' }
  | { intent: 'refresh'; id: string }
  | {
      intent: 'import';
      id: string;
      remoteIds: string[];
      category: CategorySlug;
      markupPercent: number;
    };

export type SuppliersIntent = SuppliersPayload['intent'];

/** What the clientAction answers; each fetcher only reads the fields of its intent. */
export type SuppliersActionResult = {
  intent: SuppliersIntent | null;
  ok: boolean;
  /** The supplier the action was about (rows show their own messages). */
  id?: string;
  message?: string;
  formError?: string;
  /** Errors by input, under the API's names (`name`, `url`, `apiKey`, `remoteIds`…). */
  fields?: Record<string, string>;
  /** create / update / test / toggle: the supplier as it is now. */
  supplier?: Supplier;
  /** import: the services created. */
  imported?: { id: string; name: string; price: string }[];
};

/**
 * Fetcher keys: fetchers that share a key share their state, so the page can read how a save
 * ended and close the form or show the message where it belongs.
 */
export const FETCHER_KEYS = {
  create: 'suppliers-create',
  edit: 'suppliers-edit',
  import: 'suppliers-import',
} as const;
