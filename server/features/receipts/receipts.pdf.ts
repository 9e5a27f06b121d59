// The PDF of a numbered receipt (docs/domain.md "Receipts"): one A4 page in Spanish with the
// shop's and the customer's details as they were when it was issued, and what was credited.
// Standard Helvetica (WinAnsi covers á é í ó ú ñ « »), no images, no embedded fonts: small and
// fast. The same receipt always renders the same bytes (its dates come from `issuedAt`).
import PDFDocument from 'pdfkit';
import { formatAmount, formatUsd } from '../../../shared/money';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../../shared/schemas/wallet';
import type { receipt } from '../../db/schema/payments';

export type ReceiptRow = typeof receipt.$inferSelect;

type Shop = { name: string; taxId: string; address: string };
type Customer = { name: string; email: string };

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The shop's details stored on the receipt (jsonb), read defensively. */
export function shopOf(row: Pick<ReceiptRow, 'shop'>): Shop {
  const s = (row.shop ?? {}) as Record<string, unknown>;
  return { name: text(s.name), taxId: text(s.taxId), address: text(s.address) };
}

/** The customer's details stored on the receipt (jsonb), read defensively. */
export function customerOf(row: Pick<ReceiptRow, 'customer'>): Customer {
  const c = (row.customer ?? {}) as Record<string, unknown>;
  return { name: text(c.name), email: text(c.email) };
}

/** dd/mm/aaaa of a moment, in UTC. */
export function receiptDate(at: Date): string {
  const dd = String(at.getUTCDate()).padStart(2, '0');
  const mm = String(at.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${at.getUTCFullYear()}`;
}

/** An amount in another currency's minor units as people read it: 1045550n, "ARS" → "10,455.50 ARS". */
export function chargedText(amount: bigint, currency: string): string {
  const [whole = '0', fraction = '00'] = formatAmount(amount).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction} ${currency}`;
}

const MARGIN = 56;
const GREY = '#555555';
const LINE = '#cccccc';

/**
 * Renders the receipt as a PDF. `appName` stands in for the shop's name when the admin left it
 * empty; `methodName` is the method as the customer knows it (the manual method's name), by
 * default its label (PayPal, Tarjeta…).
 */
export function renderReceiptPdf(
  row: ReceiptRow,
  options: { appName: string; methodName?: string },
): Promise<Buffer> {
  const methodName =
    options.methodName ?? PAYMENT_METHOD_LABELS[row.method as PaymentMethod] ?? row.method;
  const shop = shopOf(row);
  const customer = customerOf(row);
  const shopName = shop.name.trim() || options.appName;
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: `Recibo ${row.number}`,
      Author: shopName,
      Subject: row.description,
      Producer: shopName,
      Creator: shopName,
      CreationDate: row.issuedAt,
    },
    lang: 'es',
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const right = MARGIN + width;

  // Heading: the title on the left; the number and the date on the right.
  const top = MARGIN;
  doc.font('Helvetica-Bold').fontSize(24).fillColor('black').text('Recibo', MARGIN, top);
  doc
    .font('Helvetica-Bold')
    .fontSize(12)
    .text(`Nº ${row.number}`, MARGIN, top + 2, { width, align: 'right' });
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(GREY)
    .text(`Fecha de emisión: ${receiptDate(row.issuedAt)}`, MARGIN, top + 20, {
      width,
      align: 'right',
    });

  // The shop (left) and the customer (right).
  const blocks = top + 64;
  const half = (width - 24) / 2;
  const block = (x: number, heading: string, lines: string[]) => {
    doc.font('Helvetica-Bold').fontSize(9).fillColor(GREY).text(heading, x, blocks, {
      width: half,
    });
    doc.moveDown(0.3);
    lines.forEach((line, i) => {
      doc
        .font(i === 0 ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(i === 0 ? 11 : 10)
        .fillColor('black')
        .text(line, x, undefined, { width: half });
    });
    return doc.y;
  };
  const shopEnd = block(MARGIN, 'EMISOR', [
    shopName,
    ...(shop.taxId.trim() ? [`Identificación fiscal: ${shop.taxId.trim()}`] : []),
    ...(shop.address.trim() ? [shop.address.trim()] : []),
  ]);
  const customerEnd = block(MARGIN + half + 24, 'CLIENTE', [
    customer.name || customer.email,
    customer.email,
  ]);

  // What was paid and credited.
  let y = Math.max(shopEnd, customerEnd) + 32;
  const rule = (at: number) =>
    doc.moveTo(MARGIN, at).lineTo(right, at).lineWidth(0.5).strokeColor(LINE).stroke();
  const rowOf = (label: string, value: string, bold = false) => {
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(11)
      .fillColor('black');
    const labelWidth = width * 0.45;
    const valueWidth = width - labelWidth;
    const height = Math.max(
      doc.heightOfString(label, { width: labelWidth }),
      doc.heightOfString(value, { width: valueWidth }),
    );
    doc.text(label, MARGIN, y + 7, { width: labelWidth });
    doc.text(value, MARGIN + labelWidth, y + 7, { width: valueWidth, align: 'right' });
    y += height + 14;
    rule(y);
  };
  rule(y);
  rowOf('Concepto', row.description);
  rowOf('Método de pago', methodName);
  rowOf('Importe acreditado', formatUsd(row.amount));
  rowOf('Comisión', formatUsd(row.fee));
  rowOf('Total pagado', formatUsd(row.amount + row.fee), true);

  y += 20;
  if (row.chargedAmount !== null && row.chargedCurrency && row.chargedCurrency !== 'USD') {
    // Mercado Pago charges in its currency: what left the customer's account.
    doc
      .font('Helvetica')
      .fontSize(11)
      .fillColor('black')
      .text(`Cobrado: ${chargedText(row.chargedAmount, row.chargedCurrency)}`, MARGIN, y, {
        width,
      });
    y = doc.y + 8;
  }
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(GREY)
    .text('Saldo prepago acreditado en dólares estadounidenses (USD).', MARGIN, y, { width });

  doc.end();
  return done;
}
