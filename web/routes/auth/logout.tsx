import { redirect } from 'react-router';
import { LoadingScreen } from '../../components/ui/spinner';
import { api } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { endSession } from '../../lib/session';

export function meta() {
  return [{ title: `Cerrar sesión · ${APP_NAME}` }];
}

/** Ends the session on the server (the row is deleted), then on this device. */
export async function clientLoader() {
  try {
    await api('/api/auth/sign-out', { body: {} });
  } catch (err) {
    console.warn('No se pudo cerrar la sesión en el servidor:', err);
  }
  endSession(false);
  return redirect('/login?motivo=salida');
}

export function HydrateFallback() {
  return <LoadingScreen />;
}

export default function Logout() {
  return <LoadingScreen />;
}
