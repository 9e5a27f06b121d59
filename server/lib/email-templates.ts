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
  return emailLayoutWith(
    appName,
    title,
    {
      html: paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join('\n'),
      text: paragraphs.join('\n'),
    },
    action,
  );
}

/**
 * The same look around a body already written as escaped HTML and as text (an announcement's
 * short format: shared/announcement-format.ts). The HTML must come from a function that escapes.
 */
export function emailLayoutWith(
  appName: string,
  title: string,
  body: { html: string; text: string },
  action?: { label: string; url: string },
) {
  const html = `<!doctype html><html lang="es"><body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<div style="max-width:520px;margin:auto;background:#fff;border-radius:12px;padding:32px;border:1px solid #e2e8f0">
<p style="font-weight:700;font-size:18px;margin:0 0 16px">${escapeHtml(appName)}</p>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${body.html}
${action ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p><p style="font-size:13px;color:#475569">Si el botón no funciona, copia este enlace en tu navegador:<br>${escapeHtml(action.url)}</p>` : ''}
</div></body></html>`;
  const text = [
    title,
    '',
    body.text,
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

export function magicLinkEmail(appName: string, to: string, url: string): MailMessage {
  const body = emailLayout(
    appName,
    'Tu enlace para entrar',
    [
      'Hola:',
      `Pulsa el botón para entrar en ${appName}. El enlace sirve una sola vez y caduca en 10 minutos.`,
      'Si abres el correo en otro dispositivo, pide mejor un código desde la página de inicio de sesión.',
      'Si no lo pediste tú, ignora este mensaje: nadie entra sin este enlace.',
    ],
    { label: 'Entrar', url },
  );
  return { to, subject: `Tu enlace para entrar en ${appName}`, ...body };
}

export function signInCodeEmail(appName: string, to: string, code: string): MailMessage {
  const body = emailLayout(appName, 'Tu código para entrar', [
    'Hola:',
    `Tu código para entrar en ${appName} es: ${code}`,
    'Sirve una sola vez y caduca en 10 minutos. No lo compartas con nadie: nunca te lo pediremos.',
    'Si no lo pediste tú, ignora este mensaje.',
  ]);
  return { to, subject: `Tu código para entrar en ${appName}`, ...body };
}

/** A sign-in from a browser this account had not used before. */
export function newSignInEmail(
  appName: string,
  to: string,
  name: string,
  details: { when: string; device: string; place: string },
  securityUrl: string,
): MailMessage {
  const body = emailLayout(
    appName,
    'Nuevo inicio de sesión',
    [
      `Hola, ${name}:`,
      `Alguien entró en tu cuenta desde un dispositivo nuevo: ${details.device}, ${details.place}, el ${details.when} (UTC).`,
      'Si fuiste tú, no hace falta que hagas nada.',
      'Si no fuiste tú, cierra esa sesión desde Mi perfil → Seguridad, cambia tu contraseña y activa la verificación en dos pasos.',
    ],
    { label: 'Revisar mis sesiones', url: securityUrl },
  );
  return { to, subject: `Nuevo inicio de sesión en ${appName}`, ...body };
}

/** A change to how the account signs in (2FA, phone, linked provider, e-mail). */
export function securityChangeEmail(
  appName: string,
  to: string,
  name: string,
  change: string,
  securityUrl: string,
): MailMessage {
  const body = emailLayout(
    appName,
    'Cambio en la seguridad de tu cuenta',
    [
      `Hola, ${name}:`,
      change,
      'Si no fuiste tú, entra cuanto antes, revisa tus sesiones y métodos de acceso en Mi perfil → Seguridad, y escríbenos.',
    ],
    { label: 'Revisar la seguridad', url: securityUrl },
  );
  return { to, subject: `Cambio en la seguridad de tu cuenta de ${appName}`, ...body };
}

export function changeEmailConfirmationEmail(
  appName: string,
  to: string,
  name: string,
  newEmail: string,
  url: string,
): MailMessage {
  const body = emailLayout(
    appName,
    'Confirma el cambio de correo',
    [
      `Hola, ${name}:`,
      `Pediste cambiar el correo de tu cuenta a ${newEmail}. Confírmalo con el botón; después te enviaremos un enlace a la nueva dirección para verificarla.`,
      'Si no lo pediste tú, no pulses el botón y cambia tu contraseña.',
    ],
    { label: 'Confirmar el cambio', url },
  );
  return { to, subject: `Confirma el cambio de correo en ${appName}`, ...body };
}

export function accountDeletedEmail(appName: string, to: string, name: string): MailMessage {
  const body = emailLayout(appName, 'Tu cuenta se ha eliminado', [
    `Hola, ${name}:`,
    'Eliminamos tu cuenta y tus datos personales, como pediste. Conservamos de forma anónima el registro de órdenes y movimientos que la ley contable nos obliga a guardar.',
    'Este es el último correo que te enviamos.',
  ]);
  return { to, subject: `Tu cuenta de ${appName} se ha eliminado`, ...body };
}

/** An invitation to join the staff with a role: the link accepts it (or creates the account). */
export function staffInvitationEmail(input: {
  appName: string;
  to: string;
  roleLabel: string;
  invitedBy: string;
  url: string;
  days: number;
}): MailMessage {
  const body = emailLayout(
    input.appName,
    `Te invitan al equipo de ${input.appName}`,
    [
      `${input.invitedBy} te invita a trabajar en ${input.appName} con el rol «${input.roleLabel}».`,
      'Abre el enlace para aceptar. Si ya tienes una cuenta con este correo, recibirá el rol; si no, podrás crearla. Después tendrás que activar la verificación en dos pasos.',
      `El enlace caduca en ${input.days} días y solo puede usarse una vez. Si no esperabas esta invitación, ignora este mensaje.`,
    ],
    { label: 'Aceptar la invitación', url: input.url },
  );
  return { to: input.to, subject: `Invitación al equipo de ${input.appName}`, ...body };
}
