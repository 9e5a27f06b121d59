// Where the «Tengo un problema…» entry points go (a module of its own: the order and top-up pages
// import it without the form's code).

/** `/soporte/nuevo?orden=<id>` (category Orden, the order linked) or `?pago=<id>` (Pago). */
export function newTicketUrl(from: { order: string } | { payment: string }): string {
  return 'order' in from
    ? `/soporte/nuevo?orden=${encodeURIComponent(from.order)}`
    : `/soporte/nuevo?pago=${encodeURIComponent(from.payment)}`;
}
