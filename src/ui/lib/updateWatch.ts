// How an open tab learns of a new build (docs/ui.md, offline app shell).
//
// The browser looks for a new service worker only when the page navigates,
// and the viewer never navigates: a tab left open on a display or a desk for
// days would run its first build for ever. So once the service worker is
// registered the app asks for an update itself: every UPDATE_CHECK_MS, when
// the network comes back, and when the tab is shown again after a check was
// due. A check needs the network and is skipped while a new worker installs.
//
// It also offers a build that is already waiting, or one that finishes
// installing, itself. workbox-window (through vite-plugin-pwa's registerSW)
// does this too, but it decides by timing whether an update is "its own",
// and an update found before its listener is attached is missed: the person
// would then never see the offer. Offering twice is harmless (the offer is a
// state, not an event).

/** How often an open tab asks the server for a new build. */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** What the watch needs of a ServiceWorkerRegistration. */
export interface WatchedRegistration {
  readonly installing: { state: string; addEventListener(type: 'statechange', fn: () => void): void } | null;
  readonly waiting: object | null;
  update(): Promise<unknown>;
  addEventListener(type: 'updatefound', fn: () => void): void;
}

export interface UpdateWatchEnv {
  /** the page is controlled by a service worker (so a waiting one is an update, not the first install) */
  controlled(): boolean;
  online(): boolean;
  visible(): boolean;
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  /** `online` and `visibilitychange` of the page */
  on(type: 'online' | 'visibilitychange', fn: () => void): void;
}

export interface UpdateWatch {
  /** asks the server for a new build now, unless offline or one is installing; true when it asked */
  check(): boolean;
}

export function watchForUpdates(registration: WatchedRegistration, offer: () => void, env: UpdateWatchEnv): UpdateWatch {
  let lastCheck = env.now();

  const offerIfWaiting = () => {
    if (registration.waiting && env.controlled()) offer();
  };

  const check = () => {
    if (registration.installing || !env.online()) return false;
    lastCheck = env.now();
    // a failed check (the server unreachable) waits for the next occasion
    registration.update().catch(() => undefined);
    return true;
  };

  const watchInstalling = () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener('statechange', () => {
      if (worker.state === 'installed') offerIfWaiting();
    });
  };

  registration.addEventListener('updatefound', watchInstalling);
  // found before this watch began: still installing, or already waiting
  watchInstalling();
  offerIfWaiting();

  env.setInterval(() => { if (env.visible()) check(); }, UPDATE_CHECK_MS);
  env.on('online', () => { check(); });
  env.on('visibilitychange', () => {
    if (env.visible() && env.now() - lastCheck >= UPDATE_CHECK_MS) check();
  });
  return { check };
}

/** The page's own environment. */
export function pageUpdateEnv(): UpdateWatchEnv {
  return {
    controlled: () => !!navigator.serviceWorker.controller,
    online: () => navigator.onLine,
    visible: () => document.visibilityState === 'visible',
    now: () => Date.now(),
    setInterval: (fn, ms) => window.setInterval(fn, ms),
    on: (type, fn) => (type === 'online' ? window : document).addEventListener(type, fn),
  };
}
