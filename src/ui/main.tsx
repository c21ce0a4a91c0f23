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
import './styles.css';
import { registerSW } from 'virtual:pwa-register';

function apiHost(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="storey-api"]')?.content?.trim();
  return meta ? new URL(meta, window.location.origin).origin : window.location.origin;
}

const host = apiHost();
const engine = createWorkerEngine();
const firstScreen = startUp(engine.client, {
  host,
  hash: window.location.hash,
  display: window.location.pathname.startsWith('/display/'),
  layers: () => import('./lib/deepLink.js').then(({ parseDeepLink }) => parseDeepLink(window.location.search).layers),
});

if ('serviceWorker' in navigator) {
  const update = registerSW({ onNeedRefresh: () => appUpdate.offer(() => update(true)) });
}

const [{ renderApp }] = await Promise.all([import('./renderApp.js'), firstScreen]);
performance.mark(START_MARKS.render);
renderApp(engine.client, host);
// the viewer takes index.html's painted floor away once it has drawn its own; never later than this
setTimeout(dropPainted, PAINTED_MAX_MS);
