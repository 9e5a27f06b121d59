import { Fragment, type ReactNode } from 'react';
import { parseAnnouncement, type Inline } from '../../../shared/announcement-format';

function inline(nodes: Inline[], key = ''): ReactNode[] {
  return nodes.map((n, i) => {
    const k = `${key}${i}`;
    switch (n.type) {
      case 'text':
        return <Fragment key={k}>{n.text}</Fragment>;
      case 'break':
        return <br key={k} />;
      case 'strong':
        return (
          <strong key={k} className="font-semibold">
            {inline(n.children, `${k}-`)}
          </strong>
        );
      case 'em':
        return <em key={k}>{inline(n.children, `${k}-`)}</em>;
      case 'link':
        return (
          <a
            key={k}
            href={n.href}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-brand-700 underline hover:text-brand-800"
          >
            {inline(n.children, `${k}-`)}
          </a>
        );
    }
  });
}

/**
 * An announcement's short formatted text (shared/announcement-format.ts) as React elements:
 * whatever the text holds, HTML included, is only ever text.
 */
export function FormattedText({ source, className = '' }: { source: string; className?: string }) {
  return (
    <div className={`flex flex-col gap-2 break-words ${className}`}>
      {parseAnnouncement(source).map((p, i) => (
        <p key={i}>{inline(p.children)}</p>
      ))}
    </div>
  );
}
