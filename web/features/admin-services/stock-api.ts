// The stock of a service delivered from stock (issue 24): its counts and masked items, uploads
// (text or a file) and the export of the unsold items.
import {
  STOCK_PATHS,
  StockSummarySchema,
  StockUploadResultSchema,
  type StockSummary,
  type StockUploadResult,
} from '../../../shared/schemas/stock';
import { api } from '../../lib/api';
import { settle, type Loaded } from '../../lib/loaded';

const id = (serviceId: string) => encodeURIComponent(serviceId);

/** Counts, threshold and the newest items, masked (never rejects: errors come back as Loaded). */
export function loadStock(serviceId: string): Promise<Loaded<StockSummary>> {
  return settle(api.get(STOCK_PATHS.stock(id(serviceId)), StockSummarySchema));
}

const UPLOAD_TIMEOUT =
  'La carga está tardando. Revisa los contadores del stock antes de volver a cargar la lista.';
/** 10,000 items are sealed one by one: more time than a plain request. */
const UPLOAD_TIMEOUT_MS = 2 * 60_000;

/** Pasted items, one a line, as `text/plain`. */
export function uploadStockText(serviceId: string, text: string): Promise<StockUploadResult> {
  return api.upload(STOCK_PATHS.stock(id(serviceId)), StockUploadResultSchema, text, {
    timeoutMessage: UPLOAD_TIMEOUT,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

/** A .txt or .csv file, one item a line, as multipart (`file`). */
export function uploadStockFile(serviceId: string, file: File): Promise<StockUploadResult> {
  const form = new FormData();
  form.append('file', file);
  return api.upload(STOCK_PATHS.stock(id(serviceId)), StockUploadResultSchema, form, {
    timeoutMessage: UPLOAD_TIMEOUT,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

/** The CSV download of the items not sold yet (audited by the server as an export). */
export function stockExportUrl(serviceId: string): string {
  return STOCK_PATHS.exportCsv(id(serviceId));
}
