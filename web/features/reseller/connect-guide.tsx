import { useId, type ReactNode } from 'react';
import { CATEGORIES } from '../../../shared/categories';
import { formatUsd } from '../../../shared/money';
import { Detail, LoadedList } from '../../components/ui/section';
import type { Loaded } from '../../lib/loaded';
import { CodeBlock } from './code-block';
import { apiAddresses, byNumber, curlExamples, KEY_PLACEHOLDER, type CurlExample } from './connect';
import type { Service } from './types';

const CATEGORY_LABEL: Record<string, string> = Object.fromEntries(
  CATEGORIES.map((c) => [c.slug, c.label]),
);

function Part({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col gap-2">
      <h4 id={id} className="font-semibold text-slate-900">
        {title}
      </h4>
      {children}
    </section>
  );
}

function Mono({ children }: { children: ReactNode }) {
  return <span className="font-mono wrap-anywhere">{children}</span>;
}

/**
 * «Cómo conectar»: what to type in a DHRU Fusion or SMM panel, how programs call the REST API,
 * curl examples against this server, and the service numbers.
 */
export function ConnectGuide({
  origin,
  email,
  services,
}: {
  origin: string;
  email: string;
  services: Loaded<Service[]>;
}) {
  const urls = apiAddresses(origin);
  const examples = curlExamples({ origin, email, services: services.ok ? services.data : [] });
  return (
    <details className="group rounded-xl border border-slate-200" data-testid="connect-guide">
      <summary className="flex min-h-11 cursor-pointer items-center rounded-xl px-3 py-2 font-semibold text-brand-800 hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none sm:px-4">
        Cómo conectar
      </summary>
      <div className="flex min-w-0 flex-col gap-6 border-t border-slate-200 p-3 text-sm text-slate-700 sm:p-4">
        <Part title="Paneles DHRU Fusion">
          <p>
            Añade en tu panel una conexión de tipo «DHRU Fusion» (API de otro panel Fusion) con
            estos datos:
          </p>
          <dl className="grid gap-3 sm:grid-cols-3">
            <Detail label="URL">
              <Mono>{urls.dhru}</Mono>
              <span className="mt-1 block text-slate-600">
                Si tu panel pide solo la dirección del sitio, escribe <Mono>{urls.origin}</Mono>.
              </span>
            </Detail>
            <Detail label="Usuario">
              <Mono>{email}</Mono>
              <span className="mt-1 block text-slate-600">El correo de tu cuenta.</span>
            </Detail>
            <Detail label="Clave API">Una de tus claves (empieza por cmt_).</Detail>
          </dl>
          <p>
            El panel lee la lista de servicios por sí mismo; el SERVICEID de cada uno es su número
            (abajo, en «Números de servicio»). La referencia de cada orden es su número en tu
            historial.
          </p>
        </Part>

        <Part title="Paneles SMM">
          <dl className="grid gap-3 sm:grid-cols-3">
            <Detail label="URL de la API">
              <Mono>{urls.smm}</Mono>
            </Detail>
            <Detail label="Clave API" className="sm:col-span-2">
              Una de tus claves.
            </Detail>
          </dl>
          <p>
            Con la acción <Mono>services</Mono> aparecen los servicios que se piden con un enlace
            (seguidores, vistas…); <Mono>service</Mono> es su número.
          </p>
        </Part>

        <Part title="Programas (API REST)">
          <p>
            Envía la clave en la cabecera <Mono>Authorization: Bearer {KEY_PLACEHOLDER}</Mono> a
            cualquier ruta de tu cuenta en <Mono>{urls.rest}</Mono>: saldo, servicios, órdenes… La
            clave actúa como tú (nunca como administrador).{' '}
            <a href="/api/docs" className="font-semibold text-brand-800 underline">
              Documentación completa de la API
            </a>
            .
          </p>
        </Part>

        <Part title="Ejemplos con curl">
          <p>
            Cambia <Mono>{KEY_PLACEHOLDER}</Mono> por tu clave. Las API DHRU y SMM responden siempre
            con HTTP 200: el error, si lo hay, va dentro de la respuesta.
          </p>
          <ul className="flex flex-col gap-4" data-testid="curl-examples">
            {examples.map((example) => (
              <Example key={example.id} example={example} />
            ))}
          </ul>
        </Part>

        <Part title="Números de servicio">
          <p>
            El número de cada servicio es el SERVICEID en DHRU y el <Mono>service</Mono> en SMM; no
            cambia aunque cambien el nombre o el precio.
          </p>
          <LoadedList value={services} what="los servicios">
            {(items) =>
              items.length === 0 ? (
                <p>Ahora mismo no hay servicios activos.</p>
              ) : (
                <ul
                  className="grid overflow-hidden rounded-lg border border-slate-200 sm:grid-cols-2"
                  data-testid="service-numbers"
                >
                  {byNumber(items).map((s) => (
                    <li
                      key={s.id}
                      className="-mb-px flex min-w-0 gap-3 border-b border-slate-100 p-2 sm:odd:border-r"
                    >
                      <span className="w-10 shrink-0 text-right font-mono font-semibold text-slate-900 tabular-nums">
                        {s.number}
                      </span>
                      <span className="min-w-0 flex-1 break-words">
                        <span className="text-slate-900">{s.name}</span>
                        <span className="block text-xs text-slate-600">
                          {CATEGORY_LABEL[s.category] ?? s.category} · {formatUsd(s.price)}{' '}
                          {s.unit === '1000' ? 'por 1000' : 'por orden'}
                        </span>
                      </span>
                    </li>
                  ))}
                </ul>
              )
            }
          </LoadedList>
        </Part>
      </div>
    </details>
  );
}

function Example({ example }: { example: CurlExample }) {
  const id = useId();
  return (
    <li aria-labelledby={id} className="flex min-w-0 flex-col gap-1">
      <p id={id} className="font-medium text-slate-900">
        {example.title}
      </p>
      <p className="text-slate-600">{example.description}</p>
      <CodeBlock code={example.command} what={`el ejemplo: ${example.title}`} testId={example.id} />
    </li>
  );
}
