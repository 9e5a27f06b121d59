// The files an order carries (a service's file field), offered as downloads on its detail: to
// its customer and, through the admin path, to admins. Never shown inline.
import { formatBytes } from '../../../shared/files';
import type { OrderFileDto } from '../../../shared/schemas/order-files';

export function orderFileUrl(orderId: string, fileId: string, admin: boolean): string {
  const base = admin ? '/api/admin/orders' : '/api/orders';
  return `${base}/${encodeURIComponent(orderId)}/files/${encodeURIComponent(fileId)}`;
}

export function OrderFiles({
  orderId,
  files,
  labels,
  admin = false,
}: {
  orderId: string;
  files: OrderFileDto[] | undefined;
  /** Field labels by key, when known (the service's fields). */
  labels?: Record<string, string>;
  admin?: boolean;
}) {
  if (!files || files.length === 0) return null;
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">Archivos</h3>
      <ul className="mt-1 flex flex-col gap-1">
        {files.map((f) => (
          <li key={f.id} className="text-sm text-slate-700">
            {labels?.[f.fieldKey] ? `${labels[f.fieldKey]}: ` : ''}
            <a
              href={orderFileUrl(orderId, f.id, admin)}
              download={f.name}
              className="font-medium text-brand-700 underline"
            >
              Descargar {f.name}
            </a>{' '}
            <span className="text-slate-600">({formatBytes(f.size)})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
