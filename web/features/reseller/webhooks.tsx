import {
  Suspense,
  use,
  useEffect,
  useId,
  useRef,
  useState,
  useTransition,
  type FormEvent,
} from 'react';
import { useFetcher } from 'react-router';
import { WEBHOOK_ENDPOINTS_MAX } from '../../../shared/schemas/api-keys';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { Detail, LoadedList } from '../../components/ui/section';
import { ApiError } from '../../lib/api';
import type { Loaded } from '../../lib/loaded';
import { loadDeliveries, testEndpoint } from './actions';
import { CodeBlock } from './code-block';
import { SIGNATURE_EXAMPLE } from './connect';
import { endpointErrors, failuresText, summarizeDelivery, testOutcome } from './draft';
import { JSON_POST, useFocusInvalid, useFocusOn, useSettled } from './hooks';
import { OneTimeSecret } from './one-time-secret';
import {
  FETCHER_KEYS,
  type ResellerActionResult,
  type ResellerPayload,
  type WebhookDelivery,
  type WebhookEndpoint,
} from './types';
import { useDates } from '../../lib/dates';

/** The deliveries, read when the person opens the list (a promise made in the click). */
type DeliveriesRequest = Promise<Loaded<WebhookDelivery[]>>;

type Notice = { tone: 'success' | 'error'; text: string; at: number };

const ENDPOINT_TONES: Record<WebhookEndpoint['state'], string> = {
  active: 'bg-emerald-100 text-emerald-800',
  disabled: 'bg-slate-200 text-slate-800',
};

const DELIVERY_TONES: Record<WebhookDelivery['state'], string> = {
  delivered: 'bg-emerald-100 text-emerald-800',
  pending: 'bg-amber-100 text-amber-900',
  failed: 'bg-red-100 text-red-800',
};

function Badge({ tone, children }: { tone: string; children: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${tone}`}
    >
      {children}
    </span>
  );
}

/** «Tus destinos», «Añadir destino» and how to check the signature. */
export function Webhooks({ endpoints }: { endpoints: Loaded<WebhookEndpoint[]> }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  // A deleted endpoint's row is gone with its button: the focus goes to the list's heading.
  const heading = useFocusOn<HTMLHeadingElement>(notice?.tone === 'success' ? notice.at : null);
  const headingId = useId();
  useSettled(FETCHER_KEYS.endpoint, (result) => {
    setNotice({
      tone: result.ok ? 'success' : 'error',
      text: (result.ok ? result.message : result.formError) ?? '',
      at: (notice?.at ?? 0) + 1,
    });
  });

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
        <h3
          id={headingId}
          ref={heading}
          tabIndex={-1}
          className="text-base font-semibold text-slate-900 focus:outline-none"
        >
          Tus destinos
        </h3>
        <div aria-live="polite">
          {notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}
        </div>
        {notice?.tone === 'error' ? <Alert tone="error">{notice.text}</Alert> : null}
        <LoadedList value={endpoints} what="tus destinos de avisos">
          {(items) =>
            items.length === 0 ? (
              <p className="text-sm text-slate-700">Todavía no tienes destinos de avisos.</p>
            ) : (
              <ul
                className="divide-y divide-slate-200 rounded-xl border border-slate-200"
                data-testid="webhook-endpoints"
              >
                {items.map((endpoint) => (
                  <EndpointRow
                    key={endpoint.id}
                    endpoint={endpoint}
                    onAction={() => setNotice(null)}
                  />
                ))}
              </ul>
            )
          }
        </LoadedList>
      </section>
      <AddEndpointForm />
      <SignatureHelp />
    </div>
  );
}

function EndpointRow({ endpoint, onAction }: { endpoint: WebhookEndpoint; onAction: () => void }) {
  const dates = useDates();
  const fetcher = useFetcher<ResellerActionResult>({ key: FETCHER_KEYS.endpoint });
  const [confirming, setConfirming] = useState(false);
  const [toggled, setToggled] = useState(false);
  const [deliveries, setDeliveries] = useState<DeliveriesRequest | null>(null);
  const urlId = useId();
  const questionId = useId();
  const actions = useRef<HTMLDivElement>(null);
  const pending = fetcher.state !== 'idle' ? (fetcher.json as ResellerPayload | undefined) : null;
  const mine = pending && 'id' in pending && pending.id === endpoint.id ? pending : null;
  const failures = failuresText(endpoint);
  const disabled = endpoint.state === 'disabled';
  const which = <span className="sr-only"> {endpoint.url}</span>;

  // Opening the confirmation takes the focus to its question; closing it, back to «Borrar».
  useEffect(() => {
    if (!toggled) return;
    const target = confirming
      ? actions.current?.querySelector<HTMLElement>('[role="group"]')
      : actions.current?.querySelector<HTMLElement>('[data-delete]');
    target?.focus();
  }, [confirming, toggled]);

  function toggle(open: boolean) {
    setToggled(true);
    setConfirming(open);
  }

  function send(payload: ResellerPayload) {
    if (fetcher.state !== 'idle') return;
    onAction();
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <li aria-labelledby={urlId} className="flex min-w-0 flex-col gap-3 p-3 sm:p-4">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <h4
          id={urlId}
          className="min-w-0 flex-1 font-mono text-sm font-semibold wrap-anywhere text-slate-900"
        >
          {endpoint.url}
        </h4>
        <Badge tone={ENDPOINT_TONES[endpoint.state]}>{endpoint.stateLabel}</Badge>
      </div>
      <dl className="grid gap-3 sm:grid-cols-2">
        <Detail label="Añadido">
          <time dateTime={endpoint.createdAt}>{dates.dateTime(endpoint.createdAt)}</time>
        </Detail>
        <Detail label="Fallos">{failures ?? 'Ninguno'}</Detail>
        {disabled ? (
          <Detail label="Por qué está desactivado" className="sm:col-span-2">
            <span className="break-words text-red-700">
              {endpoint.disabledReason ?? 'Sin motivo registrado.'}
            </span>
          </Detail>
        ) : null}
      </dl>
      <div ref={actions} className="flex flex-col gap-3">
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            aria-expanded={deliveries !== null}
            onClick={() => setDeliveries(deliveries ? null : loadDeliveries(endpoint.id))}
          >
            {deliveries ? 'Ocultar avisos' : 'Ver avisos'}
            {which}
          </Button>
          {disabled ? null : <TestButton endpoint={endpoint} />}
          {disabled ? (
            <Button
              disabled={mine !== null}
              onClick={() =>
                send({ intent: 'endpoint-enable', id: endpoint.id, url: endpoint.url })
              }
            >
              {mine?.intent === 'endpoint-enable' ? 'Activando…' : 'Activar de nuevo'}
              {which}
            </Button>
          ) : null}
          {confirming ? null : (
            <Button variant="ghost" data-delete onClick={() => toggle(true)}>
              Borrar{which}
            </Button>
          )}
        </div>
        {confirming ? (
          <div
            role="group"
            aria-labelledby={questionId}
            tabIndex={-1}
            className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 p-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-600"
          >
            <p id={questionId} className="text-sm break-words text-red-900">
              ¿Borrar el destino {endpoint.url}? Dejaremos de enviarle avisos, también los que estén
              pendientes.
            </p>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="danger"
                disabled={mine !== null}
                onClick={() =>
                  send({ intent: 'endpoint-delete', id: endpoint.id, url: endpoint.url })
                }
              >
                {mine?.intent === 'endpoint-delete' ? 'Borrando…' : 'Sí, borrar'}
                {which}
              </Button>
              <Button variant="secondary" disabled={mine !== null} onClick={() => toggle(false)}>
                No, mantenerlo
              </Button>
            </div>
          </div>
        ) : null}
      </div>
      {deliveries ? (
        <Deliveries
          endpoint={endpoint}
          request={deliveries}
          onReload={(next) => setDeliveries(next)}
        />
      ) : null}
    </li>
  );
}

type TestState =
  { step: 'idle' } | { step: 'sending' } | { step: 'done'; ok: boolean; text: string };

/**
 * «Probar»: a signed test event, sent by the server's job queue to the endpoint; its result (the
 * status code, or why it failed) is announced next to the button.
 */
function TestButton({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [state, setState] = useState<TestState>({ step: 'idle' });
  const sending = state.step === 'sending';

  async function run() {
    if (sending) return;
    setState({ step: 'sending' });
    try {
      const delivery = await testEndpoint(endpoint.id);
      const outcome = testOutcome(delivery);
      setState(
        outcome
          ? { step: 'done', ...outcome }
          : {
              step: 'done',
              ok: false,
              text: 'La prueba sigue en cola: mira el resultado en «Ver avisos» en unos segundos.',
            },
      );
    } catch (err) {
      setState({
        step: 'done',
        ok: false,
        text: err instanceof ApiError ? err.message : 'No pudimos enviar la prueba. Reintenta.',
      });
    }
  }

  return (
    <>
      <Button variant="secondary" disabled={sending} onClick={() => void run()}>
        {sending ? 'Probando…' : 'Probar'}
        <span className="sr-only"> {endpoint.url}</span>
      </Button>
      <p
        role="status"
        data-testid="webhook-test-result"
        className={`basis-full text-sm ${
          state.step === 'done'
            ? state.ok
              ? 'text-emerald-800'
              : 'text-red-700'
            : 'text-slate-700'
        }`}
      >
        {state.step === 'sending' ? 'Enviando un aviso de prueba…' : null}
        {state.step === 'done' ? state.text : null}
      </p>
    </>
  );
}

/** The latest deliveries to one endpoint, each with its JSON, its attempts and «Reenviar». */
function Deliveries({
  endpoint,
  request,
  onReload,
}: {
  endpoint: WebhookEndpoint;
  request: DeliveriesRequest;
  onReload: (next: DeliveriesRequest) => void;
}) {
  const [reloading, startReload] = useTransition();
  const [notice, setNotice] = useState<Notice | null>(null);
  const label = `Avisos enviados a ${endpoint.url}`;
  const fetcher = useSettled(`reseller-resend-${endpoint.id}`, (result) => {
    setNotice({
      tone: result.ok ? 'success' : 'error',
      text: (result.ok ? result.message : result.formError) ?? '',
      at: (notice?.at ?? 0) + 1,
    });
  });
  const pending = fetcher.state !== 'idle' ? (fetcher.json as ResellerPayload | undefined) : null;
  const resending = pending?.intent === 'delivery-resend' ? pending.deliveryId : null;

  // The list read again keeps showing the old one until the new one is there.
  function reload() {
    startReload(() => onReload(loadDeliveries(endpoint.id)));
  }

  function resend(delivery: WebhookDelivery) {
    if (fetcher.state !== 'idle') return;
    setNotice(null);
    const payload: ResellerPayload = {
      intent: 'delivery-resend',
      endpointId: endpoint.id,
      deliveryId: delivery.id,
    };
    void fetcher.submit(payload, JSON_POST).then(reload);
  }

  return (
    <section
      aria-label={label}
      className="flex min-w-0 flex-col gap-2 rounded-xl border border-slate-200 p-3 sm:p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h5 className="text-sm font-semibold text-slate-900">Últimos avisos</h5>
        <Button variant="ghost" disabled={reloading} onClick={reload}>
          {reloading ? 'Actualizando…' : 'Actualizar'}
          <span className="sr-only"> {label}</span>
        </Button>
      </div>
      {endpoint.state === 'disabled' ? (
        <p className="text-sm text-slate-700">Activa el destino para reenviar avisos.</p>
      ) : null}
      <div aria-live="polite">
        {notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}
      </div>
      {notice?.tone === 'error' ? <Alert tone="error">{notice.text}</Alert> : null}
      <Suspense
        fallback={
          <p role="status" className="text-sm text-slate-600">
            Cargando los avisos…
          </p>
        }
      >
        <DeliveryList
          request={request}
          canResend={endpoint.state === 'active'}
          resending={resending}
          onResend={resend}
        />
      </Suspense>
    </section>
  );
}

function DeliveryList({
  request,
  canResend,
  resending,
  onResend,
}: {
  request: DeliveriesRequest;
  canResend: boolean;
  resending: string | null;
  onResend: (delivery: WebhookDelivery) => void;
}) {
  const loaded = use(request);
  if (!loaded.ok) return <Alert tone="error">No pudimos cargar los avisos. {loaded.error}</Alert>;
  if (loaded.data.length === 0)
    return (
      <p className="text-sm text-slate-600">
        Todavía no hay avisos: llegan cuando una de tus órdenes cambia de estado.
      </p>
    );
  return (
    <ol className="divide-y divide-slate-100" data-testid="webhook-deliveries">
      {loaded.data.map((delivery) => (
        <DeliveryItem
          key={delivery.id}
          delivery={delivery}
          canResend={canResend}
          busy={resending === delivery.id}
          onResend={() => onResend(delivery)}
        />
      ))}
    </ol>
  );
}

function DeliveryItem({
  delivery,
  canResend,
  busy,
  onResend,
}: {
  delivery: WebhookDelivery;
  canResend: boolean;
  busy: boolean;
  onResend: () => void;
}) {
  const dates = useDates();
  const summary = summarizeDelivery(delivery, dates.dateTime);
  const what = summary.orderNumber !== null ? `la orden #${summary.orderNumber}` : delivery.type;
  return (
    <li aria-label={`Aviso de ${what}`} className="flex min-w-0 flex-col gap-2 py-3 text-sm">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-700">
        <span className="font-semibold text-slate-900">
          {summary.orderNumber !== null ? `Orden #${summary.orderNumber}` : delivery.type}
        </span>
        <Badge tone={DELIVERY_TONES[delivery.state]}>{delivery.stateLabel}</Badge>
        <span data-testid="delivery-attempts">{summary.attemptsText}</span>
        {summary.lastResult ? (
          <span className={summary.lastOk ? '' : 'text-red-700'}>
            Última respuesta: {summary.lastResult}
          </span>
        ) : null}
        <time dateTime={delivery.createdAt}>{dates.dateTime(delivery.createdAt)}</time>
      </p>
      {summary.orderStatus ? (
        <p className="text-slate-600">Estado avisado: {summary.orderStatus}</p>
      ) : null}
      {delivery.state === 'pending' && delivery.nextAttemptAt ? (
        <p className="text-slate-600">
          Próximo intento:{' '}
          <time dateTime={delivery.nextAttemptAt}>{dates.dateTime(delivery.nextAttemptAt)}</time>
        </p>
      ) : null}
      <details>
        <summary className="cursor-pointer py-1 font-medium text-brand-800">
          Contenido e intentos<span className="sr-only"> del aviso de {what}</span>
        </summary>
        <p className="mt-1 text-xs text-slate-600">
          <span className="font-semibold tracking-wide text-slate-500 uppercase">Aviso</span>{' '}
          <span className="font-mono wrap-anywhere">{delivery.eventId}</span>
        </p>
        <pre
          className="mt-1 rounded-lg bg-slate-100 p-2 font-mono text-xs whitespace-pre-wrap wrap-anywhere text-slate-900"
          data-testid="delivery-body"
        >
          {summary.body}
        </pre>
        <p className="mt-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          Intentos (el más reciente primero)
        </p>
        <pre
          className="mt-1 rounded-lg bg-slate-100 p-2 font-mono text-xs whitespace-pre-wrap wrap-anywhere text-slate-900"
          data-testid="delivery-attempts-log"
        >
          {summary.attemptsLog}
        </pre>
      </details>
      <div>
        <Button variant="secondary" disabled={!canResend || busy} onClick={onResend}>
          {busy ? 'Reenviando…' : 'Reenviar'}
          <span className="sr-only"> el aviso de {what}</span>
        </Button>
      </div>
    </li>
  );
}

/** The endpoint just added, with its signing secret: shown once. */
type CreatedEndpoint = { url: string; secret: string };

/** «Añadir destino»: the address that receives the POSTs; its secret is shown once. */
function AddEndpointForm() {
  const [url, setUrl] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedEndpoint | null>(null);
  const form = useFocusInvalid(errors);
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const fetcher = useSettled(FETCHER_KEYS.createEndpoint, (result) => {
    if (result.ok && result.createdEndpoint) {
      setUrl('');
      setErrors({});
      setFormError(null);
      setCreated({ url: result.createdEndpoint.url, secret: result.createdEndpoint.secret });
    } else {
      const fields = result.fields ?? {};
      setErrors(fields);
      setFormError(fields.url ? null : (result.formError ?? null));
    }
  });
  const busy = fetcher.state !== 'idle';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = endpointErrors(url);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setFormError(null);
      return;
    }
    setErrors({});
    setFormError(null);
    setCreated(null);
    const payload: ResellerPayload = { intent: 'endpoint-create', url };
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-slate-200 bg-slate-50 p-3 sm:p-4"
    >
      <h3
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 focus:outline-none"
      >
        Añadir destino
      </h3>
      {created ? (
        <OneTimeSecret
          label={`Secreto de firma de ${created.url}`}
          value={created.secret}
          hint="Cópialo y guárdalo ahora: no lo volveremos a mostrar. Con él compruebas que cada aviso viene de nosotros."
          what="el secreto"
          done="Copiado"
          dismissLabel="Ya lo guardé"
          testId="new-webhook-secret"
          onDismiss={() => {
            setCreated(null);
            headingRef.current?.focus();
          }}
        />
      ) : null}
      <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="Dirección que recibe los avisos (URL)"
          type="url"
          value={url}
          required
          maxLength={500}
          autoComplete="off"
          spellCheck={false}
          placeholder="https://mi-sistema.example/avisos"
          hint="Debe responder con un 2xx en menos de 10 segundos."
          error={errors.url}
          onChange={(e) => setUrl(e.target.value)}
        />
        {formError && !busy ? <Alert tone="error">{formError}</Alert> : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={busy}>
            {busy ? 'Añadiendo…' : 'Añadir destino'}
          </Button>
          <span className="text-sm text-slate-600">Hasta {WEBHOOK_ENDPOINTS_MAX} destinos.</span>
        </div>
      </form>
    </section>
  );
}

function SignatureHelp() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-2 text-sm">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        Cómo comprobar la firma
      </h3>
      <p className="text-slate-700">
        Cada aviso es un <code className="font-mono">POST</code> con el JSON{' '}
        <code className="font-mono break-all">
          {'{ id, type: "order.updated", createdAt, data }'}
        </code>{' '}
        (<code className="font-mono">data</code> es la orden) y la cabecera{' '}
        <code className="font-mono break-all">Cometa-Signature: t=…,v1=…</code>:{' '}
        <code className="font-mono">v1</code> es el HMAC-SHA256 en hexadecimal de{' '}
        <code className="font-mono">«t.cuerpo»</code> con tu secreto. Calcúlalo con el cuerpo tal
        como llega, rechaza los avisos con <code className="font-mono">t</code> de hace más de 5
        minutos y responde con un 2xx: si no, lo reintentamos durante 3 días. Un mismo aviso (mismo{' '}
        <code className="font-mono">id</code>) puede llegar más de una vez.
      </p>
      <CodeBlock code={SIGNATURE_EXAMPLE} what="el ejemplo de comprobación" />
    </section>
  );
}
