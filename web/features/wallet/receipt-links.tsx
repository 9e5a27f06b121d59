import { receiptPdfUrl } from './wallet-api';

type ReceiptRef = { id: string; number: string };

/** «Recibo R-2026-000123»: the PDF, downloaded. */
export function ReceiptLink({ receipt }: { receipt: ReceiptRef }) {
  return (
    <a
      href={receiptPdfUrl(receipt.id)}
      download={`${receipt.number}.pdf`}
      className="text-brand-700 hover:text-brand-800 text-sm font-medium underline"
    >
      Recibo {receipt.number}
    </a>
  );
}

/** Every receipt of a top-up (one per credit), side by side; nothing when there is none. */
export function ReceiptLinks({
  receipts,
  className = '',
}: {
  receipts: readonly ReceiptRef[];
  className?: string;
}) {
  if (receipts.length === 0) return null;
  return (
    <p className={`flex flex-wrap gap-x-4 ${className}`}>
      {receipts.map((r) => (
        <ReceiptLink key={r.id} receipt={r} />
      ))}
    </p>
  );
}
