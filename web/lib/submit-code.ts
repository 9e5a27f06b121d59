// The code that sends a public page's form (the shared zod schemas, the API client) is not part
// of the page: the prerendered pages load it when the person starts filling the form in (focus)
// and at the latest when they send it. See `npm run budget`.

/** What a form shows when its code cannot be loaded (offline, or a deploy replaced the files). */
export const SUBMIT_CODE_FAILED =
  'No hay conexión con el servidor. Revisa tu conexión e inténtalo de nuevo.';

/**
 * Loads a form's submission code; null (after a warning) when it cannot be loaded, so the form
 * can say so instead of the page failing. Calling it again after a failure tries again.
 */
export function loadSubmitCode<T>(load: () => Promise<T>): Promise<T | null> {
  return load().catch((err: unknown) => {
    console.warn('No se pudo cargar el código del formulario:', err);
    return null;
  });
}
