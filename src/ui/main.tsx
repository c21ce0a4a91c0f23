/// <reference types="vite-plugin-pwa/vanillajs" />
// Browser entry: registers the app shell's service worker, starts the engine
// worker, points it at the API host (this page's origin unless
// <meta name="storey-api"> says otherwise) and renders. The worker starts,
// resumes the stored session and serves the saved floor while React and the
// app load (renderApp.tsx is a chunk of its own); the first render comes once
// the saved floor is in the page (engine/startUp.ts).

import { createWorkerEngine } from './engine/workerEngine.js';
import { START_MARKS, startUp } from './engine/startUp.js';
import { dropPainted, PAINTED_MAX_MS } from './lib/paintedFloor.js';
import { appUpdate } from './lib/appUpdate.js';
import { ENGINE_STOPPED, ENGINE_STOPPED_ADVICE, failureDetail, markStarting, showFailure } from './lib/startFailure.js';
import { pageUpdateEnv, watchForUpdates } from './lib/updateWatch.js';
import { yieldTask } from './lib/yieldTask.js';
import './styles.css';
// every stylesheet of the app is in the page's head before index.html paints the saved floor: imported by
// the components that use them, these two were renderApp's chunk's own stylesheet, added when the chunk
// loads, which restyled the whole painted floor in the saved → live swap (issue 14: no task over 50 ms)
import './components/route/route.css';
import './display/display.css';
import { registerSW } from 'virtual:pwa-register';

function apiHost(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="storey-api"]')?.content?.trim();
  return meta ? new URL(meta, window.location.origin).origin : window.location.origin;
}

markStarting();
// the viewer takes index.html's painted floor away once it has drawn its own; the picture is never over the app
// longer than this, whatever a step below waits for
setTimeout(dropPainted, PAINTED_MAX_MS);

/** takes React's tree down; set once the app is rendered */
let unmountApp: (() => void) | null = null;
let engineStopped = false;
/** The engine threw and was ended: the app reading it goes, and the page says so, with Reload (docs/ui.md). */
function stopApp(): void {
  unmountApp?.();
  unmountApp = null;
  showFailure(ENGINE_STOPPED, ENGINE_STOPPED_ADVICE);
}

try {
  const host = apiHost();
  const engine = createWorkerEngine({
    unavailable: () => showFailure('The app\'s engine could not be loaded.'),
    stopped: () => {
      engineStopped = true;
      stopApp();
    },
  });
  // each step in a task of its own: on a reopen they run under index.html's painted floor, and the
  // browser paints and takes a click between them (issue 14: no main-thread task over 50 ms)
  await yieldTask();
  const firstScreen = startUp(engine.client, {
    host,
    hash: window.location.hash,
    display: window.location.pathname.startsWith('/display/'),
    layers: () => import('./lib/deepLink.js').then(({ parseDeepLink }) => parseDeepLink(window.location.search).layers),
  });

  await yieldTask();
  if ('serviceWorker' in navigator) {
    // Reload asks the waiting build to take over, and the page reloads once it has (one reload, whoever hears it first)
    let reloading = false;
    const apply = async () => {
      navigator.serviceWorker.addEventListener('controllerchange', () => {
        if (reloading) return;
        reloading = true;
        window.location.reload();
      });
      await update(true);
    };
    const offer = () => appUpdate.offer(apply);
    const update = registerSW({
      onNeedRefresh: offer,
      // an open tab asks for new builds itself, and offers one however it was found (lib/updateWatch.ts)
      onRegisteredSW: (_url, registration) => { if (registration) watchForUpdates(registration, offer, pageUpdateEnv()); },
    });
  }
  await yieldTask();

  // React DOM's start (its module's evaluation, one task no yield can split) and the app's modules in
  // separate tasks: together they were the saved → live swap's longest task (issue 14)
  const app = import('react-dom/client').then(() => yieldTask()).then(() => import('./renderApp.js'));
  const [{ renderApp }] = await Promise.all([app, firstScreen]);
  // the first screen's wait ends in the task that worked out the floor's draw order: React's root in the next
  await yieldTask();
  performance.mark(START_MARKS.render);
  unmountApp = await renderApp(engine.client, host, engine.hold);
  // stopped while the app was being rendered: its first screen would stand over the failure
  if (engineStopped) stopApp();
} catch (error) {
  // a step of the start failed (a chunk that did not load, an error): the viewer will not draw, and the
  // person is told so at once rather than looking at the picture for seconds and "Starting…" for ever
  console.error('[storey] the app could not start', error);
  showFailure(failureDetail(error));
}
