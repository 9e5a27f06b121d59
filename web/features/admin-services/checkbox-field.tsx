import { useId, type InputHTMLAttributes } from 'react';

/** A labelled checkbox with the hint and error of the other fields (web/components/ui/field.tsx). */
export function CheckboxField({
  label,
  hint,
  error,
  ...props
}: {
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const id = useId();
  const described =
    [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label
        htmlFor={id}
        className="flex min-h-11 items-center gap-3 text-sm font-medium text-slate-800"
      >
        <input
          id={id}
          type="checkbox"
          className="size-5 shrink-0 accent-brand-600"
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          {...props}
        />
        <span>{label}</span>
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
