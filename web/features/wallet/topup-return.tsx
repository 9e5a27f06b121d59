import { useEffect, useRef, useState } from 'react';
import { formatUsd } from '../../../shared/money';
import type { TopupResult } from '../../../shared/schemas/payments';
import { Alert } from '../../components/ui/alert';
import { ApiError } from '../../lib/api';
import { ReceiptLinks } from './receipt-links';
import { capturePaypal, getTopup } from './wallet-api';

/** The gateways that send the customer back to /addfunds?pago=<gateway>&id=<payment id>. */
export type ReturnGateway = 'paypal' | 'cripto' | 'mercadopago';

export function returnGateway(value: string | null): ReturnGateway | null {
  return value === 'paypal' || value === 'cripto' || value === 'mercadopago' ? value : null;
}

const POLL_EVERY_MS = 2_500;
const POLL_FOR_MS = 120_000;

// A PayPal order is captured once per tab: a second render reuses the same request, and after a
// reload (the capture marked in sessionStorage) the page only reads the top-up. The server is
// idempotent anyway; this keeps the customer's reloads from asking PayPal again.
const captures = new Map<string, Promise<TopupResult>>();

function capturedKey(id: string) {
  return `cometa:paypal-captured:${id}`;
}

function wasCaptured(id: string): boolean {
  try {
    return sessionStorage.getItem(capturedKey(id)) === '1';
  } catch {
    return false;
  }
}

function captureOnce(id: string): Promise<TopupResult> {
  const known = captures.get(id);
  if (known) return known;
  const request = wasCaptured(id)
    ? getTopup(id)
    : capturePaypal(id).then((result) => {
        try {
          sessionStorage.setItem(capturedKey(id), '1');
        } catch {
          // Private mode: a reload captures again, which the server answers with the same result.
        }
        return result;
      });
  captures.set(id, request);
  // A failed capture may be tried again (a reload).
  request.catch(() => captures.delete(id));
  return request;
}

type Phase =
  | { kind: 'waiting'; result: TopupResult | null }
  | { kind: 'settled'; result: TopupResult }
  | { kind: 'timeout' }
  | { kind: 'error'; message: string };

/**
 * Follows a top-up the customer returns from: PayPal's is captured, then (like crypto and Mercado
 * Pago, credited by the provider's notification) read every few seconds until it is no longer
 * pending, for up to two minutes. `onCredited` runs once, when the balance changed.
 */
function useTopupReturn(
  gateway: ReturnGateway,
  id: string,
  onCredited: (result: TopupResult) => void,
): Phase {
  const [phase, setPhase] = useState<Phase>({ kind: 'waiting', result: null });
  const credited = useRef(onCredited);
  useEffect(() => {
    credited.current = onCredited;
  }, [onCredited]);
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = Date.now();
    async function step(first: boolean) {
      try {
        const result = first && gateway === 'paypal' ? await captureOnce(id) : await getTopup(id);
        if (cancelled) return;
        if (result.payment.status !== 'pending') {
          setPhase({ kind: 'settled', result });
          if (result.payment.status === 'completed' || result.payment.status === 'review')
            credited.current(result);
          return;
        }
        setPhase({ kind: 'waiting', result });
      } catch (err) {
        if (cancelled) return;
        // A network hiccup while waiting: try again on the next tick; anything else ends it.
        if (!(err instanceof ApiError && err.isNetwork)) {
          setPhase({
            kind: 'error',
            message:
              err instanceof ApiError
                ? err.message
                : 'No pudimos comprobar el estado del pago. Revisa «Tus recargas» en unos minutos.',
          });
          return;
        }
      }
      if (Date.now() - started >= POLL_FOR_MS) {
        setPhase({ kind: 'timeout' });
        return;
      }
      timer = setTimeout(() => void step(false), POLL_EVERY_MS);
    }
    void step(true);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [gateway, id]);
  return phase;
}

function SettledNotice({ result }: { result: TopupResult }) {
  const { payment } = result;
  const note = payment.note ? <p className="mt-1">{payment.note}</p> : null;
  switch (payment.status) {
    case 'completed':
      return (
        <Alert tone="success">
          <p className="font-semibold">Recarga acreditada: +{formatUsd(payment.amount)}</p>
          {note}
          <p className="mt-1">Tu saldo ahora es {formatUsd(result.balance)}.</p>
          <ReceiptLinks receipts={payment.receipts} className="mt-1" />
        </Alert>
      );
    case 'review':
      return (
        <Alert tone="info">
          <p className="font-semibold">
            Tu recarga está en revisión. Te avisaremos por correo cuando se acredite.
          </p>
          {note}
        </Alert>
      );
    case 'reversed':
      return (
        <Alert tone="warning">
          <p>Este pago se revirtió y se descontó de tu saldo.</p>
          {note}
        </Alert>
      );
    case 'rejected':
      return (
        <Alert tone="warning">
          <p>El pago no se completó. No se acreditó nada a tu saldo.</p>
          {payment.rejectReason ? <p className="mt-1">Motivo: {payment.rejectReason}</p> : null}
          {note}
        </Alert>
      );
    case 'expired':
      return (
        <Alert tone="warning">
          <p>El pago caducó sin completarse. No se hizo ningún cargo a tu saldo.</p>
          {note}
        </Alert>
      );
    case 'pending':
      return null;
  }
}

/** What the customer reads on /addfunds after coming back from a gateway's page. */
export function TopupReturnNotice({
  gateway,
  id,
  onCredited,
}: {
  gateway: ReturnGateway;
  id: string;
  onCredited: (result: TopupResult) => void;
}) {
  const phase = useTopupReturn(gateway, id, onCredited);
  if (phase.kind === 'settled') return <SettledNotice result={phase.result} />;
  if (phase.kind === 'error') return <Alert tone="error">{phase.message}</Alert>;
  if (phase.kind === 'timeout')
    return (
      <Alert tone="warning">
        Todavía no recibimos la confirmación del pago. Tu saldo se actualizará en cuanto llegue;
        revisa «Tus recargas» en unos minutos.
      </Alert>
    );
  const note = phase.result?.payment.note;
  return (
    <Alert tone="info">
      <p className="flex items-center gap-2 font-semibold">
        <span
          aria-hidden="true"
          className="inline-block size-4 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-none"
        />
        Esperando la confirmación del pago…
      </p>
      {note ? <p className="mt-1">{note}</p> : null}
    </Alert>
  );
}
