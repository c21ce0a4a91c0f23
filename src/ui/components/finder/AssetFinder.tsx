// The asset finder (docs/ui.md "Asset finder"): one search box for every
// asset and co-worker of the location, answered by the worker's `search`
// view. Keyboard first: `/` focuses it, arrows move, Enter shows, Escape
// closes. Results come grouped by kind with their floor; "Show" switches
// floor, centres and highlights (the Shell does the showing).

import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchResult } from '../../../shared/api.js';
import { SEARCH_GROUP_LABELS } from '../../../shared/search.js';
import { useMediaQuery } from '../../hooks/useMediaQuery.js';
import { useView, useViewEntries, useViewMeta, useViewReady } from '../../hooks/useView.js';

export interface AssetFinderProps {
  onShow(result: SearchResult): void;
  /** directions to a result (wayfinding on): Shift+Enter, or the row's Directions */
  onRoute?: ((result: SearchResult) => void) | null;
  /** several buildings: results name the building too */
  multipleBuildings: boolean;
}

/** A device whose only pointer is a finger: no keyboard to press `/` on, so the box does not offer it. */
export const TOUCH_ONLY = '(hover: none) and (pointer: coarse)';

/** Inputs that take no typed text: `/` on a layer's checkbox or a button still goes to the finder. */
const UNTYPED_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** Whether a key press belongs to a field the user is typing in (then `/` is just a slash). */
function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  if (el.tagName === 'INPUT') return !UNTYPED_INPUTS.has((el as HTMLInputElement).type);
  return el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable;
}

export function where(result: SearchResult, multipleBuildings: boolean): string {
  if (!result.floorId) return result.target === 'person' ? 'not shown on a floor' : 'not on a floor';
  const floor = result.floorName ?? 'a floor';
  return multipleBuildings && result.buildingName ? `${floor}, ${result.buildingName}` : floor;
}

export function AssetFinder({ onShow, onRoute = null, multipleBuildings }: AssetFinderProps) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const touchOnly = useMediaQuery(TOUCH_ONLY);
  const deferred = useDeferredValue(query.trim());
  // the highlighted result is the one the user moved to, by its key: results that arrive or re-rank under it (the
  // typed query answered after the arrows, a live change) keep it highlighted, so Enter shows what is highlighted.
  // Typing starts again at the top, and so does a list without it
  const [picked, setPicked] = useState<string | null>(null);
  const mirror = useView(deferred ? { view: 'search', query: deferred } : null);
  const ready = useViewReady(mirror);
  const entries = useViewEntries(mirror);
  const meta = useViewMeta(mirror);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const optionId = (i: number) => `${listId}-option-${i}`;

  // groups in the worker's order (best match first), results by rank inside each
  const groups = useMemo(() => {
    const byGroup = new Map<string, SearchResult[]>();
    for (const r of Object.values(entries).sort((a, b) => a.rank - b.rank)) {
      const list = byGroup.get(r.group) ?? [];
      list.push(r);
      byGroup.set(r.group, list);
    }
    return (meta?.groups ?? []).filter((g) => byGroup.has(g.group)).map((g) => ({ ...g, results: byGroup.get(g.group)! }));
  }, [entries, meta]);
  const flat = useMemo(() => groups.flatMap((g) => g.results), [groups]);
  const current = (picked !== null ? flat.find((r) => r.key === picked) : undefined) ?? flat[0] ?? null;
  const active = current ? flat.indexOf(current) : 0;
  const setActive = (index: number) => setPicked(flat[index]?.key ?? null);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const show = (result: SearchResult) => {
    setOpen(false);
    onShow(result);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (flat.length) setActive((active + (event.key === 'ArrowDown' ? 1 : flat.length - 1)) % flat.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (!current || !current.floorId) return;
      if (event.shiftKey && onRoute) { setOpen(false); onRoute(current); } else show(current);
    } else if (event.key === 'Escape') {
      if (open) { event.preventDefault(); setOpen(false); } else { setQuery(''); setPicked(null); }
    }
  };

  const searching = !!deferred && (!ready || meta?.query !== deferred || query.trim() !== deferred);
  const status = !deferred
    ? null
    : meta?.error && meta.query === deferred
      ? meta.error
      : meta?.indexing
        ? `Preparing search… ${Math.floor((100 * meta.indexing.done) / Math.max(1, meta.indexing.total))} %`
        : searching
          ? 'Searching…'
          : flat.length === 0
            ? `Nothing matches “${deferred}”.`
            : `${meta!.total.toLocaleString()} found`;

  return (
    <div className="asset-finder" role="search" aria-label="Find anything">
      <input
        ref={input}
        type="search"
        role="combobox"
        aria-label="Find desks, rooms, people and more"
        aria-expanded={open && !!deferred}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && current ? optionId(flat.indexOf(current)) : undefined}
        aria-keyshortcuts={onRoute ? '/ Shift+Enter' : '/'}
        placeholder={touchOnly ? 'Find…' : 'Find… (press /)'}
        value={query}
        onChange={(e) => { setQuery(e.target.value); setPicked(null); setOpen(true); }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      {open && deferred ? (
        <div className="finder-results" onMouseDown={(e) => e.preventDefault()}>
          <p className="finder-status" role="status" aria-live="polite">{status}</p>
          <ul id={listId} role="listbox" aria-label="Results">
            {groups.map((g) => (
              <li key={g.group} role="presentation">
                <h3 className="finder-group" id={`${listId}-${g.group}`}>
                  {SEARCH_GROUP_LABELS[g.group]} <span className="finder-count">{g.count > g.results.length ? `${g.results.length} of ${g.count.toLocaleString()}` : g.count}</span>
                </h3>
                <ul role="group" aria-labelledby={`${listId}-${g.group}`}>
                  {g.results.map((r) => {
                    const i = flat.indexOf(r);
                    return (
                      <li
                        key={r.key}
                        id={optionId(i)}
                        role="option"
                        aria-selected={r === current}
                        aria-disabled={!r.floorId}
                        className="finder-result"
                        data-result-key={r.key}
                        onMouseEnter={() => setActive(i)}
                        onClick={() => r.floorId && show(r)}
                      >
                        <span className="finder-name">{r.name}</span>
                        <span className="finder-where">{where(r, multipleBuildings)}</span>
                        {r.status ? <span className={`finder-state status-${r.statusKind}`}>{r.status}</span> : null}
                        {r.floorId ? <span className="finder-show" aria-hidden="true">Show</span> : null}
                        {r.floorId && onRoute ? (
                          <span
                            className="finder-route"
                            aria-hidden="true"
                            onClick={(e) => { e.stopPropagation(); setOpen(false); onRoute(r); }}
                          >
                            Directions
                          </span>
                        ) : null}
                      </li>
                    );
                  })}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
