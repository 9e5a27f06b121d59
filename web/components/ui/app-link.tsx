import { Link, NavLink, type LinkProps, type NavLinkProps } from 'react-router';

/** A link that prefetches its page after 100 ms of hover or focus (React Router's "intent"). */
export function AppLink(props: LinkProps) {
  return <Link prefetch="intent" {...props} />;
}

export function AppNavLink(props: NavLinkProps) {
  return <NavLink prefetch="intent" {...props} />;
}
