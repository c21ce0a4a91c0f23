// The offline app shell's update state (docs/ui.md): main.tsx registers the
// service worker and reports here when a new build is waiting; the
// UpdatePrompt offers to reload into it. Kept apart from the registration so
// components and their tests need no service worker.

export interface AppUpdate {
  /** a new build is installed and waits for this page to reload */
  waiting(): boolean;
  subscribe(listener: () => void): () => void;
  /** called by the registration when a new build is waiting; `apply` activates it and reloads */
  offer(apply: () => Promise<void>): void;
  /** activates the waiting build and reloads the page */
  apply(): Promise<void>;
  /** hides the offer until the next build */
  dismiss(): void;
}

export function createAppUpdate(): AppUpdate {
  let apply: (() => Promise<void>) | null = null;
  let waiting = false;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const l of [...listeners]) l();
  };
  return {
    waiting: () => waiting,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    offer(fn) {
      apply = fn;
      waiting = true;
      emit();
    },
    async apply() {
      await apply?.();
    },
    dismiss() {
      waiting = false;
      emit();
    },
  };
}

/** The page's one instance. */
export const appUpdate = createAppUpdate();
