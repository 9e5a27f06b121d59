// A service's file field in the order form: the person picks a file, it is checked here with the
// server's own rules (shared/files.ts) and uploaded at once (POST /api/order-files); the field's
// value is then the upload's id, which the order carries.
import { useId, useState } from 'react';
import {
  allowedExtensionsText,
  fileMaxBytes,
  fileProblem,
  formatBytes,
} from '../../../shared/files';
import type { ServiceField } from '../../../shared/schemas/catalogue';
import {
  UploadedOrderFileSchema,
  type UploadedOrderFile,
} from '../../../shared/schemas/order-files';
import { ApiError, readErrorAnswer } from '../../lib/api';

const UPLOAD_FAILED = 'No pudimos subir el archivo. Inténtalo de nuevo.';

/** POST /api/order-files: multipart, so `api()` (JSON) is not used. */
export async function uploadOrderFile(
  serviceId: string,
  field: string,
  file: File,
): Promise<UploadedOrderFile> {
  const form = new FormData();
  form.append('serviceId', serviceId);
  form.append('field', field);
  form.append('file', file);
  let response: Response;
  try {
    response = await fetch('/api/order-files', {
      method: 'POST',
      body: form,
      credentials: 'same-origin',
      signal: AbortSignal.timeout(5 * 60_000),
    });
  } catch {
    throw new ApiError(0, 'NETWORK', UPLOAD_FAILED);
  }
  const body: unknown = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = readErrorAnswer(body);
    throw new ApiError(
      response.status,
      error.code ?? `HTTP_${response.status}`,
      error.fields?.file ?? error.message ?? UPLOAD_FAILED,
      error.fields ?? {},
    );
  }
  const parsed = UploadedOrderFileSchema.safeParse(body);
  if (!parsed.success) throw new ApiError(response.status, 'INVALID_RESPONSE', UPLOAD_FAILED);
  return parsed.data;
}

/** What the field shows under the input: its hint and limits. */
export function fileHint(field: ServiceField): string {
  const extensions = allowedExtensionsText(field);
  const limits = `${extensions ? `Formatos: ${extensions}. ` : ''}Máximo ${formatBytes(fileMaxBytes(field))}.`;
  return field.hint ? `${field.hint} ${limits}` : limits;
}

export function FileField({
  serviceId,
  field,
  error,
  onChange,
}: {
  serviceId: string;
  field: ServiceField;
  error?: string | undefined;
  /** The upload's id once it is stored, '' while there is none. */
  onChange: (uploadId: string, problem?: string) => void;
}) {
  const id = useId();
  const [state, setState] = useState<
    | { kind: 'none' }
    | { kind: 'uploading'; name: string }
    | { kind: 'done'; file: UploadedOrderFile }
  >({ kind: 'none' });
  const label = field.required ? field.label : `${field.label} (opcional)`;
  const hint = fileHint(field);

  async function choose(file: File | undefined) {
    if (!file) {
      setState({ kind: 'none' });
      onChange('');
      return;
    }
    const problem = fileProblem(field, file);
    if (problem) {
      setState({ kind: 'none' });
      onChange('', problem);
      return;
    }
    setState({ kind: 'uploading', name: file.name });
    onChange('');
    try {
      const stored = await uploadOrderFile(serviceId, field.key, file);
      setState({ kind: 'done', file: stored });
      onChange(stored.id);
    } catch (err) {
      setState({ kind: 'none' });
      onChange('', err instanceof ApiError ? err.message : UPLOAD_FAILED);
    }
  }

  const described = [`${id}-hint`, error ? `${id}-error` : '', `${id}-state`]
    .filter(Boolean)
    .join(' ');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={field.key}
        type="file"
        accept={(field.extensions ?? []).map((e) => `.${e}`).join(',') || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:font-medium"
        onChange={(e) => void choose(e.target.files?.[0])}
      />
      <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
        {hint}
      </p>
      <p id={`${id}-state`} className="mt-1 text-sm text-slate-700" aria-live="polite">
        {state.kind === 'uploading'
          ? `Subiendo ${state.name}…`
          : state.kind === 'done'
            ? `Archivo listo: ${state.file.name} (${formatBytes(state.file.size)}).`
            : ''}
      </p>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
