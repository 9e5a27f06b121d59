// /soporte «Soporte»: the customer's tickets, newest activity first, and «Nuevo ticket».
import { Link, useLoaderData } from 'react-router';
import { TICKET_CATEGORY_LABELS, type TicketList } from '../../../shared/schemas/tickets';
import { buttonClass } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { LoadedList } from '../../components/ui/section';
import { TicketStateBadge, UnreadMark } from '../../features/tickets/ticket-badges';
import { listMyTickets } from '../../features/tickets/tickets-api';
import { APP_NAME } from '../../lib/app-name';
import { useDates } from '../../lib/dates';
import { settle } from '../../lib/loaded';
import { LoadMore, useMorePages } from '../../lib/more-pages';
import { signedInPage } from '../../lib/page-loader.server';
import type { Route } from './+types/soporte';

export function meta() {
  return [{ title: `Soporte · ${APP_NAME}` }];
}

async function load() {
  return { tickets: await settle(listMyTickets()) };
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return signedInPage(request, load);
}

export async function clientLoader() {
  return load();
}

export default function Soporte() {
  const { tickets } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Soporte"
        subtitle="Escríbenos sobre una orden, un pago o tu cuenta. Te respondemos aquí y por correo."
      />
      <div className="mb-4">
        <Link to="/soporte/nuevo" className={buttonClass('primary')}>
          Nuevo ticket
        </Link>
      </div>
      <LoadedList value={tickets} what="tus tickets">
        {(first) => <TicketListView first={first} />}
      </LoadedList>
    </>
  );
}

function TicketListView({ first }: { first: TicketList }) {
  const dates = useDates();
  const pages = useMorePages(first, (cursor) => listMyTickets(cursor));
  if (pages.items.length === 0)
    return (
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Aún no tienes tickets</h2>
        <p className="mt-1 text-slate-600">
          Si algo no salió como esperabas con una orden o un pago, abre un ticket y te ayudamos.
          También puedes hacerlo desde el detalle de una orden con «Tengo un problema con esta
          orden».
        </p>
      </Card>
    );
  return (
    <section aria-labelledby="tus-tickets">
      <h2 id="tus-tickets" className="sr-only">
        Tus tickets
      </h2>
      <Card className="p-0">
        <ul className="divide-y divide-slate-100" data-testid="tickets">
          {pages.items.map((t) => (
            <li key={t.id} className="min-w-0">
              <Link
                to={`/soporte/${t.id}`}
                className="flex min-w-0 flex-col gap-1 px-4 py-3 hover:bg-slate-50 sm:flex-row sm:items-center sm:gap-4"
              >
                <span className="flex min-w-0 flex-1 flex-col">
                  <span className="flex min-w-0 items-baseline gap-2">
                    <span className="shrink-0 text-sm text-slate-600 tabular-nums">
                      #{t.number}
                    </span>
                    <span
                      className={`line-clamp-2 min-w-0 break-words ${t.unread > 0 ? 'font-bold' : 'font-medium'} text-slate-900`}
                    >
                      {t.subject}
                    </span>
                  </span>
                  <span className="text-sm text-slate-600">
                    {TICKET_CATEGORY_LABELS[t.category]} · Última actividad:{' '}
                    {dates.dateTime(t.lastMessageAt)}
                  </span>
                </span>
                <span className="flex shrink-0 items-center gap-2">
                  <UnreadMark count={t.unread} />
                  <TicketStateBadge state={t.state} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </Card>
      <LoadMore pages={pages} />
    </section>
  );
}
