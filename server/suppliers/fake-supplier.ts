// Test support: a local stand-in for an upstream supplier speaking both protocols
// (docs/protocols.md §4.4): DHRU Fusion at POST /api/index.php, SMM v2 at POST /api/v2 (and
// SmartPanel's /api/v1), every SMM order type with drip-feed, refills and cancels. In-memory
// catalogues, balances charged per order, deterministic order and refill ids, and scriptable
// misbehaviour. Never used in production; no test-runner imports, so
// integration and browser tests can start it too.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { luhnValid } from '../../shared/fields';
import { formatMicros, parseDecimalMicros } from './decimal';
import {
  customFields,
  decodeBase64Text,
  decodeParameters,
  errorEnvelope,
  isRecord,
  paramLookup,
  successEnvelope,
} from './dhru-wire';

export type DhruCustomField = {
  type: 'serviceimei' | 'server' | 'imei';
  fieldname: string;
  fieldtype: 'text' | 'dropdown' | 'radio' | 'textarea' | 'tickbox' | 'datepicker' | 'time';
  /** "on" or 1 when required. */
  required: string | number;
  description?: string;
  /** dropdown/radio: "New,Existing". */
  fieldoptions?: string;
  regexpr?: string;
  adminonly?: string | number;
};

export type FakeDhruService = {
  id: string;
  name: string;
  group: string;
  groupType: 'IMEI' | 'SERVER';
  credit: string;
  time: string;
  info?: string;
  /** `Requires.<name>`: PIN, KBH, PRD, Type, Reference, Locks, SN, SecRO, Network, Mobile, Provider, MEP. */
  requires?: Record<string, 'None' | 'Required'>;
  custom?: DhruCustomField[];
  /** V8.1 `CUSTOM`: re-labels and re-validates the IMEI box. */
  customMeta?: { allow: string; customname: string; maxlength: string; isalpha: string };
  qntOptions?: string;
  minQnt?: number;
  maxQnt?: number;
};

/** A DHRU file service (fileservicelist): ordered with placefileorder (FILENAME, FILEDATA). */
export type FakeDhruFileService = {
  id: string;
  name: string;
  group: string;
  credit: string;
  time: string;
  info?: string;
};

export type FakeSmmService = {
  service: number;
  name: string;
  type: string;
  category: string;
  rate: string;
  /** Numbers, or text as some panels send them (also out of range: "3000000000"). */
  min: number | string;
  max: number | string;
  refill?: boolean;
  cancel?: boolean;
  /** Takes `runs` and `interval` (listed as `dripfeed`). */
  dripfeed?: boolean;
  desc?: string;
};

export type FakeDhruState = {
  username: string;
  apiKey: string;
  balance: string;
  currency: string;
  mail: string;
  services: FakeDhruService[];
  /** File services; an empty list answers fileservicelist with "Invalid Action". */
  fileServices: FakeDhruFileService[];
  /** Which `parameters` dialects placeimeiorder/getimeiorder accept. */
  acceptDialects: 'both' | 'xml' | 'json';
  /** False: both bulk actions answer "Invalid Action". */
  bulk: boolean;
  /** getimeiorderbulk answers rows nested under a top-level SUCCESS, with lower-case keys. */
  gsmThemeBulk: boolean;
  apiversion: string;
  /** Every call refused with this message. */
  maintenance?: string;
};

export type FakeSmmState = {
  apiKey: string;
  balance: string;
  currency: string;
  services: FakeSmmService[];
  /** SmartPanel: bare-string multi errors, `"status":"success"`, no cancel, no refills. */
  smartPanel: boolean;
  /** False: `refill_status` with a list (`refills`) answers "Incorrect request". */
  multiRefillStatus: boolean;
  /** Every call refused with this message. */
  maintenance?: string;
};

export type FakeCall = {
  protocol: 'dhru' | 'smm';
  path: string;
  action: string;
  /** The raw form. */
  fields: Record<string, string>;
  /** DHRU: the decoded parameters, CUSTOMFIELD as decoded JSON; SMM: the form without key and action. */
  params: Record<string, string>;
  at: number;
};

export type FakeOrderStatus =
  'new' | 'processing' | 'status2' | 'completed' | 'rejected' | 'partial' | 'canceled';

export type FakeOrder = FakeSmmOrderExtras & {
  reference: string;
  protocol: 'dhru' | 'smm';
  serviceId: string;
  imei?: string;
  link?: string;
  quantity: number;
  params: Record<string, string>;
  status: FakeOrderStatus;
  /** DHRU CODE: the result, or the rejection reason. */
  code: string;
  remains: number;
  /** Status polls answered for this order. */
  polls: number;
  /** What the supplier took from its balance. */
  charge: string;
  /** DHRU file orders: the file received (FILENAME, and the decoded FILEDATA). */
  file?: { name: string; bytes: Buffer };
};

/** SMM orders: drip-feed, and the count the supplier started from (`start_count`). */
export type FakeSmmOrderExtras = {
  runs?: number;
  interval?: number;
  startCount?: number;
};

export type FakeRefillStatus = 'Pending' | 'In progress' | 'Completed' | 'Rejected';

/** A refill asked for on an SMM order. */
export type FakeRefill = {
  id: string;
  /** The order's reference. */
  order: string;
  status: FakeRefillStatus;
  /** Given with a rejection (as a `reason` next to the status). */
  reason?: string;
  /** Status polls answered for it. */
  polls: number;
};

export type FakeMatch = {
  protocol?: 'dhru' | 'smm';
  /** Compared case-insensitively. Without it, every action matches. */
  action?: string;
  /** The service id of the order placed or polled. */
  service?: string;
  imei?: string;
  link?: string;
  /** Applied this many times, then the rule stops matching. */
  times?: number;
};

export type FakeBehaviour =
  /** ERROR envelope / `{ error }` with HTTP 200; nothing created. */
  | { refuse: string }
  /** The order is accepted; this many status polls answer "in process" before it completes. */
  | { completeAfterPolls: number; code?: string }
  | { rejectAfterPolls: number; reason: string }
  /** SMM Partial (remains may be negative: over-delivery); DHRU has no partial and completes. */
  | { partialAfterPolls: number; remains: number }
  /** SMM Canceled / DHRU STATUS 3 "Cancelled". */
  | { cancelAfterPolls: number }
  /** DHRU STATUS 2 for ever (SMM: In progress). */
  | { status2: true }
  /** Never answer; a place action creates the order first. */
  | { hang: true }
  /** Create the order (place actions), then destroy the socket without answering. */
  | { acceptThenDrop: true }
  /** Answer this status and body (default an HTML error page); a place creates only with `create`. */
  | { http: number; body?: string; create?: boolean }
  /** HTTP 200 with an HTML page; nothing created. */
  | { html: true }
  /** HTTP 200 with a body that is not JSON; nothing created. */
  | { garbage: true }
  /** Answer normally, after a delay. */
  | { delayMs: number }
  /** Status answers say the order does not exist. */
  | { unknownOrder: true };

export type FakeRule = { match: FakeMatch; then: FakeBehaviour; applied: number };

export type FakeSupplier = {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  dhru: FakeDhruState;
  smm: FakeSmmState;
  /** Every request received, oldest first. */
  calls: FakeCall[];
  /** Orders created upstream, by reference. */
  orders: Map<string, FakeOrder>;
  /** Matched in order; the first match wins. */
  rules: FakeRule[];
  when: (match: FakeMatch, then: FakeBehaviour) => void;
  /** Clears calls, orders and rules; catalogues, balances and switches back to the defaults. */
  reset: () => void;
  complete: (reference: string, code?: string) => void;
  reject: (reference: string, reason: string) => void;
  partial: (reference: string, remains: number) => void;
  cancel: (reference: string) => void;
  /** DHRU STATUS 2. */
  status2: (reference: string) => void;
  /** How many orders were created upstream (optionally for one IMEI or link). */
  placedCount: (filter?: { imei?: string; link?: string }) => number;
  /** SMM: an order in progress with what remains (and the count it started from). */
  progress: (reference: string, remains: number, startCount?: number) => void;
  /** SMM refills by id. */
  refills: Map<string, FakeRefill>;
  refillComplete: (id: string) => void;
  refillReject: (id: string, reason?: string) => void;
  close: () => Promise<void>;
};

export const FAKE_DHRU_USERNAME = 'reseller@example.com';
export const FAKE_DHRU_API_KEY = 'K7Q-2WX-9PL-4MZ-8RT-3VB-6NC-1HD';
export const FAKE_SMM_API_KEY = 'c0ffee5a7e1d4b2f9a8c6e4d2b0f1a3c';

const DHRU_FIRST_REFERENCE = 9001;
const SMM_FIRST_ORDER = 23501;
/** A file order carries a whole file in base64. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const SMM_MULTI_MAX = 100;
const DEFAULT_CODE = 'Unlock code: 12345678<br>Carrier: AT&amp;T';

/** Requirement name → the parameter that carries it. */
const REQUIREMENT_PARAMS: Record<string, string> = {
  PIN: 'PIN',
  KBH: 'KBH',
  PRD: 'PRD',
  Type: 'TYPE',
  Reference: 'REFERENCE',
  Locks: 'LOCKS',
  SN: 'SN',
  SecRO: 'SecRO',
  Network: 'PROVIDERID',
  Provider: 'PROVIDERID',
  Mobile: 'MODELID',
  MEP: 'MEP',
};
const REQUIREMENTS = [
  'Network',
  'Mobile',
  'Provider',
  'PIN',
  'KBH',
  'MEP',
  'PRD',
  'Type',
  'Locks',
  'Reference',
  'SN',
  'SecRO',
];

function defaultDhru(): FakeDhruState {
  return {
    username: FAKE_DHRU_USERNAME,
    apiKey: FAKE_DHRU_API_KEY,
    balance: '100.00',
    currency: 'USD',
    mail: FAKE_DHRU_USERNAME,
    fileServices: [
      {
        id: '113',
        name: 'Samsung FRP reset (firmware file)',
        group: 'File services',
        credit: '2.50',
        time: '1-2 Hours',
        info: 'Upload the <b>.bin</b> dump.',
      },
    ],
    acceptDialects: 'both',
    bulk: true,
    gsmThemeBulk: false,
    apiversion: '6.1',
    services: [
      {
        id: '1382',
        name: 'iPhone carrier + FMI check',
        group: 'Apple checks',
        groupType: 'IMEI',
        credit: '0.80',
        time: '1-24 Hours',
        info: '<p>Carrier, <b>FMI</b> &amp; blacklist status.</p><p>Instant&nbsp;delivery</p>',
      },
      {
        id: '2210',
        name: 'AT&amp;T USA iPhone unlock (clean)',
        group: 'Unlocks',
        groupType: 'IMEI',
        credit: '16.41',
        time: '1-3 Days',
      },
      {
        id: '3050',
        name: 'Apple serial number check',
        group: 'Apple checks',
        groupType: 'IMEI',
        credit: '0.27819',
        time: 'Instant',
        customMeta: { allow: '1', customname: 'S/N', maxlength: '12', isalpha: '1' },
      },
      {
        id: '4100',
        name: 'Office 365 licence (1 year)',
        group: 'Licences',
        groupType: 'SERVER',
        credit: '4.50',
        time: '1-2 Hours',
        custom: [
          {
            type: 'server',
            fieldname: 'Email',
            fieldtype: 'text',
            description: '<b>Account</b> e-mail',
            required: 'on',
          },
          {
            type: 'server',
            fieldname: 'Plan',
            fieldtype: 'dropdown',
            fieldoptions: 'Personal, Family',
            required: 1,
          },
          { type: 'server', fieldname: 'Auto renew', fieldtype: 'tickbox', required: '0' },
          {
            type: 'server',
            fieldname: 'Internal note',
            fieldtype: 'text',
            required: 'on',
            adminonly: '1',
          },
        ],
      },
      {
        id: '5200',
        name: 'Samsung network unlock',
        group: 'Unlocks',
        groupType: 'IMEI',
        credit: '3.00',
        time: '1-2 Days',
        requires: { Network: 'Required' },
      },
      {
        id: '6300',
        name: 'FRP tool credits',
        group: 'Server tools',
        groupType: 'SERVER',
        credit: '1.20',
        time: 'Instant',
        qntOptions: '10,20,50',
        minQnt: 10,
        maxQnt: 50,
      },
      {
        id: '7400',
        name: 'Huawei unlock code',
        group: 'Unlocks',
        groupType: 'IMEI',
        credit: '2.00',
        time: '1-6 Hours',
        requires: { SN: 'Required' },
      },
    ],
  };
}

function defaultSmm(): FakeSmmState {
  return {
    apiKey: FAKE_SMM_API_KEY,
    balance: '50.00',
    currency: 'USD',
    smartPanel: false,
    multiRefillStatus: true,
    services: [
      {
        service: 1,
        name: 'Instagram Followers [Real]',
        type: 'Default',
        category: 'Instagram',
        rate: '0.90',
        min: 50,
        max: 10000,
        refill: true,
        cancel: true,
        dripfeed: true,
        desc: '<p>Real accounts.<br>Start: 0-1 h</p>',
      },
      {
        service: 2,
        name: 'Instagram Likes',
        type: 'Default',
        category: 'Instagram',
        rate: '0.27819',
        min: 10,
        max: 5000,
        refill: false,
        cancel: true,
      },
      {
        service: 3,
        name: 'Instagram Custom Comments',
        type: 'Custom Comments',
        category: 'Instagram',
        rate: '8',
        min: 10,
        max: 1500,
        refill: false,
        cancel: true,
      },
      {
        service: 4,
        name: 'YouTube promo package',
        type: 'Package',
        category: 'YouTube',
        rate: '12.50',
        min: 1,
        max: 1,
        refill: false,
        cancel: false,
      },
      // One service of every other type SMM panels sell (ids apart from those tests add).
      ...SMM_TYPE_SAMPLES.map((sample, index) => ({
        service: 30 + index,
        name: sample.name,
        type: sample.type,
        category: sample.category,
        rate: sample.rate,
        min: sample.min,
        max: sample.max,
        refill: false,
        cancel: true,
      })),
    ],
  };
}

/** Sample services of the other SMM types (ids 30, 31…, in this order). */
const SMM_TYPE_SAMPLES = [
  {
    type: 'Custom Comments Package',
    name: 'Instagram 10 custom comments',
    category: 'Instagram',
    rate: '3.00',
    min: 1,
    max: 1,
  },
  {
    type: 'Mentions with Hashtags',
    name: 'Instagram mentions with hashtags',
    category: 'Instagram',
    rate: '4.00',
    min: 100,
    max: 10000,
  },
  {
    type: 'Mentions Custom List',
    name: 'Instagram mentions (your list)',
    category: 'Instagram',
    rate: '5.00',
    min: 1,
    max: 1000,
  },
  {
    type: 'Mentions Hashtag',
    name: 'Instagram mentions from a hashtag',
    category: 'Instagram',
    rate: '4.50',
    min: 100,
    max: 10000,
  },
  {
    type: 'Mentions User Followers',
    name: 'Instagram mentions of followers',
    category: 'Instagram',
    rate: '4.20',
    min: 100,
    max: 10000,
  },
  {
    type: 'Mentions Media Likers',
    name: 'Instagram mentions of likers',
    category: 'Instagram',
    rate: '4.30',
    min: 100,
    max: 10000,
  },
  {
    type: 'Comment Likes',
    name: 'Instagram comment likes',
    category: 'Instagram',
    rate: '2.00',
    min: 20,
    max: 5000,
  },
  {
    type: 'Poll',
    name: 'Telegram poll votes',
    category: 'Telegram',
    rate: '1.50',
    min: 50,
    max: 20000,
  },
  {
    type: 'Subscriptions',
    name: 'Instagram auto likes (subscription)',
    category: 'Instagram',
    rate: '1.20',
    min: 50,
    max: 2000,
  },
  {
    type: 'Comment Replies',
    name: 'Instagram comment replies',
    category: 'Instagram',
    rate: '9.00',
    min: 10,
    max: 500,
  },
] as const;

/** What `add` takes per SMM type (docs/protocols.md §3.4), as the fake checks it. */
type FakeSmmKind = {
  /** Parameters besides `service` that must be present (and non-empty). */
  required: string[];
  /** How the quantity is set: typed, counted from a list's lines, none (flat), or per post. */
  quantity: 'input' | { lines: string } | 'none' | 'subscription';
};

const FAKE_SMM_KINDS: Record<string, FakeSmmKind> = {
  default: { required: ['link'], quantity: 'input' },
  package: { required: ['link'], quantity: 'none' },
  'custom comments': { required: ['link', 'comments'], quantity: { lines: 'comments' } },
  'custom comments package': { required: ['link', 'comments'], quantity: 'none' },
  'mentions with hashtags': { required: ['link', 'usernames', 'hashtags'], quantity: 'input' },
  'mentions custom list': { required: ['link', 'usernames'], quantity: { lines: 'usernames' } },
  'mentions hashtag': { required: ['link', 'hashtag'], quantity: 'input' },
  'mentions user followers': { required: ['link', 'username'], quantity: 'input' },
  'mentions media likers': { required: ['link', 'media'], quantity: 'input' },
  'comment likes': { required: ['link', 'username'], quantity: 'input' },
  poll: { required: ['link', 'answer_number'], quantity: 'input' },
  subscriptions: { required: ['username', 'min', 'max', 'delay'], quantity: 'subscription' },
};

/** SmartPanel's drip-feed intervals and subscription delays, in minutes. */
const SMART_PANEL_MINUTES = [0, 5, 10, 15, 30, 60, 90];

const FIRST_REFILL = 701;

type Reply = { status: number; contentType: string; body: string };

/** The service, IMEI and link of an order placed or polled, for rule matching. */
type Target = { service?: string; imei?: string; link?: string };

/** An order's scripted outcome, applied once its poll count is reached. */
type Plan =
  | { after: number; outcome: 'complete'; code: string }
  | { after: number; outcome: 'reject'; reason: string }
  | { after: number; outcome: 'partial'; remains: number }
  | { after: number; outcome: 'cancel' }
  | { after: number; outcome: 'status2' };

/** What one request will do, worked out before any rule is applied. */
type Prepared = {
  action: string;
  params: Record<string, string>;
  targets: Target[];
  /** The action creates orders upstream. */
  creates: boolean;
  run: () => Reply;
};

function json(body: unknown, status = 200): Reply {
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}

function htmlPage(status: number, title: string): Reply {
  return {
    status,
    contentType: 'text/html; charset=utf-8',
    body: `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><hr><address>nginx</address></body></html>`,
  };
}

const GARBAGE: Reply = {
  status: 200,
  contentType: 'text/html; charset=utf-8',
  body: '<br />\n<b>Warning</b>: mysqli_connect(): (HY000/1040): Too many connections in <b>/var/www/html/api/index.php</b> on line <b>12</b><br />\n{"SUCCESS":[{"MESSAGE":"Or',
};

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(null));
  });
}

function micros(amount: string): bigint {
  return parseDecimalMicros(amount) ?? 0n;
}

/** Ceiling of a / b for non-negative a and positive b. */
function divideUp(a: bigint, b: bigint): bigint {
  return a % b === 0n ? a / b : a / b + 1n;
}

function isHttpLink(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function flagOn(value: unknown): boolean {
  if (value === 1 || value === true) return true;
  return typeof value === 'string' && ['1', 'on', 'yes', 'true'].includes(value.toLowerCase());
}

/** Starts the fake on 127.0.0.1 (port 0: a free port). */
export async function startFakeSupplier(options: { port?: number } = {}): Promise<FakeSupplier> {
  const dhru = defaultDhru();
  const smm = defaultSmm();
  const calls: FakeCall[] = [];
  const orders = new Map<string, FakeOrder>();
  const plans = new Map<string, Plan>();
  const rules: FakeRule[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let nextDhru = DHRU_FIRST_REFERENCE;
  // The same first number as IMEI orders: a real DHRU numbers file orders on their own.
  let nextDhruFile = DHRU_FIRST_REFERENCE;
  let nextSmm = SMM_FIRST_ORDER;

  // ---- rules ---------------------------------------------------------------------------------

  function ruleMatches(rule: FakeRule, protocol: string, action: string, target?: Target) {
    const m = rule.match;
    if (m.times !== undefined && rule.applied >= m.times) return false;
    if (m.protocol !== undefined && m.protocol !== protocol) return false;
    if (m.action !== undefined && m.action.toLowerCase() !== action) return false;
    if (m.service !== undefined && m.service !== target?.service) return false;
    if (m.imei !== undefined && m.imei !== target?.imei) return false;
    if (m.link !== undefined && m.link !== target?.link) return false;
    return true;
  }

  function targeted(rule: FakeRule): boolean {
    const m = rule.match;
    return m.service !== undefined || m.imei !== undefined || m.link !== undefined;
  }

  function level(then: FakeBehaviour): 'request' | 'order' | 'lookup' {
    if ('unknownOrder' in then) return 'lookup';
    if (
      'completeAfterPolls' in then ||
      'rejectAfterPolls' in then ||
      'partialAfterPolls' in then ||
      'cancelAfterPolls' in then ||
      'status2' in then
    ) {
      return 'order';
    }
    return 'request';
  }

  /** The first rule of `kind` for this request (any target may match), marked as applied. */
  function take(
    kind: 'request' | 'order' | 'lookup',
    protocol: string,
    action: string,
    targets: Target[],
  ): FakeRule | null {
    for (const rule of rules) {
      if (level(rule.then) !== kind) continue;
      const hit = targeted(rule)
        ? targets.some((target) => ruleMatches(rule, protocol, action, target))
        : ruleMatches(rule, protocol, action);
      if (hit) {
        rule.applied += 1;
        return rule;
      }
    }
    return null;
  }

  function planOf(then: FakeBehaviour): Plan | null {
    if ('completeAfterPolls' in then) {
      return {
        after: then.completeAfterPolls,
        outcome: 'complete',
        code: then.code ?? DEFAULT_CODE,
      };
    }
    if ('rejectAfterPolls' in then) {
      return { after: then.rejectAfterPolls, outcome: 'reject', reason: then.reason };
    }
    if ('partialAfterPolls' in then) {
      return { after: then.partialAfterPolls, outcome: 'partial', remains: then.remains };
    }
    if ('cancelAfterPolls' in then) return { after: then.cancelAfterPolls, outcome: 'cancel' };
    if ('status2' in then) return { after: 0, outcome: 'status2' };
    return null;
  }

  // ---- orders --------------------------------------------------------------------------------

  function adjustBalance(protocol: 'dhru' | 'smm', delta: bigint): void {
    const state = protocol === 'dhru' ? dhru : smm;
    state.balance = formatMicros(micros(state.balance) + delta);
  }

  function settle(order: FakeOrder, status: FakeOrderStatus, code: string, remains: number) {
    const wasOpen = ['new', 'processing', 'status2'].includes(order.status);
    order.status = status;
    order.code = code;
    order.remains = remains;
    plans.delete(order.reference);
    if (!wasOpen) return;
    // A real supplier gives back what it did not deliver.
    const charge = micros(order.charge);
    if (status === 'rejected' || status === 'canceled') adjustBalance(order.protocol, charge);
    if (status === 'partial' && order.quantity > 0) {
      const undelivered = BigInt(Math.min(Math.max(remains, 0), order.quantity));
      adjustBalance(order.protocol, (charge * undelivered) / BigInt(order.quantity));
    }
  }

  function applyPlan(order: FakeOrder, plan: Plan): void {
    switch (plan.outcome) {
      case 'complete':
        settle(order, 'completed', plan.code, 0);
        break;
      case 'reject':
        settle(order, 'rejected', plan.reason, order.quantity);
        break;
      case 'partial':
        // DHRU has no partial state: the order completes.
        if (order.protocol === 'dhru') settle(order, 'completed', DEFAULT_CODE, 0);
        else settle(order, 'partial', '', plan.remains);
        break;
      case 'cancel':
        settle(order, 'canceled', 'Cancelled', order.quantity);
        break;
      case 'status2':
        order.status = 'status2';
        break;
    }
  }

  function createOrder(
    protocol: 'dhru' | 'smm',
    action: string,
    fields: {
      serviceId: string;
      imei?: string;
      link?: string;
      quantity: number;
      params: Record<string, string>;
      charge: bigint;
      /** DHRU file orders are numbered apart, as `file:<n>` (our client's reference). */
      file?: { name: string; bytes: Buffer };
    },
  ): FakeOrder {
    const reference = fields.file
      ? `file:${nextDhruFile++}`
      : String(protocol === 'dhru' ? nextDhru++ : nextSmm++);
    const order: FakeOrder = {
      reference,
      protocol,
      serviceId: fields.serviceId,
      quantity: fields.quantity,
      params: fields.params,
      status: 'new',
      code: '',
      remains: fields.quantity,
      polls: 0,
      charge: formatMicros(fields.charge),
    };
    if (fields.imei !== undefined) order.imei = fields.imei;
    if (fields.link !== undefined) order.link = fields.link;
    if (fields.file !== undefined) order.file = fields.file;
    orders.set(reference, order);
    adjustBalance(protocol, -fields.charge);
    const target: Target = { service: fields.serviceId };
    if (fields.imei !== undefined) target.imei = fields.imei;
    if (fields.link !== undefined) target.link = fields.link;
    const rule = take('order', protocol, action, [target]);
    const plan = rule ? planOf(rule.then) : null;
    if (plan) {
      if (plan.after <= 0) applyPlan(order, plan);
      else plans.set(reference, plan);
    }
    return order;
  }

  function findOrder(protocol: 'dhru' | 'smm', reference: string): FakeOrder | null {
    const order = orders.get(reference.trim());
    return order?.protocol === protocol ? order : null;
  }

  function targetOf(order: FakeOrder): Target {
    const target: Target = { service: order.serviceId };
    if (order.imei !== undefined) target.imei = order.imei;
    if (order.link !== undefined) target.link = order.link;
    return target;
  }

  /** An order as a status poll sees it (null: "does not exist"); counts the poll. */
  function poll(protocol: 'dhru' | 'smm', action: string, reference: string): FakeOrder | null {
    const order = findOrder(protocol, reference);
    if (!order) return null;
    if (take('lookup', protocol, action, [targetOf(order)])) return null;
    const plan = plans.get(order.reference);
    if (plan && order.polls >= plan.after) applyPlan(order, plan);
    else if (order.status === 'new') order.status = 'processing';
    order.polls += 1;
    return order;
  }

  function inFlight(order: FakeOrder): boolean {
    return order.status === 'new' || order.status === 'processing' || order.status === 'status2';
  }

  // ---- DHRU ----------------------------------------------------------------------------------

  function dhruError(message: string): Reply {
    return json(errorEnvelope(message, undefined, dhru.apiversion));
  }

  function dhruSuccess(payload: Record<string, unknown>): Reply {
    return json(successEnvelope(payload, dhru.apiversion));
  }

  function dhruServiceEntry(service: FakeDhruService): Record<string, unknown> {
    const entry: Record<string, unknown> = {
      SERVICEID: service.id,
      SERVICETYPE: service.groupType,
      SERVICENAME: service.name,
      CREDIT: service.credit,
      TIME: service.time,
      INFO: service.info ?? '',
      SERVER: service.groupType === 'SERVER' ? '1' : '0',
      MINQNT: String(service.minQnt ?? 1),
      MAXQNT: String(service.maxQnt ?? 1),
    };
    if (service.qntOptions !== undefined) entry.QNTOPTIONS = service.qntOptions;
    for (const name of REQUIREMENTS) {
      entry[`Requires.${name}`] = service.requires?.[name] ?? 'None';
    }
    entry['Requires.Custom'] = (service.custom ?? []).map((field) => ({
      type: field.type,
      fieldname: field.fieldname,
      fieldtype: field.fieldtype,
      description: field.description ?? '',
      fieldoptions: field.fieldoptions ?? '',
      required: field.required,
      regexpr: field.regexpr ?? '',
      adminonly: field.adminonly ?? '0',
      enc: '0',
    }));
    if (service.customMeta) {
      entry.CUSTOM = {
        allow: service.customMeta.allow,
        bulk: '0',
        customname: service.customMeta.customname,
        custominfo: '',
        customlen: service.customMeta.maxlength,
        maxlength: service.customMeta.maxlength,
        regex: '',
        isalpha: service.customMeta.isalpha,
      };
    }
    return entry;
  }

  function serviceList(): Reply {
    const list: Record<string, { GROUPNAME: string; GROUPTYPE: string; SERVICES: object }> = {};
    for (const service of dhru.services) {
      const group = (list[service.group] ??= {
        GROUPNAME: service.group,
        GROUPTYPE: service.groupType,
        SERVICES: {},
      });
      (group.SERVICES as Record<string, unknown>)[service.id] = dhruServiceEntry(service);
    }
    return dhruSuccess({ MESSAGE: 'IMEI Service List', LIST: list });
  }

  function fileServiceList(): Reply {
    if (dhru.fileServices.length === 0) return dhruError('Invalid Action');
    const list: Record<string, { GROUPNAME: string; SERVICES: Record<string, unknown> }> = {};
    for (const service of dhru.fileServices) {
      const group = (list[service.group] ??= { GROUPNAME: service.group, SERVICES: {} });
      group.SERVICES[service.id] = {
        SERVICEID: service.id,
        SERVICENAME: service.name,
        CREDIT: service.credit,
        TIME: service.time,
        INFO: service.info ?? '',
      };
    }
    return dhruSuccess({ MESSAGE: 'File Service List', LIST: list });
  }

  /** Places one DHRU file order: the reference (without its `file:`), or the refusal. */
  function placeDhruFile(
    action: string,
    params: Record<string, string>,
  ): { reference: string } | { error: string } {
    const id = paramLookup(params, 'ID')?.trim() ?? '';
    const service = dhru.fileServices.find((s) => s.id === id);
    if (!service) return { error: 'Invalid Service ID' };
    const name = paramLookup(params, 'FILENAME')?.trim() ?? '';
    const data = paramLookup(params, 'FILEDATA')?.replace(/\s+/g, '') ?? '';
    if (name === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return { error: 'Invalid File' };
    const charge = micros(service.credit);
    if (micros(dhru.balance) < charge) return { error: 'Not enough credits' };
    const bytes = Buffer.from(data, 'base64');
    const order = createOrder('dhru', action, {
      serviceId: id,
      quantity: 1,
      params: { ID: id, FILENAME: name, FILEDATA: `(${bytes.length} bytes)` },
      charge,
      file: { name, bytes },
    });
    return { reference: order.reference.slice('file:'.length) };
  }

  function accountInfo(): Reply {
    const balance = formatMicros(micros(dhru.balance));
    const info = {
      credit: `$${balance}`,
      creditraw: Number(balance),
      mail: dhru.mail,
      currency: dhru.currency,
    };
    return dhruSuccess({ message: 'Your Accout Info', AccoutInfo: info, AccountInfo: info });
  }

  /** Places one DHRU order: the reference, or the refusal's message. */
  function placeDhru(
    action: string,
    params: Record<string, string>,
  ): { reference: string } | { error: string } {
    const id = paramLookup(params, 'ID')?.trim() ?? '';
    const service = dhru.services.find((s) => s.id === id);
    if (!service) return { error: 'Invalid Service ID' };
    const custom = customFields(params);
    if (custom === null) return { error: 'Invalid CUSTOMFIELD' };
    let imei: string | undefined;
    if (service.groupType === 'IMEI') {
      imei = paramLookup(params, 'IMEI')?.trim() ?? '';
      const meta = service.customMeta;
      if (meta && flagOn(meta.allow)) {
        const max = Number(meta.maxlength) || 64;
        const shape = flagOn(meta.isalpha) ? /^[A-Za-z0-9]+$/ : /^\d+$/;
        if (!shape.test(imei) || imei.length > max) return { error: `Invalid ${meta.customname}` };
      } else if (!luhnValid(imei)) {
        return { error: 'Invalid IMEI' };
      }
    }
    for (const [name, value] of Object.entries(service.requires ?? {})) {
      const param = REQUIREMENT_PARAMS[name] ?? name.toUpperCase();
      if (value === 'Required' && !paramLookup(params, param)?.trim()) {
        return { error: `${name} is required` };
      }
    }
    for (const field of service.custom ?? []) {
      if (flagOn(field.adminonly)) continue;
      const value = custom[field.fieldname]?.trim() ?? '';
      if (flagOn(field.required) && value === '')
        return { error: `${field.fieldname} is required` };
      if (value !== '' && (field.fieldtype === 'dropdown' || field.fieldtype === 'radio')) {
        const options = (field.fieldoptions ?? '').split(',').map((option) => option.trim());
        if (!options.includes(value)) return { error: `Invalid ${field.fieldname}` };
      }
    }
    if (
      imei !== undefined &&
      [...orders.values()].some(
        (o) => o.protocol === 'dhru' && o.serviceId === id && o.imei === imei && inFlight(o),
      )
    ) {
      return { error: 'Duplicate IMEI' };
    }
    const charge = micros(service.credit);
    if (micros(dhru.balance) < charge) return { error: 'Not enough credits' };
    const recorded = { ...params };
    if (Object.keys(custom).length > 0) recorded.CUSTOMFIELD = JSON.stringify(custom);
    const order = createOrder('dhru', action, {
      serviceId: id,
      ...(imei !== undefined ? { imei } : {}),
      quantity: 1,
      params: recorded,
      charge,
    });
    return { reference: order.reference };
  }

  function dhruStatusRow(order: FakeOrder): { status: number; code: string } {
    switch (order.status) {
      case 'new':
        return { status: 0, code: '' };
      case 'processing':
        return { status: 1, code: '' };
      case 'status2':
        return { status: 2, code: '' };
      case 'completed':
      case 'partial':
        return { status: 4, code: order.code };
      case 'rejected':
      case 'canceled':
        return { status: 3, code: order.code };
    }
  }

  /** The rows of a base64-JSON bulk `parameters`: `{ "<ref>": { … } }`; null when malformed. */
  function bulkRows(raw: string): Record<string, Record<string, string>> | null {
    const text = decodeBase64Text(raw.trim());
    if (text === null) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return null;
    }
    if (!isRecord(parsed)) return null;
    const rows: Record<string, Record<string, string>> = {};
    for (const [ref, row] of Object.entries(parsed)) {
      if (!isRecord(row)) return null;
      const params: Record<string, string> = {};
      for (const [name, value] of Object.entries(row)) {
        if (typeof value === 'string') params[name] = value;
        else if (typeof value === 'number') params[name] = String(value);
        else return null;
      }
      rows[ref] = params;
    }
    return rows;
  }

  function prepareDhru(fields: Record<string, string>): Prepared {
    const action = (fields.action ?? '').trim().toLowerCase();
    const raw = fields.parameters ?? '';
    const dialect = raw.trim().startsWith('<') ? 'xml' : 'json';
    const decoded = raw.trim() === '' ? {} : decodeParameters(raw);
    const allowed = dhru.acceptDialects === 'both' || dhru.acceptDialects === dialect;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(decoded ?? {})) {
      params[/^customfield$/i.test(name) ? 'CUSTOMFIELD' : name] = value;
    }
    const custom = decoded ? customFields(decoded) : null;
    if (custom && Object.keys(custom).length > 0) params.CUSTOMFIELD = JSON.stringify(custom);
    const usable = decoded !== null && allowed ? decoded : null;
    const base = { action, params, targets: [] as Target[], creates: false };

    switch (action) {
      case 'accountinfo':
        return { ...base, run: accountInfo };
      case 'imeiservicelist':
        return { ...base, run: serviceList };
      case 'placeimeiorder': {
        const target: Target = { service: paramLookup(decoded ?? {}, 'ID') ?? '' };
        const imei = paramLookup(decoded ?? {}, 'IMEI');
        if (imei !== null) target.imei = imei.trim();
        return {
          ...base,
          targets: [target],
          creates: true,
          run: () => {
            if (usable === null) return dhruError('Invalid parameters');
            const placed = placeDhru(action, usable);
            return 'error' in placed
              ? dhruError(placed.error)
              : dhruSuccess({ MESSAGE: 'Order received', REFERENCEID: placed.reference });
          },
        };
      }
      case 'placeimeiorderbulk': {
        const rows = bulkRows(raw);
        const targets = Object.values(rows ?? {}).map((row) => {
          const target: Target = { service: paramLookup(row, 'ID') ?? '' };
          const imei = paramLookup(row, 'IMEI');
          if (imei !== null) target.imei = imei.trim();
          return target;
        });
        return {
          ...base,
          targets,
          creates: true,
          run: () => {
            if (!dhru.bulk) return dhruError('Invalid Action');
            if (rows === null) return dhruError('Invalid parameters');
            const answer: Record<string, unknown> = {};
            for (const [ref, row] of Object.entries(rows)) {
              const placed = placeDhru(action, row);
              answer[ref] =
                'error' in placed
                  ? { ERROR: [{ MESSAGE: placed.error }] }
                  : {
                      SUCCESS: [{ MESSAGE: 'Order received', REFERENCEID: placed.reference }],
                    };
            }
            answer.apiversion = dhru.apiversion;
            return json(answer);
          },
        };
      }
      case 'getimeiorder': {
        const id = paramLookup(decoded ?? {}, 'ID') ?? '';
        const known = findOrder('dhru', id);
        return {
          ...base,
          targets: known ? [targetOf(known)] : [],
          run: () => {
            if (usable === null) return dhruError('Invalid parameters');
            const order = poll('dhru', action, id);
            if (!order) return dhruError('Invalid Order ID');
            const row = dhruStatusRow(order);
            return dhruSuccess({
              STATUS: row.status,
              CODE: row.code,
              IMEI: order.imei ?? '',
              COMMENTS: '',
            });
          },
        };
      }
      case 'getimeiorderbulk': {
        const rows = bulkRows(raw);
        const targets: Target[] = [];
        for (const row of Object.values(rows ?? {})) {
          const known = findOrder('dhru', paramLookup(row, 'ID') ?? '');
          if (known) targets.push(targetOf(known));
        }
        return {
          ...base,
          targets,
          run: () => {
            if (!dhru.bulk) return dhruError('Invalid Action');
            if (rows === null) return dhruError('Invalid parameters');
            const answer: Record<string, unknown> = {};
            for (const [ref, row] of Object.entries(rows)) {
              const id = paramLookup(row, 'ID') ?? '';
              const order = poll('dhru', action, id);
              if (dhru.gsmThemeBulk) {
                if (!order) {
                  answer[ref] = { status: 'error', message: 'Invalid Order ID', referenceid: id };
                } else {
                  const status = dhruStatusRow(order);
                  answer[ref] = {
                    status: String(status.status),
                    code: status.code,
                    message: 'Order status',
                    referenceid: id,
                  };
                }
              } else if (!order) {
                answer[ref] = { ERROR: [{ MESSAGE: 'Invalid Order ID' }] };
              } else {
                const status = dhruStatusRow(order);
                answer[ref] = { SUCCESS: [{ STATUS: status.status, CODE: status.code }] };
              }
            }
            return json(
              dhru.gsmThemeBulk
                ? { SUCCESS: answer, apiversion: dhru.apiversion }
                : { ...answer, apiversion: dhru.apiversion },
            );
          },
        };
      }
      case 'fileservicelist':
        return { ...base, run: fileServiceList };
      case 'placefileorder': {
        const id = paramLookup(decoded ?? {}, 'ID')?.trim() ?? '';
        const data = paramLookup(decoded ?? {}, 'FILEDATA');
        // The call log keeps the file's size, not the file.
        if (data !== null) params.FILEDATA = `(${Buffer.from(data, 'base64').length} bytes)`;
        return {
          ...base,
          targets: [{ service: id }],
          creates: true,
          run: () => {
            if (usable === null) return dhruError('Invalid parameters');
            const placed = placeDhruFile(action, usable);
            return 'error' in placed
              ? dhruError(placed.error)
              : dhruSuccess({ MESSAGE: 'Order received', REFERENCEID: placed.reference });
          },
        };
      }
      case 'getfileorder': {
        const id = `file:${paramLookup(decoded ?? {}, 'ID')?.trim() ?? ''}`;
        const known = findOrder('dhru', id);
        return {
          ...base,
          targets: known ? [targetOf(known)] : [],
          run: () => {
            if (usable === null) return dhruError('Invalid parameters');
            const order = poll('dhru', action, id);
            if (!order) return dhruError('Invalid Order ID');
            const row = dhruStatusRow(order);
            return dhruSuccess({ STATUS: row.status, CODE: row.code });
          },
        };
      }
      default:
        return { ...base, run: () => dhruError('Invalid Action') };
    }
  }

  // ---- SMM -----------------------------------------------------------------------------------

  const refills = new Map<string, FakeRefill>();
  let nextRefill = FIRST_REFILL;

  function smmError(message: string): Reply {
    return json({ error: message });
  }

  function smmItem(order: FakeOrder): Record<string, unknown> {
    const status: Record<FakeOrderStatus, string> = {
      new: 'Pending',
      processing: 'In progress',
      status2: 'In progress',
      completed: 'Completed',
      partial: 'Partial',
      rejected: 'Canceled',
      canceled: 'Canceled',
    };
    return {
      charge: order.charge,
      start_count: String(order.startCount ?? 100),
      status: status[order.status],
      remains: String(order.status === 'completed' ? 0 : order.remains),
      currency: smm.currency,
    };
  }

  /** A whole number written as digits, or null. */
  function wholeNumber(text: string | undefined): number | null {
    const value = (text ?? '').trim();
    return /^\d{1,12}$/.test(value) ? Number(value) : null;
  }

  /** Non-empty lines of a list parameter (`\n` or `\r\n`). */
  function linesOf(text: string | undefined): string[] {
    return (text ?? '')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
  }

  function bounded(quantity: number, service: FakeSmmService): string | null {
    if (quantity < Number(service.min)) return `Quantity less than minimal ${service.min}`;
    if (quantity > Number(service.max)) return `Quantity more than maximum ${service.max}`;
    return null;
  }

  /**
   * The units an `add` is for, checked as panels check them (docs/protocols.md §3.4–§3.5), and
   * the charge; or the refusal.
   */
  function smmUnits(
    service: FakeSmmService,
    kind: FakeSmmKind,
    fields: Record<string, string>,
  ): { quantity: number; charge: bigint; runs?: number; interval?: number } | { error: string } {
    for (const name of kind.required) {
      if ((fields[name] ?? '').trim() === '') return { error: 'Incorrect request' };
    }
    if (kind.required.includes('link') && !isHttpLink((fields.link ?? '').trim()))
      return { error: 'Incorrect link' };
    if (kind.required.includes('media') && !isHttpLink((fields.media ?? '').trim()))
      return { error: 'Incorrect media link' };
    const rate = micros(service.rate);
    const perThousand = (units: number) => divideUp(rate * BigInt(units), 1000n);
    const rule = kind.quantity;
    if (rule === 'none') return { quantity: 1, charge: rate };
    if (rule === 'subscription') {
      const min = wholeNumber(fields.min);
      const max = wholeNumber(fields.max);
      const posts = fields.posts === undefined ? 1 : wholeNumber(fields.posts);
      const delay = wholeNumber(fields.delay);
      if (min === null || max === null || posts === null || posts < 1 || delay === null)
        return { error: 'Incorrect request' };
      if (smm.smartPanel && !SMART_PANEL_MINUTES.includes(delay))
        return { error: 'Incorrect delay' };
      if (min > max) return { error: 'Min cannot be greater than max' };
      const out = bounded(min, service) ?? bounded(max, service);
      if (out) return { error: out };
      if (fields.expiry !== undefined && !/^\d{2}\/\d{2}\/\d{4}$/.test(fields.expiry.trim()))
        return { error: 'Incorrect expiry date' };
      return { quantity: max * posts, charge: perThousand(max * posts) };
    }
    if (typeof rule === 'object') {
      // The quantity is the number of lines; a typed one is ignored.
      const count = linesOf(fields[rule.lines]).length;
      const out = bounded(count, service);
      return out ? { error: out } : { quantity: count, charge: perThousand(count) };
    }
    const quantity = wholeNumber(fields.quantity);
    if (quantity === null) return { error: 'Incorrect request' };
    const out = bounded(quantity, service);
    if (out) return { error: out };
    if (kind.required.includes('answer_number')) {
      const answer = wholeNumber(fields.answer_number);
      if (answer === null || answer < 1) return { error: 'Incorrect answer number' };
    }
    if (fields.runs === undefined && fields.interval === undefined) {
      return { quantity, charge: perThousand(quantity) };
    }
    // Drip-feed: `quantity` is per run, charged on the total up front.
    if (service.dripfeed !== true) return { error: 'Drip-feed is disabled for this service' };
    const runs = wholeNumber(fields.runs);
    const interval = wholeNumber(fields.interval);
    if (runs === null || interval === null || runs < 1) return { error: 'Incorrect request' };
    if (smm.smartPanel ? !SMART_PANEL_MINUTES.includes(interval) : interval > 1440)
      return { error: 'Incorrect interval' };
    return { quantity: quantity * runs, charge: perThousand(quantity * runs), runs, interval };
  }

  function placeSmm(action: string, fields: Record<string, string>): Reply {
    const serviceId = (fields.service ?? '').trim();
    const service = smm.services.find((s) => String(s.service) === serviceId);
    if (!service) return smmError('Incorrect service ID');
    const kind =
      FAKE_SMM_KINDS[
        service.type
          .trim()
          .toLowerCase()
          .replace(/[\s_-]+/g, ' ')
      ];
    if (!kind) return smmError('Incorrect request');
    const units = smmUnits(service, kind, fields);
    if ('error' in units) return smmError(units.error);
    const link = kind.required.includes('link') ? (fields.link ?? '').trim() : undefined;
    const active =
      link !== undefined &&
      [...orders.values()].some(
        (o) => o.protocol === 'smm' && o.serviceId === serviceId && o.link === link && inFlight(o),
      );
    if (active) {
      return smmError(
        'You have active order with this link. Please wait until order being completed.',
      );
    }
    if (micros(smm.balance) < units.charge) return smmError('Not enough funds on balance');
    const params: Record<string, string> = { ...fields };
    delete params.key;
    delete params.action;
    const order = createOrder('smm', action, {
      serviceId,
      ...(link !== undefined ? { link } : {}),
      quantity: units.quantity,
      params,
      charge: units.charge,
    });
    if (units.runs !== undefined) order.runs = units.runs;
    if (units.interval !== undefined) order.interval = units.interval;
    const answer: Record<string, unknown> = { order: Number(order.reference) };
    if (smm.smartPanel) answer.status = 'success';
    return json(answer);
  }

  /** A refill of one order: its id, or the refusal's message. */
  function refillOne(reference: string): { refill: string } | { error: string } {
    const order = findOrder('smm', reference);
    if (!order) return { error: 'Incorrect order ID' };
    const service = smm.services.find((s) => String(s.service) === order.serviceId);
    if (service?.refill !== true) return { error: 'Refill is disabled for this service' };
    if (order.status !== 'completed' && order.status !== 'partial')
      return { error: 'Order is not eligible for refill' };
    const open = [...refills.values()].some(
      (r) => r.order === order.reference && (r.status === 'Pending' || r.status === 'In progress'),
    );
    if (open) return { error: 'Refill already requested for this order' };
    const refill: FakeRefill = {
      id: String(nextRefill++),
      order: order.reference,
      status: 'Pending',
      polls: 0,
    };
    refills.set(refill.id, refill);
    return { refill: refill.id };
  }

  /** One refill as `refill_status` sees it (a poll moves a pending one on); null if unknown. */
  function refillState(id: string): Record<string, unknown> | null {
    const refill = refills.get(id.trim());
    if (!refill) return null;
    if (refill.status === 'Pending' && refill.polls > 0) refill.status = 'In progress';
    refill.polls += 1;
    return refill.reason === undefined
      ? { status: refill.status }
      : { status: refill.status, reason: refill.reason };
  }

  function prepareSmm(fields: Record<string, string>): Prepared {
    const action = (fields.action ?? '').trim().toLowerCase();
    const params: Record<string, string> = { ...fields };
    delete params.key;
    delete params.action;
    const base = { action, params, targets: [] as Target[], creates: false };
    const ids = (fields.orders ?? fields.order ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    const known = ids.flatMap((id) => {
      const order = findOrder('smm', id);
      return order ? [targetOf(order)] : [];
    });

    switch (action) {
      case 'services':
        return {
          ...base,
          run: () =>
            json(
              smm.services.map((s) => {
                const entry: Record<string, unknown> = {
                  service: s.service,
                  name: s.name,
                  type: s.type,
                  category: s.category,
                  rate: s.rate,
                  min: String(s.min),
                  max: String(s.max),
                };
                if (!smm.smartPanel) {
                  entry.refill = s.refill ?? false;
                  entry.cancel = s.cancel ?? false;
                }
                if (s.dripfeed !== undefined) entry.dripfeed = s.dripfeed;
                if (s.desc !== undefined) entry.desc = s.desc;
                return entry;
              }),
            ),
        };
      case 'add': {
        const target: Target = { service: (fields.service ?? '').trim() };
        if (fields.link !== undefined) target.link = fields.link.trim();
        return { ...base, targets: [target], creates: true, run: () => placeSmm(action, fields) };
      }
      case 'status':
        return {
          ...base,
          targets: known,
          run: () => {
            if (fields.orders !== undefined) {
              if (ids.length === 0 || ids.length > SMM_MULTI_MAX) {
                return smmError('Incorrect request');
              }
              const answer: Record<string, unknown> = {};
              for (const id of ids) {
                const order = poll('smm', action, id);
                if (order) answer[id] = smmItem(order);
                else
                  answer[id] = smm.smartPanel
                    ? 'Incorrect order ID'
                    : { error: 'Incorrect order ID' };
              }
              return json(answer);
            }
            if (fields.order !== undefined) {
              const order = poll('smm', action, fields.order);
              if (!order) return smmError('Incorrect order ID');
              const item = smmItem(order);
              return json(smm.smartPanel ? { order: Number(order.reference), ...item } : item);
            }
            return smmError('Incorrect request');
          },
        };
      case 'balance':
        return {
          ...base,
          run: () => {
            const answer: Record<string, unknown> = {
              balance: formatMicros(micros(smm.balance)),
              currency: smm.currency,
            };
            if (smm.smartPanel) answer.status = 'success';
            return json(answer);
          },
        };
      case 'refill':
        return {
          ...base,
          targets: known,
          creates: true,
          run: () => {
            // SmartPanel's copies ship without their refill module.
            if (smm.smartPanel || ids.length === 0) return smmError('Incorrect request');
            if (fields.orders !== undefined) {
              if (ids.length > SMM_MULTI_MAX) return smmError('Incorrect request');
              return json(
                ids.map((id) => {
                  const done = refillOne(id);
                  return {
                    order: Number(id) || id,
                    refill: 'error' in done ? { error: done.error } : Number(done.refill),
                  };
                }),
              );
            }
            const done = refillOne(ids[0] ?? '');
            return 'error' in done ? smmError(done.error) : json({ refill: done.refill });
          },
        };
      case 'refill_status': {
        const refillIds = (fields.refills ?? fields.refill ?? '')
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== '');
        const targets = refillIds.flatMap((id) => {
          const order = findOrder('smm', refills.get(id)?.order ?? '');
          return order ? [targetOf(order)] : [];
        });
        return {
          ...base,
          targets,
          run: () => {
            if (smm.smartPanel || refillIds.length === 0) return smmError('Incorrect request');
            if (fields.refills !== undefined) {
              if (!smm.multiRefillStatus || refillIds.length > SMM_MULTI_MAX)
                return smmError('Incorrect request');
              return json(
                refillIds.map((id) => ({
                  refill: Number(id) || id,
                  ...(refillState(id) ?? { status: { error: 'Refill not found' } }),
                })),
              );
            }
            const state = refillState(refillIds[0] ?? '');
            return state ? json(state) : smmError('Refill not found');
          },
        };
      }
      case 'cancel':
        return {
          ...base,
          targets: known,
          run: () => {
            if (smm.smartPanel || ids.length === 0 || ids.length > SMM_MULTI_MAX) {
              return smmError('Incorrect request');
            }
            return json(
              ids.map((id) => {
                const order = findOrder('smm', id);
                const service = smm.services.find((s) => String(s.service) === order?.serviceId);
                if (!order)
                  return { order: Number(id) || id, cancel: { error: 'Incorrect order ID' } };
                if (!inFlight(order) || service?.cancel !== true) {
                  return { order: Number(id), cancel: { error: 'Cancel is not allowed' } };
                }
                // Cancelled at once: the next status poll reports it Canceled.
                settle(order, 'canceled', 'Cancelled', order.quantity);
                return { order: Number(id), cancel: 1 };
              }),
            );
          },
        };
      default:
        return { ...base, run: () => smmError('Incorrect request') };
    }
  }

  // ---- HTTP ----------------------------------------------------------------------------------

  function write(res: ServerResponse, reply: Reply): void {
    if (res.destroyed || res.writableEnded) return;
    const headers: Record<string, string> = { 'Content-Type': reply.contentType };
    res.writeHead(reply.status, headers);
    res.end(reply.body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const protocol =
      path === '/api/index.php' ? 'dhru' : path === '/api/v2' || path === '/api/v1' ? 'smm' : null;
    if (req.method !== 'POST' || protocol === null) {
      write(res, htmlPage(404, '404 Not Found'));
      return;
    }
    const body = await readBody(req);
    if (body === null) {
      write(res, htmlPage(413, '413 Request Entity Too Large'));
      return;
    }
    const fields = Object.fromEntries(new URLSearchParams(body));
    const prepared = protocol === 'dhru' ? prepareDhru(fields) : prepareSmm(fields);
    calls.push({
      protocol,
      path,
      action: prepared.action,
      fields,
      params: prepared.params,
      at: Date.now(),
    });
    const refuse = (message: string) =>
      protocol === 'dhru' ? dhruError(message) : smmError(message);

    const state = protocol === 'dhru' ? dhru : smm;
    if (state.maintenance !== undefined) {
      write(res, refuse(state.maintenance));
      return;
    }
    if (protocol === 'dhru') {
      if (fields.username !== dhru.username || fields.apiaccesskey !== dhru.apiKey) {
        write(res, refuse('Authentication Failed'));
        return;
      }
    } else if (fields.key !== smm.apiKey) {
      write(res, refuse('Incorrect API key'));
      return;
    }

    const rule = take('request', protocol, prepared.action, prepared.targets);
    const then = rule?.then;
    if (!then) {
      write(res, prepared.run());
    } else if ('refuse' in then) {
      write(res, refuse(then.refuse));
    } else if ('http' in then) {
      if (prepared.creates && then.create === true) prepared.run();
      write(
        res,
        then.body === undefined
          ? htmlPage(then.http, `${then.http} Error`)
          : { status: then.http, contentType: 'text/plain; charset=utf-8', body: then.body },
      );
    } else if ('html' in then) {
      write(res, htmlPage(200, 'Just a moment...'));
    } else if ('garbage' in then) {
      write(res, GARBAGE);
    } else if ('hang' in then) {
      if (prepared.creates) prepared.run();
      // No answer: the client times out; close() destroys the socket.
    } else if ('acceptThenDrop' in then) {
      if (prepared.creates) prepared.run();
      req.socket.destroy();
    } else if ('delayMs' in then) {
      const reply = prepared.run();
      const timer = setTimeout(() => {
        timers.delete(timer);
        write(res, reply);
      }, then.delayMs);
      timers.add(timer);
    } else {
      write(res, prepared.run());
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      write(res, {
        status: 500,
        contentType: 'text/plain; charset=utf-8',
        body: `fake supplier: ${String(err)}`,
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  function mustFind(reference: string): FakeOrder {
    const order = orders.get(reference);
    if (!order) throw new Error(`fake supplier: no order ${reference}`);
    return order;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dhru,
    smm,
    calls,
    orders,
    rules,
    when(match, then) {
      rules.push({ match, then, applied: 0 });
    },
    reset() {
      calls.length = 0;
      orders.clear();
      plans.clear();
      rules.length = 0;
      nextDhru = DHRU_FIRST_REFERENCE;
      nextDhruFile = DHRU_FIRST_REFERENCE;
      nextSmm = SMM_FIRST_ORDER;
      delete dhru.maintenance;
      delete smm.maintenance;
      Object.assign(dhru, defaultDhru());
      Object.assign(smm, defaultSmm());
      refills.clear();
      nextRefill = FIRST_REFILL;
    },
    complete(reference, code) {
      const order = mustFind(reference);
      settle(order, 'completed', code ?? (order.protocol === 'dhru' ? DEFAULT_CODE : ''), 0);
    },
    reject(reference, reason) {
      const order = mustFind(reference);
      settle(order, 'rejected', reason, order.quantity);
    },
    partial(reference, remains) {
      settle(mustFind(reference), 'partial', '', remains);
    },
    cancel(reference) {
      const order = mustFind(reference);
      settle(order, 'canceled', 'Cancelled', order.quantity);
    },
    status2(reference) {
      const order = mustFind(reference);
      plans.delete(reference);
      order.status = 'status2';
    },
    placedCount(filter) {
      let count = 0;
      for (const order of orders.values()) {
        if (filter?.imei !== undefined && order.imei !== filter.imei) continue;
        if (filter?.link !== undefined && order.link !== filter.link) continue;
        count += 1;
      }
      return count;
    },
    progress(reference, remains, startCount) {
      const order = mustFind(reference);
      if (order.status === 'new') order.status = 'processing';
      order.remains = remains;
      if (startCount !== undefined) order.startCount = startCount;
    },
    refills,
    refillComplete(id) {
      const refill = refills.get(id);
      if (!refill) throw new Error(`fake supplier: no refill ${id}`);
      refill.status = 'Completed';
    },
    refillReject(id, reason) {
      const refill = refills.get(id);
      if (!refill) throw new Error(`fake supplier: no refill ${id}`);
      refill.status = 'Rejected';
      if (reason !== undefined) refill.reason = reason;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
