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
  /** number: bounds (SMM poll answers, subscription posts). */
  min?: number;
  max?: number;
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
  /** Cost in millionths of the supplier's currency, per `unit` (0 when costProblem is set). */
  costMicros: bigint;
  /** Why the cost cannot be used (unreadable, zero, negative, out of range), in Spanish. */
  costProblem: string | null;
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
  /** SMM: the supplier takes refills, cancels and drip-feed for it (absent: no). */
  refill?: boolean;
  cancel?: boolean;
  dripfeed?: boolean;
};

/** A catalogue entry we could not read at all (no usable id, not an object, a repeated id…). */
export type CatalogueIssue = {
  remoteId: string | null;
  name: string | null;
  /** In Spanish, for the admin. */
  reason: string;
};

/** A supplier's catalogue as read: the services, and what had to be skipped or doubted. */
export type RemoteCatalogue = {
  services: RemoteService[];
  /** Entries skipped, and services whose cost cannot be used. */
  issues: CatalogueIssue[];
};

export type PlaceInput = {
  remoteId: string;
  /** Values by supplier parameter (`IMEI`, `CUSTOMFIELD:Username`, `link`). */
  params: Record<string, string>;
  /** Units in all (per run × runs when drip-fed). */
  quantity: number;
  /** The remote service's type as its catalogue lists it (SMM: which parameters `add` takes). */
  type?: string;
  /** Drip-feed: `quantity` is split into this many runs, this many minutes apart. */
  dripfeed?: { runs: number; interval: number } | null;
};

/** A supplier's answer about one of its orders, mapped onto our order states. */
export type RemoteStatus =
  /** In progress; SMM also tells the count it started from and what remains to deliver. */
  | { state: 'processing'; detail: string | null; startCount?: number; remains?: number }
  /** `chargeMicros`: what the supplier says it charged for the order (SMM `charge`), when readable. */
  | { state: 'completed'; result: string; chargeMicros?: bigint }
  | { state: 'rejected'; reason: string }
  | { state: 'partial'; remains: number; detail: string | null; chargeMicros?: bigint }
  | { state: 'cancelled'; reason: string | null }
  /** The supplier does not know the reference ("Incorrect order ID"). */
  | { state: 'not-found'; detail: string }
  /** A status we do not understand, or an error object: an admin should look. */
  | { state: 'unknown'; detail: string };

export type SupplierAdapter = {
  /** DHRU `accountinfo` / SMM `balance`. */
  balance(): Promise<CallOutcome<Balance>>;
  /** DHRU `imeiservicelist` / SMM `services`. */
  services(): Promise<CallOutcome<RemoteCatalogue>>;
  /** DHRU `placeimeiorder` / SMM `add`: one order, one call. */
  place(input: PlaceInput): Promise<CallOutcome<{ reference: string }>>;
  /**
   * The status of many references (DHRU `getimeiorderbulk` or one `getimeiorder` each, SMM
   * `status` with `orders=` in groups of at most 100). References missing from the map were
   * not answered (a failed batch).
   */
  status(references: string[]): Promise<CallOutcome<Map<string, RemoteStatus>>>;
  /**
   * SMM `refill` of one order the supplier fulfilled: its refill id there. Absent: the protocol
   * has no refills (createAdapter answers "not supported" for it).
   */
  refill?(reference: string): Promise<CallOutcome<{ refillRef: string }>>;
  /**
   * SMM `refill_status` of many refills (`refills` in groups of at most 100, one `refill` at a
   * time when the panel refuses the list). Refills missing from the map were not answered.
   */
  refillStatus?(refillRefs: string[]): Promise<CallOutcome<Map<string, RemoteRefillStatus>>>;
  /**
   * SMM `cancel` of many orders (`orders`, at most 100 a call): each one accepted or refused.
   * Orders missing from the map were not answered.
   */
  cancel?(references: string[]): Promise<CallOutcome<Map<string, RemoteCancel>>>;
};

/** What createAdapter hands out: every method, those a protocol lacks answering "not supported". */
export type ConnectedAdapter = Required<SupplierAdapter>;

/** A supplier's answer about one refill. */
export type RemoteRefillStatus =
  | { state: 'pending' }
  | { state: 'completed' }
  | { state: 'rejected'; reason: string | null }
  /** The supplier does not know the refill ("Refill not found"). */
  | { state: 'not-found'; detail: string }
  | { state: 'unknown'; detail: string };

/** A supplier's answer to a cancel of one order. */
export type RemoteCancel = { accepted: true } | { accepted: false; reason: string };

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
