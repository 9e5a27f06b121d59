import { useId, useState } from 'react';
import { checkTicketFiles, TICKET_FILE_ACCEPT, TICKET_FILES_HINT } from './attachments';

/**
 * The attachments of a message (`files`): checked as soon as they are chosen, with the limits the
 * API applies; `error` is the form's (the action checks them again before sending).
 */
export function FilesField({
  error,
  label = 'Archivos adjuntos (opcional)',
}: {
  error?: string | undefined;
  label?: string;
}) {
  const id = useId();
  const [local, setLocal] = useState<string | null>(null);
  const shown = local ?? error;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name="files"
        type="file"
        multiple
        accept={TICKET_FILE_ACCEPT}
        aria-invalid={shown ? true : undefined}
        aria-describedby={`${id}-hint${shown ? ` ${id}-error` : ''}`}
        onChange={(e) => setLocal(checkTicketFiles([...(e.currentTarget.files ?? [])]))}
        className="file:bg-brand-50 file:text-brand-800 mt-1 block w-full max-w-full text-sm text-slate-700 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:px-3 file:font-semibold"
      />
      <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
        {TICKET_FILES_HINT}
      </p>
      {shown ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {shown}
        </p>
      ) : null}
    </div>
  );
}
