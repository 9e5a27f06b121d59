import { useCallback, useState } from 'react';
import { Link, useFetcher, useLoaderData, useRevalidator, useSearchParams } from 'react-router';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';
import { formatUsd } from '../../../shared/money';
import {
  ManualRequestTypedSchema,
  RECEIPT_TYPES,
  type FundingMethods,
} from '../../../shared/schemas/funds';
import { GatewayTopupTypedSchema, type PaymentMethodDto } from '../../../shared/schemas/payments';
import { RedeemResultSchema, RedeemSchema } from '../../../shared/schemas/vouchers';
import {
  GATEWAY_METHODS,
  paymentStatusLabel,
  type GatewayMethod,
  type MovementDto,
  type PaymentDto,
} from '../../../shared/schemas/wallet';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { SelectField, TextField } from '../../components/ui/field';
import { apiFailure, parseForm } from '../../lib/form-data';
import {
  declareManualTopup,
  getFundingMethods,
  getMovements,
  getPaymentMethods,
  getTopups,
  getWallet,
  startGatewayTopup,
  type ManualMethodDto,
} from '../../features/wallet/wallet-api';
import {
  gatewayOptions,
  GatewayTopupForm,
  type AddFundsResult,
  type GatewayOption,
} from '../../features/wallet/gateway-topup';
import { ReceiptLink, ReceiptLinks } from '../../features/wallet/receipt-links';
import { feeText } from '../../lib/topup-quote';
import { returnGateway, TopupReturnNotice } from '../../features/wallet/topup-return';
import { settle, type Loaded } from '../../lib/loaded';
import { CreditLine } from '../../features/credit/credit-line';
import { newTicketUrl } from '../../lib/support-links';
import { api, ApiError } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { reloadMe } from '../../lib/session';
import type { Route } from './+types/addfunds';
import { signedInPage } from '../../lib/page-loader.server';
import { useDates } from '../../lib/dates';
import { plural } from '../../../shared/plural';

export function meta() {
  return [{ title: `Añadir créditos · ${APP_NAME}` }];
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return signedInPage(request, () => clientLoader());
}

export async function clientLoader() {
  const [wallet, methods, paymentMethods, topups, movements] = await Promise.all([
    getWallet(),
    getFundingMethods(),
    settle(getPaymentMethods()),
    getTopups(),
    getMovements(),
  ]);
  return { wallet, methods, paymentMethods, topups: topups.items, movements };
}

/**
 * The automatic methods with their fees and limits; should the list fail to load, the card
 * alone (from /api/funds/methods) with its limits, so card top-ups still work.
 */
function automaticMethods(
  paymentMethods: Loaded<PaymentMethodDto[]>,
  methods: FundingMethods,
): GatewayOption[] {
  if (paymentMethods.ok) return gatewayOptions(paymentMethods.data);
  if (!methods.card) return [];
  return [
    {
      id: 'stripe',
      method: 'stripe',
      name: 'Tarjeta',
      fee: { percent: '0.00', fixed: '0.00' },
      minAmount: methods.card.minAmount,
      maxAmount: methods.card.maxAmount,
      currency: 'USD',
      rate: null,
      instructions: null,
      feeUnknown: true,
    },
  ];
}

type Result = AddFundsResult;

function gatewayMethod(intent: string, form: FormData): GatewayMethod | null {
  if (intent === 'card') return 'stripe';
  const value = form.get('method');
  return typeof value === 'string' && (GATEWAY_METHODS as readonly string[]).includes(value)
    ? (value as GatewayMethod)
    : null;
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<Result> {
  const form = await request.formData();
  const intentValue = form.get('intent');
  const intent = typeof intentValue === 'string' ? intentValue : '';
  try {
    if (intent === 'gateway' || intent === 'card') {
      const method = gatewayMethod(intent, form);
      if (!method) return { intent: 'gateway', formError: 'Elige cómo quieres pagar.' };
      const parsed = parseForm(GatewayTopupTypedSchema, form);
      if ('error' in parsed) return { ...parsed.error, intent: 'gateway' };
      const url = await startGatewayTopup(method, parsed.data.amount);
      return { intent: 'gateway', ok: true, redirectTo: url };
    }
    if (intent === 'voucher') {
      const parsed = parseForm(RedeemSchema, form);
      if ('error' in parsed) return { ...parsed.error, intent };
      const result = await api.post('/api/funds/redeem', RedeemResultSchema, {
        code: parsed.data.code,
      });
      await reloadMe();
      return { intent, ok: true, message: result.message };
    }
    if (intent === 'manual') {
      const parsed = parseForm(ManualRequestTypedSchema, form);
      if ('error' in parsed) return { ...parsed.error, intent };
      const receipt = form.get('receipt');
      const body = new FormData();
      body.set('methodId', parsed.data.methodId);
      body.set('amount', parsed.data.amount);
      body.set('reference', parsed.data.reference);
      if (receipt instanceof File && receipt.size > 0) body.set('receipt', receipt);
      await declareManualTopup(body);
      return {
        intent,
        ok: true,
        message:
          'Recibimos tu aviso de pago. Lo revisaremos y acreditaremos tu saldo en cuanto lo confirmemos.',
      };
    }
  } catch (err) {
    // A receipt over the limit is the receipt field's error (focused, shown under it).
    if (err instanceof ApiError)
      return {
        ...apiFailure(err, intent === 'manual' ? { PAYLOAD_TOO_LARGE: 'receipt' } : {}),
        intent: intent === 'card' ? 'gateway' : intent,
      };
    throw err;
  }
  return { intent, formError: 'Acción desconocida.' };
}

function MethodNotice({ onCredited }: { onCredited: () => void }) {
  const [params] = useSearchParams();
  const pago = params.get('pago');
  const gateway = returnGateway(pago);
  const id = params.get('id');
  if (gateway && id)
    return <TopupReturnNotice key={id} gateway={gateway} id={id} onCredited={onCredited} />;
  if (pago === 'exito')
    return (
      <Alert tone="success">
        Pago con tarjeta recibido. Tu saldo se actualizará en cuanto el banco lo confirme
        (normalmente en segundos).
      </Alert>
    );
  if (pago === 'cancelado')
    return <Alert tone="warning">Cancelaste el pago con tarjeta. No se hizo ningún cargo.</Alert>;
  return null;
}

function VoucherForm() {
  const fetcher = useFetcher<typeof clientAction>();
  const data = fetcher.data?.intent === 'voucher' ? fetcher.data : undefined;
  const form = useFocusFirstInvalid(data);
  return (
    <fetcher.Form
      ref={form}
      method="post"
      noValidate
      className="flex flex-col gap-3"
      key={data?.ok ? 'done' : 'form'}
    >
      <input type="hidden" name="intent" value="voucher" />
      {data?.ok ? <Alert tone="success">{data.message}</Alert> : null}
      {data?.formError ? <Alert tone="error">{data.formError}</Alert> : null}
      <TextField
        label="Código de recarga"
        name="code"
        autoComplete="off"
        placeholder="CMT-XXXX-XXXX-XXXX"
        required
        error={data?.fields?.code}
      />
      <Button type="submit" variant="secondary" disabled={fetcher.state !== 'idle'}>
        {fetcher.state !== 'idle' ? 'Canjeando…' : 'Canjear código'}
      </Button>
    </fetcher.Form>
  );
}

function ManualForm({ methods }: { methods: ManualMethodDto[] }) {
  const fetcher = useFetcher<typeof clientAction>();
  const data = fetcher.data?.intent === 'manual' ? fetcher.data : undefined;
  const [methodId, setMethodId] = useState(methods[0]?.id ?? '');
  const method = methods.find((m) => m.id === methodId);
  const form = useFocusFirstInvalid(data);
  return (
    <fetcher.Form
      ref={form}
      method="post"
      encType="multipart/form-data"
      noValidate
      className="flex flex-col gap-3"
      key={data?.ok ? 'done' : 'form'}
    >
      <input type="hidden" name="intent" value="manual" />
      {data?.ok ? <Alert tone="success">{data.message}</Alert> : null}
      {data?.formError ? <Alert tone="error">{data.formError}</Alert> : null}
      <SelectField
        label="Método de pago"
        name="methodId"
        value={methodId}
        onChange={(e) => setMethodId(e.target.value)}
        options={methods.map((m) => ({ value: m.id, label: m.name }))}
        error={data?.fields?.methodId}
      />
      {method ? (
        <div className="rounded-lg bg-slate-50 p-3 text-sm whitespace-pre-line text-slate-700">
          <p className="font-semibold text-slate-900">Cómo pagar</p>
          {method.instructions}
          <p className="mt-2 font-medium text-slate-900">{feeText(method.fee)}</p>
        </div>
      ) : null}
      <TextField
        label="Importe pagado en dólares"
        name="amount"
        inputMode="decimal"
        placeholder="50.00"
        required
        hint={
          method
            ? `Entre ${formatUsd(method.minAmount)} y ${formatUsd(method.maxAmount)}.`
            : undefined
        }
        error={data?.fields?.amount}
      />
      <TextField
        label="Referencia del pago"
        name="reference"
        required
        hint="El número de operación, el ID de la transacción o el concepto que usaste."
        error={data?.fields?.reference}
      />
      <TextField
        label="Comprobante (opcional)"
        name="receipt"
        type="file"
        accept={RECEIPT_TYPES.join(',')}
        hint="Imagen PNG, JPG o WEBP, o PDF; hasta 5 MB."
        error={data?.fields?.receipt}
      />
      <Button type="submit" disabled={fetcher.state !== 'idle'}>
        {fetcher.state !== 'idle' ? 'Enviando…' : 'Avisar del pago'}
      </Button>
    </fetcher.Form>
  );
}

function Statement({ first }: { first: { items: MovementDto[]; nextCursor: string | null } }) {
  const dates = useDates();
  const [extra, setExtra] = useState<MovementDto[]>([]);
  const [cursor, setCursor] = useState(first.nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const items = [...first.items, ...extra];
  async function more() {
    if (!cursor) return;
    setLoading(true);
    setError(null);
    try {
      const page = await getMovements(cursor);
      setExtra((e) => [...e, ...page.items]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'No pudimos cargar más movimientos.');
    } finally {
      setLoading(false);
    }
  }
  if (items.length === 0)
    return (
      <p className="text-slate-600">
        Todavía no tienes movimientos. Tu primera recarga aparecerá aquí.
      </p>
    );
  return (
    <div>
      <ul className="divide-y divide-slate-100" data-testid="movements">
        {items.map((m) => (
          <li key={m.id} className="flex items-center justify-between gap-4 py-3">
            <div>
              <p className="font-medium text-slate-900">{m.description}</p>
              <p className="text-sm text-slate-600">{dates.dateTime(m.date)}</p>
              {m.receipt ? <ReceiptLink receipt={m.receipt} /> : null}
            </div>
            <div className="text-right">
              <p
                className={`font-semibold ${m.amount.startsWith('-') ? 'text-red-700' : 'text-emerald-700'}`}
              >
                {m.amount.startsWith('-')
                  ? formatUsd(m.amount)
                  : `+${formatUsd(m.amount.slice(1))}`}
              </p>
              <p className="text-sm text-slate-600">Saldo: {formatUsd(m.balanceAfter)}</p>
            </div>
          </li>
        ))}
      </ul>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {cursor ? (
        <Button variant="secondary" className="mt-4" onClick={() => void more()} disabled={loading}>
          {loading ? 'Cargando…' : 'Ver más movimientos'}
        </Button>
      ) : null}
    </div>
  );
}

const STATUS_TONE: Record<PaymentDto['status'], string> = {
  pending: 'bg-amber-100 text-amber-900',
  review: 'bg-sky-100 text-sky-900',
  completed: 'bg-emerald-100 text-emerald-800',
  reversed: 'bg-red-100 text-red-800',
  rejected: 'bg-red-100 text-red-800',
  expired: 'bg-slate-200 text-slate-800',
};

/** Waiting for someone at the shop: a manual transfer to check, or a held top-up. */
function awaitsReview(t: PaymentDto): boolean {
  return t.status === 'review' || (t.status === 'pending' && t.method === 'manual');
}

export default function AddFunds() {
  const dates = useDates();
  const { wallet, methods, paymentMethods, topups, movements } =
    useLoaderData<typeof clientLoader>();
  const revalidator = useRevalidator();
  const pending = topups.filter(awaitsReview);
  const automatic = automaticMethods(paymentMethods, methods);
  const { revalidate } = revalidator;
  // Back from a gateway with the balance changed: the header's Saldo and this page's lists.
  const onCredited = useCallback(() => {
    void reloadMe().then(() => revalidate());
  }, [revalidate]);
  return (
    <>
      <PageTitle
        title="Añadir créditos"
        subtitle="Recarga tu saldo en dólares y úsalo en cualquier servicio."
      />
      <div className="flex flex-col gap-4">
        <MethodNotice onCredited={onCredited} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Card>
            <h2 className="text-sm font-medium text-slate-600">Saldo disponible</h2>
            <p
              className={`mt-2 text-3xl font-bold ${wallet.available.startsWith('-') ? 'text-red-700' : 'text-slate-900'}`}
              data-testid="wallet-available"
            >
              {formatUsd(wallet.available)}
            </p>
            <CreditLine wallet={wallet} />
          </Card>
          <Card>
            <h2 className="text-sm font-medium text-slate-600">En proceso</h2>
            <p className="mt-2 text-3xl font-bold text-slate-900">{formatUsd(wallet.held)}</p>
            <p className="mt-1 text-sm text-slate-600">
              Reservado para órdenes que aún no terminan.
            </p>
          </Card>
        </div>
      </div>

      <h2 className="mt-10 text-lg font-semibold text-slate-900">Elige cómo recargar</h2>
      <div className="mt-4 grid gap-4 lg:grid-cols-3">
        {automatic.length > 0 ? (
          <Card>
            <h3 className="mb-3 font-semibold text-slate-900">
              {automatic.length === 1 && automatic[0]?.method === 'stripe'
                ? 'Tarjeta de crédito o débito'
                : 'Pago en línea'}
            </h3>
            <GatewayTopupForm options={automatic} />
          </Card>
        ) : null}
        {methods.manual.length > 0 ? (
          <Card>
            <h3 className="mb-3 font-semibold text-slate-900">Transferencia u otro pago manual</h3>
            <ManualForm methods={methods.manual} />
          </Card>
        ) : null}
        {methods.voucher ? (
          <Card>
            <h3 className="mb-3 font-semibold text-slate-900">Código de recarga</h3>
            <VoucherForm />
          </Card>
        ) : null}
      </div>

      <div className="mt-10 grid gap-6 lg:grid-cols-2">
        <Card>
          <div className="flex items-center justify-between gap-2">
            <h2 className="text-lg font-semibold text-slate-900">Tus recargas</h2>
            <Button
              variant="ghost"
              onClick={() => void revalidator.revalidate()}
              disabled={revalidator.state !== 'idle'}
            >
              {revalidator.state !== 'idle' ? 'Actualizando…' : 'Actualizar'}
            </Button>
          </div>
          {pending.length > 0 ? (
            <p className="mt-2 text-sm text-amber-800">
              Tienes {plural(pending.length, 'recarga pendiente', 'recargas pendientes')} de
              revisión.
            </p>
          ) : null}
          {topups.length === 0 ? (
            <p className="mt-3 text-slate-600">Aún no has hecho recargas.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100" data-testid="topups">
              {topups.map((t) => (
                <li key={t.id} className="flex items-center justify-between gap-4 py-3">
                  <div>
                    <p className="font-medium text-slate-900">
                      {t.methodName} · {formatUsd(t.amount)}
                    </p>
                    <p className="text-sm text-slate-600">
                      {dates.dateTime(t.createdAt)}
                      {t.reference && t.method === 'manual' ? ` · Ref. ${t.reference}` : ''}
                    </p>
                    {t.fee !== '0.00' ? (
                      <p className="text-sm text-slate-600">Comisión: {formatUsd(t.fee)}</p>
                    ) : null}
                    {t.note ? <p className="text-sm text-slate-700">{t.note}</p> : null}
                    {t.rejectReason ? (
                      <p className="text-sm text-red-700">Motivo: {t.rejectReason}</p>
                    ) : null}
                    <ReceiptLinks receipts={t.receipts} />
                    <Link
                      to={newTicketUrl({ payment: t.id })}
                      className="text-brand-700 hover:text-brand-800 text-sm font-medium underline"
                      aria-label={`Tengo un problema con esta recarga (${formatUsd(t.amount)}, ${dates.dateTime(t.createdAt)})`}
                    >
                      Tengo un problema con esta recarga
                    </Link>
                  </div>
                  <span
                    className={`rounded-full px-2.5 py-1 text-xs font-semibold whitespace-nowrap ${STATUS_TONE[t.status]}`}
                  >
                    {paymentStatusLabel(t.method, t.status)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card>
          <h2 className="mb-3 text-lg font-semibold text-slate-900">Movimientos</h2>
          <Statement first={movements} />
        </Card>
      </div>
    </>
  );
}
