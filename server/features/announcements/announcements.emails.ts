// The e-mail of an announcement: its short formatted text as escaped HTML and as plain text
// (shared/announcement-format.ts), with a link to the customer's dashboard.
import {
  announcementHtml,
  announcementPlainText,
  escapeHtml,
} from '../../../shared/announcement-format';
import type { Env } from '../../env';
import { emailLayoutWith } from '../../lib/email-templates';
import type { MailMessage } from '../../lib/mail';

export function announcementMail(
  env: Pick<Env, 'APP_NAME' | 'APP_URL'>,
  to: { email: string; name: string },
  item: { title: string; body: string },
): MailMessage {
  const greeting = to.name.trim() ? `Hola, ${to.name.trim()}:` : 'Hola:';
  const body = emailLayoutWith(
    env.APP_NAME,
    item.title,
    {
      html: [
        `<p style="line-height:1.5">${escapeHtml(greeting)}</p>`,
        announcementHtml(item.body, 'line-height:1.5'),
      ].join('\n'),
      text: [greeting, '', announcementPlainText(item.body)].join('\n'),
    },
    { label: `Abrir ${env.APP_NAME}`, url: `${env.APP_URL}/dashboard` },
  );
  return { to: to.email, subject: `${item.title} · ${env.APP_NAME}`, ...body };
}
