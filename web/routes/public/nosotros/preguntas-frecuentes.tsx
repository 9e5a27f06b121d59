import type { ReactNode } from 'react';
import { AppLink } from '../../../components/ui/app-link';
import { Card } from '../../../components/ui/card';
import { SectionPage, sectionMeta } from '../../../features/nosotros/section-page';
import { APP_NAME } from '../../../lib/app-name';

export function meta() {
  return sectionMeta('4');
}

const ORDER_STATES = [
  { state: 'Pendiente', text: 'recibimos la orden y aún no se ha enviado al proveedor.' },
  { state: 'En proceso', text: 'el proveedor está trabajando en ella.' },
  { state: 'Completada', text: 'el servicio se entregó; el resultado está en el detalle.' },
  { state: 'Rechazada', text: 'no se pudo realizar; el importe vuelve completo a tu saldo.' },
  { state: 'Cancelada', text: 'la cancelaste antes de su envío y se reembolsó al momento.' },
  { state: 'Parcial', text: 'se entregó solo una parte; la parte no entregada se reembolsa.' },
] as const;

type Faq = { question: string; answer: ReactNode };

const FAQS: readonly Faq[] = [
  {
    question: '¿Qué son los créditos y cómo los añado?',
    answer: (
      <p>
        Los créditos son tu saldo prepago en dólares estadounidenses dentro de {APP_NAME}. Los
        añades desde la página «Añadir fondos» con el método de pago que prefieras; el saldo se
        acredita en cuanto se confirma el pago. Los créditos no caducan, pero no son dinero en
        efectivo ni se pueden transferir a otra cuenta.
      </p>
    ),
  },
  {
    question: '¿Cuándo se descuenta el precio de una orden?',
    answer: (
      <p>
        En el momento en que confirmas la orden. Antes de hacerlo ves el precio exacto, y en redes
        sociales el total se calcula según la cantidad que pides, a partir del precio por cada 1000
        unidades.
      </p>
    ),
  },
  {
    question: '¿Qué pasa si mi orden se rechaza?',
    answer: (
      <p>
        El importe completo vuelve a tu saldo de forma automática, una sola vez por orden. Si la
        orden se entrega solo en parte, se reembolsa la parte no entregada. Los reembolsos siempre
        van al saldo, no a la tarjeta ni a la cuenta bancaria.
      </p>
    ),
  },
  {
    question: '¿Puedo cancelar una orden?',
    answer: (
      <p>
        Sí, mientras siga pendiente y no se haya enviado al proveedor. Al cancelarla, el importe
        vuelve a tu saldo al instante. Una vez en proceso ya no se puede cancelar.
      </p>
    ),
  },
  {
    question: '¿Cuánto tarda en entregarse un servicio?',
    answer: (
      <p>
        Desde minutos hasta 72 h según el servicio. Cada servicio muestra su plazo estimado antes de
        ordenar. Son plazos orientativos que dependen del proveedor y de que los datos de la orden
        sean correctos.
      </p>
    ),
  },
  {
    question: '¿Qué significa cada estado de una orden?',
    answer: (
      <dl className="space-y-1">
        {ORDER_STATES.map((item) => (
          <div key={item.state}>
            <dt className="inline font-semibold text-slate-800">{item.state}:</dt>{' '}
            <dd className="inline">{item.text}</dd>
          </div>
        ))}
      </dl>
    ),
  },
  {
    question: '¿Qué pasa si escribo mal el IMEI o el enlace?',
    answer: (
      <p>
        Revisa siempre los datos antes de confirmar. Si el proveedor procesa la orden con datos
        incorrectos que diste tú, no se puede reembolsar. Si te das cuenta a tiempo y la orden sigue
        pendiente, cancélala y vuelve a hacerla.
      </p>
    ),
  },
  {
    question: '¿Cómo me pongo en contacto con ustedes?',
    answer: (
      <p>
        Escríbenos desde la{' '}
        <AppLink
          to="/contacto"
          className="font-semibold text-brand-700 underline underline-offset-4"
        >
          página de contacto
        </AppLink>
        . Atendemos de lunes a viernes, de 9:00 a 18:00 (UTC−5), y respondemos en 1 día hábil.
      </p>
    ),
  },
];

function FaqSection() {
  return (
    <ul className="space-y-4">
      {FAQS.map((faq) => (
        <li key={faq.question}>
          <Card>
            <h2 className="text-lg font-semibold text-slate-900">{faq.question}</h2>
            <div className="mt-2 text-slate-600">{faq.answer}</div>
          </Card>
        </li>
      ))}
    </ul>
  );
}

export default function FaqPage() {
  return (
    <SectionPage id="4">
      <FaqSection />
    </SectionPage>
  );
}
