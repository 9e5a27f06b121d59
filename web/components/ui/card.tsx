import type { ReactNode } from 'react';

/** A white panel; a `className` with its own padding (`p-4 sm:p-6`) replaces the default p-6. */
export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  const padding = /(^|\s)p-\d/.test(className) ? '' : 'p-6 ';
  return (
    <div
      className={`rounded-2xl border border-slate-200 bg-white ${padding}shadow-sm ${className}`}
    >
      {children}
    </div>
  );
}

/** `compact`: on a phone the subtitle is left out and the gap below is smaller. */
export function PageTitle({
  title,
  subtitle,
  compact = false,
  dense = false,
}: {
  title: string;
  subtitle?: string;
  compact?: boolean;
  /** A working screen (the order queue): a smaller title and a one-line subtitle on a desktop. */
  dense?: boolean;
}) {
  return (
    <header className={compact ? 'mb-4 sm:mb-6' : dense ? 'mb-4 lg:mb-3' : 'mb-6'}>
      <h1
        className={`text-2xl font-bold tracking-tight break-words text-slate-900 ${dense ? '' : 'sm:text-3xl'}`}
      >
        {title}
      </h1>
      {subtitle ? (
        <p
          className={`mt-2 text-slate-600 ${compact ? 'hidden sm:block' : ''} ${dense ? 'lg:mt-1 lg:text-sm' : ''}`}
        >
          {subtitle}
        </p>
      ) : null}
    </header>
  );
}
