import { currentPageContext } from '../../shared/page-context';

/** The CSP nonce of the page being rendered on the server (undefined in the browser). */
export function currentNonce(): string | undefined {
  return typeof window === 'undefined' ? currentPageContext()?.nonce : undefined;
}
