// Typed client of the engine on the main thread: opens views into mirrors and
// forwards actions. It takes any EngineApi-shaped object, so the same code
// runs against the Comlink-wrapped worker, a MessageChannel in tests, or an
// in-memory fake; `markCallback` is Comlink.proxy for the real worker.

import type { EngineApi, ViewListener, ViewName, ViewSpec, ViewTypes } from '../../shared/api.js';
import { createViewMirror, type ViewMirror, type ViewMirrorOptions } from './viewMirror.js';

/** What the client needs of the engine: the API with promise-returning methods. */
export type EngineLike = {
  [K in keyof EngineApi]: EngineApi[K] extends (...args: infer A) => infer R
    ? (...args: A) => R | Promise<Awaited<R>>
    : never;
};

export interface EngineClientOptions {
  /** wraps a listener so it can cross to the worker (Comlink.proxy); identity otherwise */
  markCallback?: (listener: ViewListener) => ViewListener;
  /** called for failures of subscribe/unsubscribe, which have no caller to reject */
  onError?: (error: unknown) => void;
  /** how mirrors apply large messages (in slices, one task each, in the browser) */
  mirror?: Omit<ViewMirrorOptions, 'present' | 'presentedSlice'>;
  /**
   * the views whose changes that take several slices are shown as one (`ViewMirrorOptions.present`): a replay's
   * step, whose map and time bar must change together
   */
  present?: { views: readonly ViewName[]; show: NonNullable<ViewMirrorOptions['present']>; slice?: () => void };
}

export interface ViewHandle<V extends ViewName> {
  readonly mirror: ViewMirror<ViewTypes[V]['entry'], ViewTypes[V]['meta']>;
  readonly spec: Extract<ViewSpec, { view: V }>;
  /** switches this handle to another spec of the same view, keeping the mirror */
  setSpec(spec: Extract<ViewSpec, { view: V }>): void;
  /** unsubscribes; later messages of this handle are ignored */
  close(): void;
}

export interface EngineClient {
  readonly api: EngineLike;
  view<V extends ViewName>(spec: Extract<ViewSpec, { view: V }>): ViewHandle<V>;
  /**
   * Opens a view ahead of the component that will ask for it (start-up, docs/ui.md): the first
   * view() of an equal spec takes this handle over, mirror, data and subscription, instead of
   * subscribing again. One nobody took within `unclaimedMs` is closed. Returns its mirror (an open
   * view's own when a component has that spec open already).
   */
  preopen<V extends ViewName>(spec: Extract<ViewSpec, { view: V }>, unclaimedMs?: number): ViewHandle<V>['mirror'];
  /** the mirror of a preopened view of this spec nobody took yet (a component's first render shows it) */
  peek<V extends ViewName>(spec: Extract<ViewSpec, { view: V }>): ViewHandle<V>['mirror'] | null;
  /** closes every open view */
  dispose(): void;
}

/** How long a preopened view waits for its component before it is closed. */
export const PREOPEN_UNCLAIMED_MS = 30_000;

export function createEngineClient(api: EngineLike, options: EngineClientOptions = {}): EngineClient {
  const mark = options.markCallback ?? ((l: ViewListener) => l);
  const onError = options.onError ?? ((error: unknown) => console.error('[engine client]', error));
  const open = new Set<{ readonly spec: ViewSpec; close(): void }>();
  /** preopened handles nobody took yet, by their spec's JSON (the key useView follows) */
  const waiting = new Map<string, { handle: ViewHandle<ViewName>; timer: ReturnType<typeof setTimeout> }>();

  function claim<V extends ViewName>(spec: Extract<ViewSpec, { view: V }>): ViewHandle<V> | null {
    const key = JSON.stringify(spec);
    const early = waiting.get(key);
    if (!early) return null;
    waiting.delete(key);
    clearTimeout(early.timer);
    return early.handle as unknown as ViewHandle<V>;
  }

  function view<V extends ViewName>(initial: Extract<ViewSpec, { view: V }>): ViewHandle<V> {
    return claim(initial) ?? openView(initial);
  }

  function openView<V extends ViewName>(initial: Extract<ViewSpec, { view: V }>): ViewHandle<V> {
    const presents = options.present?.views.includes(initial.view) ?? false;
    const mirror = createViewMirror<ViewTypes[V]['entry'], ViewTypes[V]['meta']>({
      ...options.mirror,
      present: presents ? options.present!.show : undefined,
      presentedSlice: presents ? options.present!.slice : undefined,
    });
    let spec = initial;
    let closed = false;
    // each subscription gets a generation; messages of an older one are dropped
    let generation = 0;
    let current: Promise<number | null> = Promise.resolve(null);

    function start(): void {
      const mine = ++generation;
      const listener: ViewListener = (message) => {
        if (closed || mine !== generation) return;
        mirror.apply(message as never);
      };
      const previous = current;
      current = (async () => {
        await stop(previous);
        if (closed || mine !== generation) return null;
        try {
          const id = await api.subscribe(spec, mark(listener));
          if (closed || mine !== generation) {
            await api.unsubscribe(id);
            return null;
          }
          return id;
        } catch (error) {
          onError(error);
          return null;
        }
      })();
    }

    async function stop(subscription: Promise<number | null>): Promise<void> {
      const id = await subscription;
      if (id === null) return;
      try {
        await api.unsubscribe(id);
      } catch (error) {
        onError(error);
      }
    }

    const handle: ViewHandle<V> = {
      mirror,
      get spec() {
        return spec;
      },
      setSpec(next) {
        if (closed) return;
        spec = next;
        mirror.reset();
        start();
      },
      close() {
        if (closed) return;
        closed = true;
        generation++;
        open.delete(handle);
        void stop(current);
      },
    };
    open.add(handle);
    start();
    return handle;
  }

  return {
    api,
    view,
    preopen(spec, unclaimedMs = PREOPEN_UNCLAIMED_MS) {
      const key = JSON.stringify(spec);
      const known = waiting.get(key);
      if (known) return known.handle.mirror as never;
      // a component already has this view (it came first, e.g. a sign-in): a second subscription would only cost
      for (const h of open) if (JSON.stringify(h.spec) === key) return (h as unknown as ViewHandle<ViewName>).mirror as never;
      const handle = openView(spec);
      const timer = setTimeout(() => {
        if (waiting.get(key)?.handle !== (handle as unknown)) return;
        waiting.delete(key);
        handle.close();
      }, unclaimedMs);
      waiting.set(key, { handle: handle as unknown as ViewHandle<ViewName>, timer });
      return handle.mirror;
    },
    peek(spec) {
      return (waiting.get(JSON.stringify(spec))?.handle.mirror as never) ?? null;
    },
    dispose() {
      for (const { timer } of waiting.values()) clearTimeout(timer);
      waiting.clear();
      for (const h of [...open]) h.close();
    },
  };
}
