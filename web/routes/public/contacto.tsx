import { useState } from 'react';
import { Form, useActionData, useNavigation, type ClientActionFunctionArgs } from 'react-router';
import { AppLink } from '../../components/ui/app-link';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { TextAreaField, TextField } from '../../components/ui/field';
import type { ContactResult } from '../../features/contact/send-message';
import { APP_NAME } from '../../lib/app-name';
import { SUBMIT_CODE_FAILED, loadSubmitCode } from '../../lib/submit-code';

export function meta() {
  return [
    { title: `Contacto · ${APP_NAME}` },
    {
      name: 'description',
      content: `Escribe al equipo de ${APP_NAME}: atendemos de lunes a viernes y respondemos en 1 día hábil.`,
    },
  ];
}

/** The code that sends the message (schemas, API client): loaded on focus, or when sent. */
const loadSendMessage = () => loadSubmitCode(() => import('../../features/contact/send-message'));

export async function clientAction({ request }: ClientActionFunctionArgs): Promise<ContactResult> {
  const code = await loadSendMessage();
  return code ? code.sendMessage(request) : { formError: SUBMIT_CODE_FAILED, fields: {} };
}

function ContactInfo() {
  return (
    <Card className="h-fit">
      <h2 className="text-lg font-semibold text-slate-900">Información de contacto</h2>
      <dl className="mt-4 space-y-4">
        <div>
          <dt className="text-sm font-semibold text-slate-800">Correo electrónico</dt>
          <dd className="mt-1 text-slate-600">A través de este formulario.</dd>
        </div>
        <div>
          <dt className="text-sm font-semibold text-slate-800">Horario de atención</dt>
          <dd className="mt-1 text-slate-600">Lunes a viernes, 9:00–18:00 (UTC−5).</dd>
        </div>
        <div>
          <dt className="text-sm font-semibold text-slate-800">Tiempo de respuesta</dt>
          <dd className="mt-1 text-slate-600">Respondemos en 1 día hábil.</dd>
        </div>
      </dl>
      <div className="mt-6 rounded-xl bg-brand-50 p-4 text-sm text-brand-900">
        <p>
          ¿Tu consulta es sobre una orden? Incluye su número en el asunto para que podamos revisarla
          más rápido.
        </p>
        <p className="mt-2">
          Quizá ya tengamos la respuesta en las{' '}
          <AppLink to="/nosotros/4" className="font-semibold underline underline-offset-4">
            preguntas frecuentes
          </AppLink>
          .
        </p>
      </div>
    </Card>
  );
}

export default function Contacto() {
  const actionData = useActionData<typeof clientAction>();
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting';

  // Remount (and so empty) the form after each successful submission, but keep what was
  // typed when the submission fails.
  const [seenData, setSeenData] = useState(actionData);
  const [formKey, setFormKey] = useState(0);
  if (actionData !== seenData) {
    setSeenData(actionData);
    if (actionData?.ok) setFormKey((key) => key + 1);
  }

  const fields = actionData?.fields ?? {};
  const formError = actionData?.formError ?? fields.form;

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <PageTitle
        title="Contacto"
        subtitle="¿Tienes una pregunta, una sugerencia o un proyecto en mente? Escríbenos y te responderemos."
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <ContactInfo />
        <Card className="lg:col-span-2">
          <h2 className="text-lg font-semibold text-slate-900">Escríbenos</h2>
          <p className="mt-1 text-sm text-slate-600">Todos los campos son obligatorios.</p>
          <div className="mt-4 space-y-4">
            {actionData?.ok ? <Alert tone="success">{actionData.message}</Alert> : null}
            {formError ? <Alert tone="error">{formError}</Alert> : null}
          </div>
          <Form
            key={formKey}
            method="post"
            noValidate
            className="mt-4 space-y-5"
            onFocus={() => void loadSendMessage()}
          >
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField
                label="Nombre"
                name="name"
                autoComplete="name"
                maxLength={80}
                required
                error={fields.name}
              />
              <TextField
                label="Correo electrónico"
                name="email"
                type="email"
                inputMode="email"
                autoComplete="email"
                maxLength={254}
                required
                error={fields.email}
              />
            </div>
            <TextField
              label="Asunto"
              name="subject"
              autoComplete="off"
              maxLength={120}
              required
              error={fields.subject}
            />
            <TextAreaField
              label="Mensaje"
              name="message"
              rows={6}
              maxLength={5000}
              required
              error={fields.message}
            />
            <Button type="submit" disabled={submitting} className="w-full sm:w-auto">
              {submitting ? 'Enviando…' : 'Enviar mensaje'}
            </Button>
          </Form>
        </Card>
      </div>
    </div>
  );
}
