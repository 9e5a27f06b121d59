import type { MailMessage } from './mail';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The one look of every e-mail: HTML and plain text from the same paragraphs. */
export function emailLayout(
  appName: string,
  title: string,
  paragraphs: string[],
  action?: { label: string; url: string },
) {
  const html = `<!doctype html><html lang="es"><body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<div style="max-width:520px;margin:auto;background:#fff;border-radius:12px;padding:32px;border:1px solid #e2e8f0">
<p style="font-weight:700;font-size:18px;margin:0 0 16px">${escapeHtml(appName)}</p>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${action ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p><p style="font-size:13px;color:#475569">Si el botón no funciona, copia este enlace en tu navegador:<br>${escapeHtml(action.url)}</p>` : ''}
</div></body></html>`;
  const text = [
    title,
    '',
    ...paragraphs,
    ...(action ? ['', `${action.label}: ${action.url}`] : []),
    '',
    `— ${appName}`,
  ].join('\n');
  return { html, text };
}

export function verificationEmail(
  appName: string,
  to: string,
  name: string,
  url: string,
): MailMessage {
  const body = emailLayout(
    appName,
    'Confirma tu correo electrónico',
    [
      `Hola, ${name}:`,
      `Gracias por registrarte en ${appName}. Confirma tu correo para activar tu cuenta y empezar a usar tu saldo.`,
      'El enlace caduca en 1 hora y solo puede usarse una vez. Si no creaste esta cuenta, ignora este mensaje.',
    ],
    { label: 'Verificar mi correo', url },
  );
  return { to, subject: `Verifica tu correo en ${appName}`, ...body };
}

export function resetPasswordEmail(
  appName: string,
  to: string,
  name: string,
  url: string,
): MailMessage {
  const body = emailLayout(
    appName,
    'Restablece tu contraseña',
    [
      `Hola, ${name}:`,
      'Recibimos una solicitud para restablecer la contraseña de tu cuenta.',
      'El enlace caduca en 30 minutos y solo puede usarse una vez. Al cambiarla se cerrarán todas tus sesiones abiertas. Si no lo pediste tú, ignora este mensaje: tu contraseña no cambiará.',
    ],
    { label: 'Elegir una nueva contraseña', url },
  );
  return { to, subject: `Restablece tu contraseña de ${appName}`, ...body };
}

/**
 * To the owner of an address someone tried to register again. The sign-up form answers the same
 * as for a new address (docs/decisions/0010), so this e-mail is where the owner learns of it.
 */
export function signUpAttemptEmail(
  appName: string,
  to: string,
  name: string,
  links: { login: string; recover: string },
): MailMessage {
  const body = emailLayout(
    appName,
    'Alguien intentó crear una cuenta con tu correo',
    [
      `Hola, ${name}:`,
      `Alguien intentó crear una cuenta en ${appName} con tu correo, pero ya tienes una. No hemos creado otra ni cambiado nada en la tuya.`,
      `Si fuiste tú, inicia sesión con tu contraseña. Si no la recuerdas, elige una nueva aquí: ${links.recover}`,
      'Si no fuiste tú, puedes ignorar este mensaje: tu cuenta sigue igual.',
    ],
    { label: 'Iniciar sesión', url: links.login },
  );
  return { to, subject: `Intento de registro con tu correo en ${appName}`, ...body };
}

export function passwordChangedEmail(
  appName: string,
  to: string,
  name: string,
  loginUrl: string,
): MailMessage {
  const body = emailLayout(
    appName,
    'Tu contraseña ha cambiado',
    [
      `Hola, ${name}:`,
      'La contraseña de tu cuenta se cambió correctamente y cerramos todas tus sesiones.',
      'Si no fuiste tú, restablece la contraseña de inmediato y contáctanos.',
    ],
    { label: 'Iniciar sesión', url: loginUrl },
  );
  return { to, subject: `Tu contraseña de ${appName} ha cambiado`, ...body };
}

export function contactNotificationEmail(
  appName: string,
  to: string,
  message: { name: string; email: string; subject: string; message: string },
): MailMessage {
  const body = emailLayout(appName, `Nuevo mensaje de contacto: ${message.subject}`, [
    `De: ${message.name} <${message.email}>`,
    ...message.message.split(/\n{2,}/),
  ]);
  return { to, replyTo: message.email, subject: `[Contacto] ${message.subject}`, ...body };
}
