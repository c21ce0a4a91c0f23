// React adapters over the view mirror (DESIGN §4): useSyncExternalStore with a
// per-key store, so a live batch re-renders only the components whose key
// changed. A view handle lives as long as the component that opened it.

import { useCallback, useEffect, useEffectEvent, useRef, useState, useSyncExternalStore } from 'react';
import type { ViewName, ViewSpec, ViewTypes } from '../../shared/api.js';
import type { ViewHandle } from '../engine/engineClient.js';
import type { ViewMirror } from '../engine/viewMirror.js';
import { useEngine } from './engineContext.js';

type MirrorOf<V extends ViewName> = ViewMirror<ViewTypes[V]['entry'], ViewTypes[V]['meta']>;

/** Opens a view for the component's lifetime; a changed spec re-subscribes into the same mirror. */
export function useView<V extends ViewName>(spec: Extract<ViewSpec, { view: V }> | null): MirrorOf<V> | null {
  const client = useEngine();
  const key = spec ? JSON.stringify(spec) : null;
  const [handle, setHandle] = useState<ViewHandle<V> | null>(null);
  const handleRef = useRef<ViewHandle<V> | null>(null);
  const viewName = spec?.view ?? null;

  // callers pass a new spec object each render: the view follows its content (`key`)
  const openOrUpdate = useEffectEvent(() => {
    if (!spec) return;
    const current = handleRef.current;
    if (current && current.spec.view === spec.view) {
      current.setSpec(spec);
      return;
    }
    const opened = client.view<V>(spec);
    handleRef.current = opened;
    setHandle(opened);
  });
  useEffect(() => {
    openOrUpdate();
  }, [client, key]);

  useEffect(
    () => () => {
      handleRef.current?.close();
      handleRef.current = null;
    },
    [client, viewName],
  );

  // a view opened ahead at start-up (engine/startUp.ts) shows from the first render; the effect then takes it over
  const early = spec && !handle ? client.peek(spec) : null;
  return spec ? (handle?.mirror ?? early) : null;
}

const noop = () => () => {};

/** One entry of a view; re-renders only when that key changes. */
export function useViewEntry<T>(mirror: ViewMirror<T, unknown> | null, key: string): T | undefined {
  // stable while mirror and key are: a re-render must not unsubscribe and subscribe again
  const subscribe = useCallback((cb: () => void) => (mirror ? mirror.subscribe(key, cb) : noop()), [mirror, key]);
  const get = () => mirror?.getSnapshot(key);
  return useSyncExternalStore(subscribe, get, get);
}

/** The keys of a view; re-renders only when keys are added or removed. */
export function useViewKeys(mirror: ViewMirror<unknown, unknown> | null): readonly string[] {
  return useSyncExternalStore(mirror ? mirror.subscribeKeys : noop, () => mirror?.getKeys() ?? EMPTY_KEYS);
}

/** All entries of a view (lists, finders); re-renders on any change of the view. */
export function useViewEntries<T>(mirror: ViewMirror<T, unknown> | null): Readonly<Record<string, T>> {
  return useSyncExternalStore(mirror ? mirror.subscribeAll : noop, () => mirror?.getEntries() ?? EMPTY_ENTRIES) as Readonly<Record<string, T>>;
}

export function useViewMeta<M>(mirror: ViewMirror<unknown, M> | null): M | undefined {
  return useSyncExternalStore(mirror ? mirror.subscribeMeta : noop, () => mirror?.getMeta());
}

/** Whether the first snapshot of the view has arrived. */
export function useViewReady(mirror: ViewMirror<unknown, unknown> | null): boolean {
  return useSyncExternalStore(mirror ? mirror.subscribeAll : noop, () => mirror?.ready ?? false);
}

const EMPTY_KEYS: readonly string[] = [];
const EMPTY_ENTRIES: Readonly<Record<string, never>> = {};
