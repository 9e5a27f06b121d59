import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export type TabItem<K extends string> = { key: K; label: string };

/**
 * The tab a key press moves to (WAI-ARIA tabs): ← and → step around the ends, Home and End jump
 * to them; any other key, null.
 */
export function tabAfterKey<K extends string>(
  keys: readonly K[],
  current: K,
  key: string,
): K | null {
  const at = keys.indexOf(current);
  const last = keys.length - 1;
  const to =
    key === 'ArrowRight'
      ? at === last
        ? 0
        : at + 1
      : key === 'ArrowLeft'
        ? at <= 0
          ? last
          : at - 1
        : key === 'Home'
          ? 0
          : key === 'End'
            ? last
            : null;
  return to === null ? null : (keys[to] ?? null);
}

/**
 * An accessible tablist with one panel (the selected tab's): the selected tab is the only one in
 * the Tab order, arrows, Home and End move between tabs and select them (automatic activation).
 */
export function Tabs<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
  children,
}: {
  label: string;
  tabs: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  children: ReactNode;
}) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const tabId = (key: K) => `${base}-tab-${key}`;
  const panelId = `${base}-panel`;

  // From the tab the key was pressed on, not from `selected`: a selection that goes through the
  // URL lands a moment later, and a second arrow pressed before it would start from the old tab.
  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, from: K) {
    const next = tabAfterKey(
      tabs.map((t) => t.key),
      from,
      event.key,
    );
    if (next === null) return;
    event.preventDefault();
    onSelect(next);
    list.current?.querySelector<HTMLElement>(`[id="${tabId(next)}"]`)?.focus();
  }

  return (
    <div>
      <div
        ref={list}
        role="tablist"
        aria-label={label}
        className="-mx-4 mb-6 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 sm:mx-0 sm:px-0"
      >
        {tabs.map((tab) => {
          const on = tab.key === selected;
          return (
            <button
              key={tab.key}
              id={tabId(tab.key)}
              type="button"
              role="tab"
              aria-selected={on}
              aria-controls={on ? panelId : undefined}
              tabIndex={on ? 0 : -1}
              onClick={() => onSelect(tab.key)}
              onKeyDown={(event) => onKeyDown(event, tab.key)}
              className={`-mb-px min-h-11 shrink-0 border-b-2 px-3 text-sm font-semibold whitespace-nowrap focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none ${
                on
                  ? 'border-brand-600 text-brand-800'
                  : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div id={panelId} role="tabpanel" aria-labelledby={tabId(selected)} tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
