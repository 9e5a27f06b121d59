import { LoadingScreen } from '../../components/ui/spinner';
import { APP_NAME } from '../../lib/app-name';

export function meta() {
  return [{ title: `Vista previa · ${APP_NAME}` }];
}

/** Shows the loading screen (docs/domain.md §8). */
export default function Preview() {
  return <LoadingScreen />;
}
