import type { AnchorHTMLAttributes } from 'react';

/** `url` with the reader's time zone (`tz`), so a CSV's dates are in their local time. */
export function withTimeZone(url: string, zone: string | undefined): string {
  if (!zone) return url;
  return `${url}${url.includes('?') ? '&' : '?'}tz=${encodeURIComponent(zone)}`;
}

/**
 * A link to a CSV export (the Spanish-Excel form, server/lib/csv.ts). The browser's time zone is
 * added when it is followed, not when the page is drawn: the server that renders the page does
 * not know it, and the link must be the same on both sides.
 */
export function CsvLink({
  href,
  onClick,
  children,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <a
      href={href}
      onClick={(event) => {
        if (href) {
          const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
          event.currentTarget.href = withTimeZone(href, zone);
        }
        onClick?.(event);
      }}
      {...props}
    >
      {children}
    </a>
  );
}
