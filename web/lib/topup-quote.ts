// What a customer reads before paying (docs/domain.md "Payment gateways"): the fee of a method,
// its limits, and, live as they type, what they pay and what they get. The sums are the
// server's own (shared/fees.ts), so the preview never differs from the charge.
import { chargedIn, formatPercentEs, parsePercent, parseRate, quote } from '../../shared/fees';
import { formatUsd, parseAmount, type Cents } from '../../shared/money';
import { parseAmountInput } from '../../shared/number-input';
import type { FeeDto, PaymentMethodDto } from '../../shared/schemas/payments';

/** A fee as the API gives it, as terms for shared/fees.ts (an unreadable part counts as zero). */
export function feeTerms(fee: FeeDto): { feePercentBp: number; feeFixed: Cents } {
  return { feePercentBp: parsePercent(fee.percent) ?? 0, feeFixed: parseAmount(fee.fixed) ?? 0n };
}

/** «Comisión: 2,90 % + US$0.30», «Comisión: 3 %», «Comisión: US$1.00», or «Sin comisión». */
export function feeText(fee: FeeDto): string {
  const { feePercentBp, feeFixed } = feeTerms(fee);
  const parts = [
    ...(feePercentBp > 0 ? [formatPercentEs(feePercentBp)] : []),
    ...(feeFixed > 0n ? [formatUsd(feeFixed)] : []),
  ];
  return parts.length === 0 ? 'Sin comisión' : `Comisión: ${parts.join(' + ')}`;
}

/** «Entre US$5.00 y US$1,000.00.» */
export function limitsText(method: Pick<PaymentMethodDto, 'minAmount' | 'maxAmount'>): string {
  return `Entre ${formatUsd(method.minAmount)} y ${formatUsd(method.maxAmount)}.`;
}

function groupEs(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/** Cents of another currency, Spanish style: 2716300n, "ARS" → «27.163,00 ARS». */
export function formatCurrencyEs(cents: Cents, currency: string): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = groupEs((abs / 100n).toString());
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole},${fraction} ${currency}`;
}

/** An exchange rate ("1045.5") with a decimal comma and at least two decimals: «1045,50». */
export function formatRateEs(rate: string): string {
  const [whole = '0', raw = ''] = rate.trim().split('.');
  let fraction = raw.padEnd(2, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${whole},${fraction}`;
}

/** What is charged in `currency` for `usdCents` at `rateMicros` (shared/fees.ts). */
export const chargedCents = chargedIn;

export type QuotePreview =
  /** Nothing readable typed yet (or not a positive amount). */
  | { kind: 'empty' }
  /** Outside the method's limits: the limits again, as a nudge. */
  | { kind: 'out-of-range'; text: string }
  | {
      kind: 'quote';
      /** «Pagas US$25.98 · Recibes US$25.00» */
      text: string;
      /** Mercado Pago: «Pagas 27.163,00 ARS (1 US$ = 1045,50 ARS)»; else null. */
      charged: string | null;
    };

/** The live preview of a top-up of `typed` («25», «25,50») by `method`. */
export function quotePreview(method: PaymentMethodDto, typed: string): QuotePreview {
  const read = parseAmountInput(typed);
  if (!read.ok || read.cents <= 0n) return { kind: 'empty' };
  const min = parseAmount(method.minAmount);
  const max = parseAmount(method.maxAmount);
  if ((min !== null && read.cents < min) || (max !== null && read.cents > max))
    return {
      kind: 'out-of-range',
      text: `El importe debe estar entre ${formatUsd(method.minAmount)} y ${formatUsd(method.maxAmount)}.`,
    };
  const q = quote(read.cents, feeTerms(method.fee));
  const text = `Pagas ${formatUsd(q.total)} · Recibes ${formatUsd(q.amount)}`;
  const rate = method.currency !== 'USD' && method.rate ? parseRate(method.rate) : null;
  const charged =
    rate !== null && method.rate
      ? `Pagas ${formatCurrencyEs(chargedCents(method.currency, q.total, rate), method.currency)} (1 US$ = ${formatRateEs(method.rate)} ${method.currency})`
      : null;
  return { kind: 'quote', text, charged };
}
