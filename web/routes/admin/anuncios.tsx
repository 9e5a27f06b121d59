import { useLoaderData } from 'react-router';
import { PageTitle } from '../../components/ui/card';
import { LoadedList } from '../../components/ui/section';
import { AnnouncementsAdmin } from '../../features/announcements/admin-announcements';
import {
  runAnnouncementAction,
  type AnnouncementActionResult,
} from '../../features/announcements/announcement-actions';
import { loadAnnouncementsPage } from '../../features/announcements/admin-announcements-api';
import { APP_NAME } from '../../lib/app-name';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/anuncios';

export function meta() {
  return [{ title: `Anuncios · ${APP_NAME}` }];
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, loadAnnouncementsPage, 'announcements');
}

export async function clientLoader() {
  await staffClientGuard('announcements');
  return loadAnnouncementsPage();
}

export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<AnnouncementActionResult> {
  return runAnnouncementAction(await request.formData());
}

/** Announcements to customers: on their dashboard, as a banner until read, optionally by e-mail. */
export default function AdminAnuncios() {
  const { announcements, groups } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Anuncios"
        subtitle="Avisos para todos los clientes o para los de algunos grupos de precios: en su inicio, como aviso hasta que lo cierran y, si quieres, por correo."
      />
      <LoadedList value={announcements} what="los anuncios">
        {(items) => (
          <AnnouncementsAdmin announcements={items} groups={groups.ok ? groups.data : []} />
        )}
      </LoadedList>
    </>
  );
}
