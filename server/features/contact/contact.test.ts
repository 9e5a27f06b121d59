import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessage } from '../../db/schema/contact';
import { createLogger } from '../../lib/logger';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { submitContactMessage } from './contact.service';

const VALID = {
  name: 'Gabriela Ortiz',
  email: 'Gabi@Example.com',
  subject: 'Consulta de precios',
  message: 'Hola, ¿tienen desbloqueo para Samsung A54?',
};

describe.each(dbTargets())('contact form on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { CONTACT_EMAIL: 'operador@example.com' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores the message and e-mails it to the operator', async () => {
    const res = await t.client('10.1.1.1').post('/api/contact', VALID);
    expect(res.status).toBe(201);
    const { id, message } = (await res.json()) as { id: string; message: string };
    expect(message).toMatch(/Hemos recibido tu mensaje/);
    const [row] = await t.database.db
      .select()
      .from(contactMessage)
      .where(eq(contactMessage.id, id));
    expect(row).toMatchObject({
      name: 'Gabriela Ortiz',
      email: 'gabi@example.com',
      subject: 'Consulta de precios',
      ipAddress: '10.1.1.1',
    });
    const mail = await t.waitForMail('operador@example.com', /\[Contacto\] Consulta de precios/);
    await expect
      .poll(async () => {
        const [sent] = await t.database.db
          .select({ at: contactMessage.emailedAt })
          .from(contactMessage)
          .where(eq(contactMessage.id, id));
        return sent?.at instanceof Date;
      })
      .toBe(true);
    expect(mail.text).toContain('¿tienen desbloqueo para Samsung A54?');
  });

  it('answers 400 with a Spanish message per field and stores nothing', async () => {
    const before = await t.database.db.select().from(contactMessage);
    const res = await t
      .client('10.1.1.2')
      .post('/api/contact', { name: '', email: 'no-es-correo', subject: 'x', message: 'corto' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; fields: Record<string, string> };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.fields).toEqual({
      name: 'Escribe tu nombre.',
      email: 'Escribe un correo electrónico válido.',
      subject: 'El asunto debe tener al menos 3 caracteres.',
      message: 'El mensaje debe tener al menos 10 caracteres.',
    });
    expect(await t.database.db.select().from(contactMessage)).toHaveLength(before.length);
  });

  it('keeps the message when the e-mail cannot be sent', async () => {
    const failing = { kind: 'smtp' as const, send: () => Promise.reject(new Error('SMTP down')) };
    const result = await submitContactMessage(
      {
        db: t.database.db,
        mailer: failing,
        logger: createLogger('silent'),
        appName: 'Cometa',
        operatorEmail: 'op@example.com',
      },
      { ...VALID, email: 'gabi@example.com' },
      { ipAddress: '10.1.1.3', userId: null },
    );
    // The e-mail goes after the insert, in the background: give the failing send its turn.
    await new Promise((r) => setTimeout(r, 100));
    const [row] = await t.database.db
      .select()
      .from(contactMessage)
      .where(eq(contactMessage.id, result.id));
    expect(row?.emailedAt).toBeNull();
  });

  it('limits messages per address to 5 an hour', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await t.client('10.1.2.1').post('/api/contact', VALID)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
