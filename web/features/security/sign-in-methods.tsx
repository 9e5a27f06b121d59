import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { JSON_POST, useSettled } from './hooks';
import { formatPhone } from './phone-number';
import { PhoneForm } from './phone-form';
import {
  FETCHER_KEYS,
  type Method,
  type Overview,
  type SecurityActionResult,
  type SecurityPayload,
} from './types';

type Notice = { tone: 'success' | 'error'; text: string };

/** What each way in is called on the list. */
export function methodTitle(method: Method): string {
  switch (method.kind) {
    case 'credential':
      return 'Contraseña';
    case 'email':
      return 'Enlace o código por correo';
    case 'phone':
      return 'Código por SMS';
    case 'google':
    case 'oidc':
      return method.label;
  }
}

/**
 * What is under the title: the address, the number, the provider's name. `whose` is who reads
 * it: the person themself («tu correo») or the admin looking at a customer («su correo»).
 */
export function methodDetail(method: Method, whose: 'own' | 'customer' = 'own'): string {
  switch (method.kind) {
    case 'phone':
      return formatPhone(method.label);
    case 'credential':
      return whose === 'own' ? 'Con tu correo y tu contraseña' : 'Con su correo y su contraseña';
    case 'email':
      return method.label;
    case 'google':
    case 'oidc':
      return `Cuenta de ${method.label} vinculada`;
  }
}

/** The ways in, read-only (the admin's customer view). */
export function MethodList({ methods }: { methods: Method[] }) {
  return (
    <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200">
      {methods.map((method) => (
        <li key={`${method.kind}-${method.accountId ?? method.label}`} className="p-3 sm:p-4">
          <p className="font-semibold text-slate-900">{methodTitle(method)}</p>
          <p className="text-sm break-words text-slate-700">{methodDetail(method, 'customer')}</p>
        </li>
      ))}
    </ul>
  );
}

/** «Métodos de acceso»: how this account can sign in; link, unlink, add or change the phone. */
export function SignInMethods({
  overview,
  linkError,
}: {
  overview: Overview;
  linkError: string | null;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const linkFetcher = useSettled<SecurityActionResult>(FETCHER_KEYS.method, (result) => {
    setNotice({
      tone: result.ok ? 'success' : 'error',
      text: (result.ok ? result.message : result.formError) ?? '',
    });
  });
  const linking =
    linkFetcher.state !== 'idle' &&
    (linkFetcher.json as SecurityPayload | undefined)?.intent === 'method-link'
      ? (linkFetcher.json as { provider: string }).provider
      : null;

  // An unlinked method's row is gone with its button: the focus goes to the heading.
  useEffect(() => {
    if (notice?.tone === 'success') heading.current?.focus();
  }, [notice]);

  function link(provider: 'google' | 'oidc') {
    if (linkFetcher.state !== 'idle') return;
    setNotice(null);
    const payload: SecurityPayload = { intent: 'method-link', provider };
    void linkFetcher.submit(payload, JSON_POST);
  }

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
      <h3
        id={headingId}
        ref={heading}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 focus:outline-none"
      >
        Métodos de acceso
      </h3>
      <p className="text-sm text-slate-600">
        Las formas en que puedes entrar en tu cuenta. Siempre puedes entrar con un enlace o un
        código que te enviamos a tu correo.
      </p>
      {linkError ? <Alert tone="error">{linkError}</Alert> : null}
      <div aria-live="polite">
        {notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}
      </div>
      {notice?.tone === 'error' ? <Alert tone="error">{notice.text}</Alert> : null}
      <ul
        className="divide-y divide-slate-200 rounded-xl border border-slate-200"
        data-testid="sign-in-methods"
      >
        {overview.methods.map((method) => (
          <MethodRow
            key={`${method.kind}-${method.accountId ?? method.label}`}
            method={method}
            onStart={() => setNotice(null)}
          />
        ))}
      </ul>
      {overview.linkableProviders.length > 0 ? (
        <div className="flex flex-wrap gap-2">
          {overview.linkableProviders.map((provider) => (
            <Button
              key={provider.id}
              variant="secondary"
              disabled={linking !== null}
              onClick={() => link(provider.id)}
            >
              {linking === provider.id ? 'Abriendo…' : `Vincular ${provider.name}`}
            </Button>
          ))}
        </div>
      ) : null}
      <PhoneForm
        phoneNumber={overview.phoneNumberVerified ? overview.phoneNumber : null}
        onStart={() => setNotice(null)}
      />
    </section>
  );
}

function MethodRow({ method, onStart }: { method: Method; onStart: () => void }) {
  const fetcher = useFetcher<SecurityActionResult>({ key: FETCHER_KEYS.method });
  const [confirming, setConfirming] = useState(false);
  const [toggled, setToggled] = useState(false);
  const titleId = useId();
  const questionId = useId();
  const actions = useRef<HTMLDivElement>(null);
  const pending = fetcher.state !== 'idle' ? (fetcher.json as SecurityPayload | undefined) : null;
  const title = methodTitle(method);
  const busy =
    (pending?.intent === 'method-unlink' && pending.accountId === method.accountId) ||
    (pending?.intent === 'phone-remove' && method.kind === 'phone');
  // A provider (or the password) goes by its account id; the phone has its own route.
  const canUnlink = method.removable && (method.kind === 'phone' || method.accountId !== null);

  useEffect(() => {
    if (!toggled) return;
    actions.current?.querySelector<HTMLElement>(confirming ? '[role="group"]' : 'button')?.focus();
  }, [confirming, toggled]);

  function toggle(open: boolean) {
    setToggled(true);
    setConfirming(open);
  }

  function unlink() {
    if (fetcher.state !== 'idle') return;
    onStart();
    let payload: SecurityPayload;
    if (method.kind === 'phone') payload = { intent: 'phone-remove' };
    else if (method.accountId !== null)
      payload = {
        intent: 'method-unlink',
        providerId: method.kind,
        accountId: method.accountId,
        label: title,
      };
    else return;
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <li
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-3 p-3 sm:flex-row sm:items-start sm:justify-between sm:p-4"
    >
      <div className="min-w-0">
        <h4 id={titleId} className="font-semibold text-slate-900">
          {title}
        </h4>
        <p className="text-sm break-words text-slate-700">{methodDetail(method)}</p>
      </div>
      {canUnlink ? (
        <div ref={actions} className="sm:max-w-xs">
          {confirming ? (
            <div
              role="group"
              aria-labelledby={questionId}
              tabIndex={-1}
              className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 p-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-600"
            >
              <p id={questionId} className="text-sm text-red-900">
                ¿Desvincular {title}? Ya no podrás entrar con este método.
              </p>
              <div className="flex flex-wrap gap-2">
                <Button variant="danger" disabled={busy} onClick={unlink}>
                  {busy ? 'Desvinculando…' : 'Sí, desvincular'}
                  <span className="sr-only"> {title}</span>
                </Button>
                <Button variant="secondary" disabled={busy} onClick={() => toggle(false)}>
                  No
                </Button>
              </div>
            </div>
          ) : (
            <Button variant="secondary" onClick={() => toggle(true)}>
              Desvincular<span className="sr-only"> {title}</span>
            </Button>
          )}
        </div>
      ) : null}
    </li>
  );
}
