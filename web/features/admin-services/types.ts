// The JSON the admin catalogue API answers with: the response schemas in shared/schemas, so a
// renamed field there fails the type check here.
import type { AdminServiceDto, ServiceHistoryEntryDto } from '../../../shared/schemas/catalogue';
import type { StockUploadResult } from '../../../shared/schemas/stock';
import type { CategorySlug } from '../../../shared/categories';
import type { Direction, ServiceDraft } from './draft';

export type AdminService = AdminServiceDto;
export type ServiceHistoryEntry = ServiceHistoryEntryDto;

export type { Direction };

/** What the page's forms send to its clientAction (as JSON), told apart by `intent`. */
export type ServicesPayload =
  | { intent: 'create'; draft: ServiceDraft }
  | { intent: 'update'; id: string; draft: ServiceDraft; base: ServiceDraft }
  | { intent: 'toggle'; id: string; name: string; active: boolean }
  | { intent: 'move'; id: string; name: string; direction: Direction; ids: string[] }
  /** Dragged with the pointer to another place of its category. */
  | { intent: 'place'; id: string; name: string; ids: string[] }
  /** The price typed in the row (a decimal comma reads as in every amount field). */
  | { intent: 'price'; id: string; name: string; price: string }
  | { intent: 'bulk-active'; ids: string[]; active: boolean }
  | { intent: 'bulk-price'; percent: number; category: CategorySlug | null }
  | {
      intent: 'routes';
      id: string;
      name: string;
      /** The editor's route uids, in the order sent (the server names errors by position). */
      uids: string[];
      routes: { supplierId: string; remoteId: string }[];
      markupPercent: number | null;
    };

export type ServicesIntent = ServicesPayload['intent'];

/** «Cargar stock» is sent as a multipart form (it may carry a file), not as JSON. */
export const STOCK_UPLOAD_INTENT = 'stock-upload';

/** What the clientAction answers; each fetcher only reads the fields of its intent. */
export type ServicesActionResult = {
  intent: ServicesIntent | typeof STOCK_UPLOAD_INTENT | null;
  ok: boolean;
  /** The service the action was about (rows show their own messages). */
  id?: string;
  message?: string;
  formError?: string;
  /** Errors by input: API names (`name`, `price`…) and `fields.<uid>[.<property>]`. */
  fields?: Record<string, string>;
  /** create / update / toggle: the service as saved. */
  service?: AdminService;
  /** bulk-price: how many prices changed; bulk-active: how many services were chosen. */
  updated?: number;
  /** stock-upload: how many items were added and which lines were refused. */
  upload?: StockUploadResult;
};

/**
 * Fetcher keys: fetchers that share a key share their state, so the page can read how a save
 * or a row action ended and close the form or show the message where it belongs.
 */
export const FETCHER_KEYS = {
  create: 'admin-services-create',
  edit: 'admin-services-edit',
  row: 'admin-services-row',
  bulk: 'admin-services-bulk',
  bulkActive: 'admin-services-bulk-active',
} as const;

/** The stock upload of one service (one fetcher per service). */
export function stockFetcherKey(serviceId: string): string {
  return `admin-services-stock-${serviceId}`;
}

/** The routes editor of one service (one fetcher per service: each row shows its own answer). */
export function routesFetcherKey(serviceId: string): string {
  return `admin-services-routes-${serviceId}`;
}
