// /admin/soporte/:id: one ticket for the desk — the conversation with internal notes drawn apart,
// the reply box («Nota interna», saved replies), assignment, state, the customer and the linked
// orders with links to their admin pages (admin and support).
import { useEffect, useRef, useState } from 'react';
import { Link, useFetcher, useLoaderData } from 'react-router';
import {
  TICKET_CATEGORY_LABELS,
  TICKET_STATE_LABELS,
  TICKET_STATES,
  type StaffTicketDetail,
} from '../../../shared/schemas/tickets';
import { StaffListSchema, type StaffMember } from '../../../shared/schemas/staff';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { CheckboxField, SelectField, TextAreaField } from '../../components/ui/field';
import { isBusy, LoadedList } from '../../components/ui/section';
import { loadSnippets, queueSearchUrl, type SnippetDto } from '../../features/admin-desk/desk-api';
import { Conversation } from '../../features/tickets/conversation';
import { FilesField } from '../../features/tickets/files-field';
import { runStaffTicketAction, type StaffTicketResult } from '../../features/tickets/staff-actions';
import { durationText } from '../../features/tickets/staff-filters';
import { TicketStateBadge } from '../../features/tickets/ticket-badges';
import { getStaffTicket } from '../../features/tickets/tickets-api';
import { api } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { useDates } from '../../lib/dates';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';
import { settle } from '../../lib/loaded';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/soporte-ticket';

export function meta({ data }: Route.MetaArgs) {
  const ticket = data?.ticket.ok ? data.ticket.data : null;
  return [{ title: `${ticket ? `Ticket #${ticket.number}` : 'Ticket'} · Soporte · ${APP_NAME}` }];
}

/** The saved replies of the desk (snippets of kind `ticket_reply`). */
function ticketReplies(items: SnippetDto[]): SnippetDto[] {
  return items.filter((s) => s.kind === 'ticket_reply');
}

/**
 * The ticket, the saved replies (none when they cannot be read: typing still works) and the team
 * for the assignee picker (only admins may list it: support gets «Asignarme» alone).
 */
async function load(id: string, me: { id: string; role: string }) {
  const [ticket, snippets, staff] = await Promise.all([
    settle(getStaffTicket(id)),
    loadSnippets().then(ticketReplies),
    me.role === 'admin'
      ? api.get('/api/admin/staff', StaffListSchema).then(
          (r) => r.items.filter((s) => s.role === 'admin' || s.role === 'support'),
          () => null,
        )
      : Promise.resolve(null),
  ]);
  return { ticket, snippets, staff, meId: me.id };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  return adminPage(request, (session) => load(params.id, session.user), 'tickets');
}

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  const user = await staffClientGuard('tickets');
  return load(params.id, user);
}

export async function clientAction({ request, params }: Route.ClientActionArgs) {
  return runStaffTicketAction(params.id, await request.formData());
}

export default function AdminSoporteTicket() {
  const { ticket, snippets, staff, meId } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/admin/soporte" className="text-brand-700 font-medium underline">
          Volver a Soporte
        </Link>
      </p>
      <LoadedList value={ticket} what="el ticket">
        {(t) => <TicketDesk key={t.id} ticket={t} snippets={snippets} staff={staff} meId={meId} />}
      </LoadedList>
    </>
  );
}

function TicketDesk({
  ticket,
  snippets,
  staff,
  meId,
}: {
  ticket: StaffTicketDetail;
  snippets: SnippetDto[];
  staff: StaffMember[] | null;
  meId: string;
}) {
  const dates = useDates();
  return (
    <>
      <PageTitle dense title={`#${ticket.number} · ${ticket.subject}`} />
      <div className="grid min-w-0 gap-4 lg:grid-cols-[minmax(0,1fr)_20rem] [&>*]:min-w-0">
        <div className="flex min-w-0 flex-col gap-4">
          <section aria-labelledby="ticket-conversacion">
            <h2 id="ticket-conversacion" className="sr-only">
              Conversación
            </h2>
            <Conversation messages={ticket.messages} viewer="staff" />
          </section>
          <ReplyBox snippets={snippets} />
        </div>
        <aside aria-label="Datos del ticket" className="flex min-w-0 flex-col gap-4">
          <Card className="p-4">
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div className="col-span-2">
                <dt className="text-slate-600">Estado</dt>
                <dd className="mt-0.5">
                  <TicketStateBadge state={ticket.state} />
                </dd>
              </div>
              <div className="col-span-2 min-w-0">
                <dt className="text-slate-600">Cliente</dt>
                <dd className="min-w-0">
                  <Link
                    to={`/admin/clientes/${ticket.customer.id}`}
                    className="text-brand-700 block truncate font-medium underline"
                  >
                    {ticket.customer.name || ticket.customer.email}
                  </Link>
                  <span className="block truncate text-slate-600">{ticket.customer.email}</span>
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Categoría</dt>
                <dd className="text-slate-900">{TICKET_CATEGORY_LABELS[ticket.category]}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Abierto el</dt>
                <dd className="text-slate-900">{dates.dateTime(ticket.createdAt)}</dd>
              </div>
              <div>
                <dt className="text-slate-600">1.ª respuesta</dt>
                <dd className="text-slate-900">{durationText(ticket.firstResponseSeconds)}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Resolución</dt>
                <dd className="text-slate-900">{durationText(ticket.resolutionSeconds)}</dd>
              </div>
              {ticket.orders.length > 0 ? (
                <div className="col-span-2 min-w-0">
                  <dt className="text-slate-600">Órdenes</dt>
                  <dd>
                    <ul>
                      {ticket.orders.map((o) => (
                        <li key={o.id} className="min-w-0 truncate">
                          <Link
                            to={queueSearchUrl(String(o.number)) ?? '/admin/ordenes'}
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
          </Card>
          <AssignForm ticket={ticket} staff={staff} meId={meId} />
          <StateForm ticket={ticket} />
        </aside>
      </div>
    </>
  );
}

function Outcome({ result, intent }: { result: StaffTicketResult | undefined; intent: string }) {
  if (!result || result.intent !== intent) return null;
  if (result.formError) return <Alert tone="error">{result.formError}</Alert>;
  if (result.message) return <Alert tone="success">{result.message}</Alert>;
  return null;
}

function ReplyBox({ snippets }: { snippets: SnippetDto[] }) {
  const fetcher = useFetcher<StaffTicketResult>();
  const result = fetcher.data;
  const busy = isBusy(fetcher, 'reply');
  const formRef = useFocusFirstInvalid(result);
  const [body, setBody] = useState('');
  const [internal, setInternal] = useState(false);
  // Bumped on every message sent: the file input starts empty again.
  const [sentCount, setSentCount] = useState(0);
  const handled = useRef<StaffTicketResult | undefined>(undefined);
  // Sent: the box is emptied for the next message (the conversation shows it already).
  useEffect(() => {
    if (result?.ok && result.intent === 'reply' && handled.current !== result) {
      handled.current = result;
      setBody('');
      setInternal(false);
      setSentCount((n) => n + 1);
    }
  }, [result]);
  const fields = result?.intent === 'reply' ? (result.fields ?? {}) : {};
  return (
    <section aria-labelledby="ticket-responder">
      <Card className={`p-4 ${internal ? 'border-amber-300 bg-amber-50' : ''}`}>
        <h2 id="ticket-responder" className="text-lg font-semibold text-slate-900">
          {internal ? 'Nota interna' : 'Responder al cliente'}
        </h2>
        {snippets.length > 0 ? (
          <div className="mt-2">
            <p id="respuestas-guardadas" className="text-sm font-medium text-slate-800">
              Respuestas guardadas
            </p>
            <ul aria-labelledby="respuestas-guardadas" className="mt-1 flex flex-wrap gap-2">
              {snippets.map((s) => (
                <li key={s.id} className="min-w-0">
                  <button
                    type="button"
                    onClick={() => setBody(s.body)}
                    className="max-w-full truncate rounded-full border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-100"
                  >
                    {s.title}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <fetcher.Form
          ref={formRef}
          method="post"
          encType="multipart/form-data"
          noValidate
          aria-label={internal ? 'Nota interna' : 'Responder al cliente'}
          className="mt-3 flex flex-col gap-3"
        >
          <input type="hidden" name="intent" value="reply" />
          <Outcome result={result} intent="reply" />
          <TextAreaField
            label={internal ? 'Nota (solo la ve el equipo)' : 'Mensaje al cliente'}
            name="body"
            rows={5}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            error={fields.body}
          />
          <FilesField key={sentCount} error={fields.files} />
          <CheckboxField
            label="Nota interna"
            name="internal"
            checked={internal}
            onChange={(e) => setInternal(e.currentTarget.checked)}
            hint="El cliente nunca ve las notas internas."
          />
          {internal ? null : (
            <SelectField
              label="Estado después de responder"
              name="state"
              defaultValue="answered"
              options={[
                { value: 'answered', label: TICKET_STATE_LABELS.answered },
                { value: 'waiting_customer', label: TICKET_STATE_LABELS.waiting_customer },
                { value: 'closed', label: TICKET_STATE_LABELS.closed },
              ]}
            />
          )}
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? 'Enviando…' : internal ? 'Guardar nota' : 'Enviar respuesta'}
            </Button>
          </div>
        </fetcher.Form>
      </Card>
    </section>
  );
}

function AssignForm({
  ticket,
  staff,
  meId,
}: {
  ticket: StaffTicketDetail;
  staff: StaffMember[] | null;
  meId: string;
}) {
  const fetcher = useFetcher<StaffTicketResult>();
  const busy = fetcher.state !== 'idle';
  const mine = ticket.assignee?.id === meId;
  return (
    <section aria-labelledby="ticket-asignacion">
      <Card className="p-4">
        <h2 id="ticket-asignacion" className="font-semibold text-slate-900">
          Asignación
        </h2>
        <p className="mt-1 text-sm text-slate-700" data-testid="ticket-assignee">
          {ticket.assignee ? `Asignado a ${ticket.assignee.name}` : 'Sin asignar'}
        </p>
        <div className="mt-2 flex flex-col gap-2">
          <Outcome result={fetcher.data} intent="assign" />
          {staff ? (
            <fetcher.Form method="post" className="flex flex-col gap-2">
              <input type="hidden" name="intent" value="assign" />
              <SelectField
                label="Asignar a"
                name="assigneeId"
                key={ticket.assignee?.id ?? ''}
                defaultValue={ticket.assignee?.id ?? ''}
                placeholder="Sin asignar"
                options={staff.map((s) => ({ value: s.id, label: s.name || s.email }))}
              />
              <Button type="submit" variant="secondary" disabled={busy}>
                Asignar
              </Button>
            </fetcher.Form>
          ) : null}
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="assign" />
            <input type="hidden" name="assigneeId" value={mine ? '' : meId} />
            <Button type="submit" variant="secondary" disabled={busy} className="w-full">
              {mine ? 'Quitar mi asignación' : 'Asignarme'}
            </Button>
          </fetcher.Form>
        </div>
      </Card>
    </section>
  );
}

function StateForm({ ticket }: { ticket: StaffTicketDetail }) {
  const fetcher = useFetcher<StaffTicketResult>();
  const busy = fetcher.state !== 'idle';
  return (
    <section aria-labelledby="ticket-estado">
      <Card className="p-4">
        <h2 id="ticket-estado" className="font-semibold text-slate-900">
          Estado
        </h2>
        <fetcher.Form method="post" className="mt-2 flex flex-col gap-2">
          <input type="hidden" name="intent" value="state" />
          <Outcome result={fetcher.data} intent="state" />
          <SelectField
            label="Cambiar a"
            name="state"
            key={ticket.state}
            defaultValue={ticket.state}
            options={TICKET_STATES.map((s) => ({ value: s, label: TICKET_STATE_LABELS[s] }))}
          />
          <Button type="submit" variant="secondary" disabled={busy}>
            Cambiar estado
          </Button>
        </fetcher.Form>
      </Card>
    </section>
  );
}
