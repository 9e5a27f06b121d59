import { useLoaderData } from 'react-router';
import { PageTitle } from '../../components/ui/card';
import { LoadedList } from '../../components/ui/section';
import { fetchSnippets } from '../../features/admin-desk/desk-api';
import {
  runSnippetAction,
  type SnippetActionResult,
} from '../../features/admin-desk/snippet-actions';
import { SnippetSection } from '../../features/admin-desk/snippets';
import { APP_NAME } from '../../lib/app-name';
import { settle } from '../../lib/loaded';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/respuestas';

export function meta() {
  return [{ title: `Respuestas guardadas · ${APP_NAME}` }];
}

async function load() {
  return { snippets: await settle(fetchSnippets()) };
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, load, 'orders');
}

export async function clientLoader() {
  await staffClientGuard('orders');
  return load();
}

export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<SnippetActionResult> {
  return runSnippetAction(await request.formData());
}

/** The saved rejection reasons and result templates the order queue offers. */
export default function AdminRespuestas() {
  const { snippets } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Respuestas guardadas"
        subtitle="Los motivos de rechazo y las plantillas de resultado que se eligen en la cola de órdenes, y las respuestas de soporte, para no escribirlos cada vez."
      />
      <LoadedList value={snippets} what="las respuestas guardadas">
        {(items) => (
          <div className="flex flex-col gap-6">
            <SnippetSection
              kind="reject_reason"
              items={items.filter((s) => s.kind === 'reject_reason')}
            />
            <SnippetSection
              kind="result_template"
              items={items.filter((s) => s.kind === 'result_template')}
            />
            <SnippetSection
              kind="ticket_reply"
              items={items.filter((s) => s.kind === 'ticket_reply')}
            />
          </div>
        )}
      </LoadedList>
    </>
  );
}
