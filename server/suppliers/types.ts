// The shapes every supplier protocol adapter (DHRU Fusion, SMM v2) speaks to the rest of the
// server: a normalised remote catalogue, balances, and classified outcomes. The protocols
// themselves are described in docs/protocols.md.
import type { ServiceFieldType } from '../../shared/schemas/service-fields';
import type { PostResult } from './http';

export type SupplierProtocol = 'dhru' | 'smm';

/** Per-supplier switches for the dialects real suppliers speak (docs/protocols.md §2.2, §2.5). */
export type SupplierSettings = {
  /** DHRU: how `parameters` is encoded when we call. Default 'xml'. */
  dhruParameters?: 'xml' | 'json';
  /** DHRU: what STATUS 2 means. Default 'processing'. */
  dhruStatus2?: 'processing' | 'cancelled';
  /** DHRU: the supplier answers `getimeiorderbulk`. Default true. */
  dhruBulkStatus?: boolean;
  /** Requests in flight at once to this supplier, per instance. Default 4. */
  maxConcurrency?: number;
};

/** What an adapter needs to talk to one supplier. The key is decrypted, never logged. */
export type SupplierConnection = {
  id: string;
  protocol: SupplierProtocol;
  /** The URL the admin typed (base or full endpoint); see endpointUrl(). */
  url: string;
  username: string | null;
  apiKey: string;
  settings: SupplierSettings;
};

/** One request/answer exchange, as written to the supplier log (credentials redacted). */
export type Exchange = {
  action: string;
  /** Form fields sent, with the key replaced by "***". */
  request: Record<string, string>;
  /** HTTP status, when an answer arrived. */
  status: number | null;
  /** The answer's body (cut to a bounded length), when one arrived. */
  response: string | null;
  ms: number;
  /** Transport error (time-out, refused, reset…), when there was one. */
  error: string | null;
};

/**
 * How a call ended, when it did not succeed:
 * - `refused-order`: the supplier certainly did not accept it, because of this order (invalid
 *   IMEI, unsupported model, unknown service…): another supplier may, or the order is rejected;
 * - `refused-supplier`: certainly not accepted, because of the supplier (authentication, no
 *   credit, maintenance, IP not allowed): try another supplier, or wait;
 * - `retry-later`: certainly not accepted, transient for this order ("active order with this
 *   link"): try another supplier, or wait, without blaming the supplier;
 * - `not-sent`: the request never left (DNS failure, connection refused, address not allowed);
 * - `ambiguous`: it may have been accepted (time-out after sending, reset, 5xx, an answer that
 *   does not parse, a success without a reference). Never retried automatically.
 */
export type FailureKind =
  'refused-order' | 'refused-supplier' | 'retry-later' | 'not-sent' | 'ambiguous';

export type CallOutcome<T> =
  | { ok: true; value: T; exchanges: Exchange[] }
  | { ok: false; kind: FailureKind; message: string; exchanges: Exchange[] };

export type Balance = {
  /** The balance as a plain decimal string ("16.41"), whatever form the supplier used. */
  balance: string;
  /** The same in millionths of the currency unit. */
  balanceMicros: bigint;
  currency: string;
};

/**
 * One input a remote service needs, mapped to a field of our catalogue: `key` is the local field
 * key (lower-case), `param` where its value goes in the supplier call: a DHRU parameter (`IMEI`,
 * `SN`, `PIN`…), `CUSTOMFIELD:<name>` for a DHRU custom field, or an SMM parameter (`link`).
 */
export type RemoteField = {
  key: string;
  param: string;
  label: string;
  type: ServiceFieldType;
  required: boolean;
  options?: string[];
  minLength?: number;
  maxLength?: number;
  allowLetters?: boolean;
  identifier?: boolean;
  hint?: string;
};

/** A service in a supplier's catalogue, normalised. */
export type RemoteService = {
  remoteId: string;
  name: string;
  group: string;
  /** DHRU SERVICETYPE (IMEI, SERVER, REMOTE) or SMM type (Default, Package…). */
  type: string;
  /** 'order': cost per order; '1000': cost per 1000 units (SMM rate). */
  unit: 'order' | '1000';
  /** Cost in millionths of the supplier's currency, per `unit`. */
  costMicros: bigint;
  minQuantity: number | null;
  maxQuantity: number | null;
  deliveryTime: string;
  /** Plain-text description (HTML removed). */
  info: string;
  fields: RemoteField[];
  /** False when we cannot sell it yet (a type or required input we do not support). */
  importable: boolean;
  /** Why not importable, in Spanish. */
  reason: string | null;
};

export type PlaceInput = {
  remoteId: string;
  /** Values by supplier parameter (`IMEI`, `CUSTOMFIELD:Username`, `link`). */
  params: Record<string, string>;
  quantity: number;
};

/** A supplier's answer about one of its orders, mapped onto our order states. */
export type RemoteStatus =
  | { state: 'processing'; detail: string | null }
  | { state: 'completed'; result: string }
  | { state: 'rejected'; reason: string }
  | { state: 'partial'; remains: number; detail: string | null }
  | { state: 'cancelled'; reason: string | null }
  /** The supplier does not know the reference ("Incorrect order ID"). */
  | { state: 'not-found'; detail: string }
  /** A status we do not understand, or an error object: an admin should look. */
  | { state: 'unknown'; detail: string };

export type SupplierAdapter = {
  /** DHRU `accountinfo` / SMM `balance`. */
  balance(): Promise<CallOutcome<Balance>>;
  /** DHRU `imeiservicelist` / SMM `services`. */
  services(): Promise<CallOutcome<RemoteService[]>>;
  /** DHRU `placeimeiorder` / SMM `add`: one order, one call. */
  place(input: PlaceInput): Promise<CallOutcome<{ reference: string }>>;
  /**
   * The status of many references (DHRU `getimeiorderbulk` or one `getimeiorder` each, SMM
   * `status` with `orders=` in groups of at most 100). References missing from the map were
   * not answered (a failed batch).
   */
  status(references: string[]): Promise<CallOutcome<Map<string, RemoteStatus>>>;
};

/**
 * Sends one form to the supplier's endpoint and returns what happened (server/suppliers/http.ts
 * `PostResult`). The caller binds the URL, time-outs, the concurrency limit and metrics;
 * `keepAlive` is false for calls that create something upstream.
 */
export type Transport = (
  action: string,
  fields: Record<string, string>,
  options: { keepAlive: boolean },
) => Promise<PostResult>;
