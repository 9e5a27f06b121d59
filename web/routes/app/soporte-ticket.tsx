// /soporte/:id: one of the customer's tickets — the conversation (never the staff's internal
// notes: the API leaves them out), a reply with attachments, «Cerrar ticket» / «Reabrir».
import { useEffect, useRef } from 'react';
import { Link, useFetcher, useLoaderData, useSearchParams } from 'react-router';
import { TICKET_CATEGORY_LABELS, type TicketDetail } from '../../../shared/schemas/tickets';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { TextAreaField } from '../../components/ui/field';
import { isBusy, LoadedList } from '../../components/ui/section';
import { Conversation } from '../../features/tickets/conversation';
import { runTicketAction, type TicketFormResult } from '../../features/tickets/customer-actions';
import { FilesField } from '../../features/tickets/files-field';
import { TicketStateBadge } from '../../features/tickets/ticket-badges';
import { getMyTicket } from '../../features/tickets/tickets-api';
import { APP_NAME } from '../../lib/app-name';
import { useDates } from '../../lib/dates';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';
import { settle } from '../../lib/loaded';
import { signedInPage } from '../../lib/page-loader.server';
import { reloadMe } from '../../lib/session';
import type { Route } from './+types/soporte-ticket';

export function meta({ data }: Route.MetaArgs) {
  const ticket = data?.ticket.ok ? data.ticket.data : null;
  return [{ title: `${ticket ? `Ticket #${ticket.number}` : 'Ticket'} · ${APP_NAME}` }];
}

async function load(id: string) {
  return { ticket: await settle(getMyTicket(id)) };
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request, params }: Route.LoaderArgs) {
  return signedInPage(request, () => load(params.id));
}

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  const data = await load(params.id);
  // Reading the ticket marks its answers read: the header's count follows.
  void reloadMe();
  return data;
}

export async function clientAction({ request, params }: Route.ClientActionArgs) {
  return runTicketAction(params.id, await request.formData());
}

export default function SoporteTicket() {
  const { ticket } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/soporte" className="text-brand-700 font-medium underline">
          Volver a Soporte
        </Link>
      </p>
      <LoadedList value={ticket} what="el ticket">
        {(t) => <TicketView key={t.id} ticket={t} />}
      </LoadedList>
    </>
  );
}

function TicketView({ ticket }: { ticket: TicketDetail }) {
  const dates = useDates();
  const [params] = useSearchParams();
  const created = params.get('creado');
  const closed = ticket.state === 'closed';
  return (
    <>
      <PageTitle title={`#${ticket.number} · ${ticket.subject}`} />
      {created === String(ticket.number) ? (
        <div className="mb-4">
          <Alert tone="success">
            Recibimos tu ticket #{ticket.number}. Te avisaremos por correo cuando respondamos.
          </Alert>
        </div>
      ) : null}
      <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_18rem] [&>*]:min-w-0">
        <div className="flex min-w-0 flex-col gap-6">
          <section aria-labelledby="ticket-conversacion">
            <h2 id="ticket-conversacion" className="sr-only">
              Conversación
            </h2>
            <Conversation messages={ticket.messages} viewer="customer" />
          </section>
          {closed ? null : <ReplyForm />}
        </div>
        <aside aria-label="Datos del ticket">
          <Card className="p-4">
            <dl className="flex flex-col gap-3 text-sm">
              <div>
                <dt className="text-slate-600">Estado</dt>
                <dd className="mt-0.5">
                  <TicketStateBadge state={ticket.state} />
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Categoría</dt>
                <dd className="font-medium text-slate-900">
                  {TICKET_CATEGORY_LABELS[ticket.category]}
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Abierto el</dt>
                <dd className="text-slate-900">{dates.dateTime(ticket.createdAt)}</dd>
              </div>
              {ticket.orders.length > 0 ? (
                <div>
                  <dt className="text-slate-600">Órdenes</dt>
                  <dd>
                    <ul>
                      {ticket.orders.map((o) => (
                        <li key={o.id} className="min-w-0 truncate">
                          <Link
                            to={`/orderhistory?orden=${o.id}`}
                            className="text-brand-700 font-medium underline"
                          >
                            #{o.number}
                          </Link>{' '}
                          {o.serviceName}
                        </li>
                      ))}
                    </ul>
                  </dd>
                </div>
              ) : null}
            </dl>
            <StateButtons closed={closed} />
          </Card>
        </aside>
      </div>
    </>
  );
}

function StateButtons({ closed }: { closed: boolean }) {
  const fetcher = useFetcher<TicketFormResult>();
  const result = fetcher.data;
  const busy = fetcher.state !== 'idle';
  return (
    <fetcher.Form method="post" className="mt-4 flex flex-col gap-2">
      {result?.message && result.intent !== 'reply' ? (
        <Alert tone="success">{result.message}</Alert>
      ) : null}
      {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
      {closed ? (
        <Button type="submit" name="intent" value="reopen" variant="secondary" disabled={busy}>
          {busy ? 'Reabriendo…' : 'Reabrir'}
        </Button>
      ) : (
        <Button type="submit" name="intent" value="close" variant="secondary" disabled={busy}>
          {busy ? 'Cerrando…' : 'Cerrar ticket'}
        </Button>
      )}
    </fetcher.Form>
  );
}

function ReplyForm() {
  const fetcher = useFetcher<TicketFormResult>();
  const result = fetcher.data;
  const busy = isBusy(fetcher, 'reply');
  const formRef = useFocusFirstInvalid(result);
  const sent = useRef<object | null>(null);
  // A message sent: the form is emptied for the next one (the conversation shows it already).
  useEffect(() => {
    if (result?.ok && result.intent === 'reply' && sent.current !== result) {
      sent.current = result;
      formRef.current?.reset();
    }
  }, [result, formRef]);
  const fields = result?.intent === 'reply' ? (result.fields ?? {}) : {};
  return (
    <section aria-labelledby="ticket-responder">
      <Card className="p-4 sm:p-6">
        <h2 id="ticket-responder" className="text-lg font-semibold text-slate-900">
          Responder
        </h2>
        <fetcher.Form
          ref={formRef}
          method="post"
          encType="multipart/form-data"
          noValidate
          aria-label="Responder"
          className="mt-3 flex flex-col gap-4"
        >
          <input type="hidden" name="intent" value="reply" />
          {result?.intent === 'reply' && result.message ? (
            <Alert tone="success">{result.message}</Alert>
          ) : null}
          {result?.intent === 'reply' && result.formError ? (
            <Alert tone="error">{result.formError}</Alert>
          ) : null}
          <TextAreaField label="Tu mensaje" name="body" rows={4} required error={fields.body} />
          <FilesField error={fields.files} />
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? 'Enviando…' : 'Enviar'}
            </Button>
          </div>
        </fetcher.Form>
      </Card>
    </section>
  );
}
