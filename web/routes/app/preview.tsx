import { LoadingScreen } from '../../components/ui/spinner';
import { APP_NAME } from '../../lib/app-name';

export function meta() {
  return [{ title: `Vista previa · ${APP_NAME}` }];
}

/** Shows the loading screen (SPEC §2). */
export default function Preview() {
  return <LoadingScreen />;
}
