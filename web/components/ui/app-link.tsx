import { useState } from 'react';
import {
  Link,
  NavLink,
  useNavigation,
  useResolvedPath,
  type LinkProps,
  type NavLinkProps,
} from 'react-router';

/**
 * Whether the page of `to` is loading after this very link was tapped: the link shows it
 * (`data-pending`, a small spinner in app.css) until the page is there.
 */
function useTappedPending(to: LinkProps['to']) {
  const navigation = useNavigation();
  const path = useResolvedPath(to);
  // 'tapped' on click, 'loading' once its navigation started, back to null when it ended.
  const [step, setStep] = useState<'tapped' | 'loading' | null>(null);
  if (step === 'tapped' && navigation.state === 'loading') setStep('loading');
  if (step === 'loading' && navigation.state === 'idle') setStep(null);
  const pending =
    step !== null &&
    navigation.state === 'loading' &&
    navigation.location.pathname === path.pathname &&
    navigation.location.search === path.search;
  return { pending, tap: () => setStep('tapped') };
}

/**
 * A link that prefetches its page after 100 ms of hover or focus (React Router's "intent"), and
 * shows that its page is loading once tapped.
 */
export function AppLink({ onClick, ...props }: LinkProps) {
  const { pending, tap } = useTappedPending(props.to);
  return (
    <Link
      prefetch="intent"
      data-pending={pending ? '' : undefined}
      onClick={(event) => {
        tap();
        onClick?.(event);
      }}
      {...props}
    />
  );
}

/** A navigation link (prefetch as AppLink); pending while its page loads (`data-pending`). */
export function AppNavLink(props: NavLinkProps) {
  const navigation = useNavigation();
  const path = useResolvedPath(props.to);
  const pending = navigation.state === 'loading' && navigation.location.pathname === path.pathname;
  return <NavLink prefetch="intent" data-pending={pending ? '' : undefined} {...props} />;
}
