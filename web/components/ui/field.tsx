import {
  useId,
  type ComponentPropsWithRef,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

type FieldProps = {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  /** A working screen's toolbar: on a desktop, a smaller label and a 36 px control. */
  dense?: boolean | undefined;
};

const DENSE_CONTROL = 'lg:mt-0.5 lg:py-1.5 lg:text-sm';

const inputClass = (error?: string, dense?: boolean) =>
  `mt-1 block w-full rounded-lg border bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 ${
    error ? 'border-red-600' : 'border-slate-300'
  }${dense ? ` ${DENSE_CONTROL}` : ''}`;

function Messages({
  id,
  error,
  hint,
}: {
  id: string;
  error?: string | undefined;
  hint?: string | undefined;
}) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
}

function describedBy(id: string, error?: string, hint?: string) {
  return (
    [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  );
}

/** The label, the control and its hint and error, tied together by ids. */
function Field({
  id,
  label,
  error,
  hint,
  dense,
  children,
}: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div>
      <label
        htmlFor={id}
        className={`block text-sm font-medium text-slate-800${dense ? ' lg:text-xs' : ''}`}
      >
        {label}
      </label>
      {children}
      <Messages id={id} error={error} hint={hint} />
    </div>
  );
}

function controlProps(id: string, error?: string, hint?: string, dense?: boolean) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, error, hint),
    className: inputClass(error, dense),
  };
}

export function TextField({
  label,
  error,
  hint,
  dense,
  ...props
}: FieldProps & ComponentPropsWithRef<'input'>) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error} hint={hint} dense={dense}>
      <input {...controlProps(id, error, hint, dense)} {...props} />
    </Field>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  dense,
  ...props
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error} hint={hint} dense={dense}>
      <textarea {...controlProps(id, error, hint, dense)} {...props} />
    </Field>
  );
}

export type SelectOption = { value: string; label: string };

/** A labelled <select>; `placeholder` adds a first, empty choice. */
export function SelectField({
  label,
  error,
  hint,
  dense,
  options,
  placeholder,
  ...props
}: FieldProps & {
  options: readonly SelectOption[];
  placeholder?: string | undefined;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error} hint={hint} dense={dense}>
      <select {...controlProps(id, error, hint, dense)} {...props}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A labelled checkbox, with the hint and error placed and tied like the other fields. */
export function CheckboxField({
  label,
  hint,
  error,
  dense: _dense,
  ...props
}: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const id = useId();
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
          aria-describedby={describedBy(id, error, hint)}
          {...props}
        />
        <span>{label}</span>
      </label>
      <Messages id={id} error={error} hint={hint} />
    </div>
  );
}
