import { useEffect, useRef } from 'react';

/**
 * After a submit the action refused field by field (`result.fields`), moves the focus to the
 * form's first field marked invalid. Focus only: the errors come from the action's data.
 */
export function useFocusFirstInvalid<T extends HTMLElement = HTMLFormElement>(result: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const fields =
      typeof result === 'object' && result !== null && 'fields' in result
        ? (result as { fields?: Record<string, unknown> }).fields
        : undefined;
    if (fields && Object.keys(fields).length > 0)
      ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [result]);
  return ref;
}
