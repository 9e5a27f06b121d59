import { APP_NAME } from '../../lib/app-name';
import { AppLink } from '../ui/app-link';

export function Logo({ to }: { to: string }) {
  return (
    <AppLink
      to={to}
      className="flex items-center gap-2 rounded-lg font-bold text-slate-900"
      aria-label={`${APP_NAME}, ir al inicio`}
    >
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8">
        <defs>
          <linearGradient id="cometa-tail" x1="0" x2="1" y1="1" y2="0">
            <stop offset="0" stopColor="#a5b4fc" stopOpacity="0" />
            <stop offset="1" stopColor="#4f46e5" />
          </linearGradient>
        </defs>
        <path d="M3 29 L21 11" stroke="url(#cometa-tail)" strokeWidth="5" strokeLinecap="round" />
        <circle cx="23" cy="9" r="6" fill="#4f46e5" />
        <circle cx="25" cy="7" r="2" fill="#e0e7ff" />
      </svg>
      <span className="text-xl tracking-tight">{APP_NAME}</span>
    </AppLink>
  );
}
