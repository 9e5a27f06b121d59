import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  EARLY_SUBMIT_SCRIPT,
  RELEASE_GLOBAL,
  STOP_GLOBAL,
  withEarlySubmitGuard,
} from './early-submit';

/** The guard run against a minimal document; returns how to submit and what was sent. */
function guarded() {
  const listeners: ((e: unknown) => void)[] = [];
  const clickListeners: ((e: unknown) => void)[] = [];
  const window: Record<string, unknown> = {};
  const document = {
    addEventListener: (type: string, fn: (e: unknown) => void) =>
      (type === 'click' ? clickListeners : listeners).push(fn),
    removeEventListener: (type: string, fn: (e: unknown) => void) => {
      const list = type === 'click' ? clickListeners : listeners;
      list.splice(list.indexOf(fn), 1);
    },
  };
  runInNewContext(EARLY_SUBMIT_SCRIPT, { window, document });
  const sent: unknown[] = [];
  const form = {
    isConnected: true,
    requestSubmit: (button?: unknown) => sent.push(button ?? 'no button'),
  };
  const submit = (submitter: unknown) => {
    let prevented = false;
    for (const fn of [...listeners])
      fn({ target: form, submitter, preventDefault: () => (prevented = true) });
    return prevented;
  };
  const press = (button: {
    type: string;
    disabled?: boolean;
    isConnected: boolean;
    click: () => void;
  }) => {
    for (const fn of [...clickListeners]) fn({ target: { closest: () => button } });
  };
  return { window, listeners, clickListeners, form, submit, press, sent };
}

describe('early submit guard', () => {
  it('holds a submit made before hydration and sends it again, with its button, once hydrated', () => {
    const { window, listeners, form, submit, sent } = guarded();
    const button = { isConnected: true, form };
    expect(submit(button)).toBe(true);
    expect(sent).toEqual([]);
    (window[RELEASE_GLOBAL] as () => void)();
    expect(sent).toEqual([button]);
    // Hydrated: nothing is held any more.
    expect(listeners).toHaveLength(0);
  });

  it('sends nothing when nothing was submitted, and drops a form no longer on the page', () => {
    const idle = guarded();
    (idle.window[RELEASE_GLOBAL] as () => void)();
    expect(idle.sent).toEqual([]);
    const gone = guarded();
    gone.submit(undefined);
    gone.form.isConnected = false;
    (gone.window[RELEASE_GLOBAL] as () => void)();
    expect(gone.sent).toEqual([]);
  });

  it('presses again, once hydrated, the last plain button pressed before; never a disabled one', () => {
    const { window, clickListeners, press } = guarded();
    const pressed: string[] = [];
    const service = { type: 'button', isConnected: true, click: () => pressed.push('service') };
    const disabled = {
      type: 'button',
      disabled: true,
      isConnected: true,
      click: () => pressed.push('disabled'),
    };
    press(service);
    press(disabled);
    expect(pressed).toEqual([]);
    (window[RELEASE_GLOBAL] as () => void)();
    expect(pressed).toEqual(['service']);
    expect(clickListeners).toHaveLength(0);
  });

  it('stops noting once React listens, and then does only what it held before', () => {
    const { window, listeners, clickListeners, form, submit, press, sent } = guarded();
    const pressed: string[] = [];
    submit(undefined);
    (window[STOP_GLOBAL] as () => void)();
    // React handles these itself: the guard neither prevents nor remembers them.
    expect(listeners).toHaveLength(0);
    expect(clickListeners).toHaveLength(0);
    press({ type: 'button', isConnected: true, click: () => pressed.push('late') });
    (window[RELEASE_GLOBAL] as () => void)();
    expect(sent).toEqual(['no button']);
    expect(pressed).toEqual([]);
    expect(form.isConnected).toBe(true);
  });

  it('goes first in the head, with the answer nonce when there is one', () => {
    const page =
      '<!DOCTYPE html><html lang="es"><head><meta charSet="utf-8"/></head><body></body></html>';
    expect(withEarlySubmitGuard(page, 'n0nce')).toContain(
      `<head><script nonce="n0nce">${EARLY_SUBMIT_SCRIPT}</script><meta charSet="utf-8"/>`,
    );
    expect(withEarlySubmitGuard(page, undefined)).toContain(
      `<head><script>${EARLY_SUBMIT_SCRIPT}</script>`,
    );
  });
});
