/// <reference types="vite-plugin-pwa/vanillajs" />
// Browser entry: registers the app shell's service worker, starts the engine
// worker, points it at the API host (this page's origin unless
// <meta name="storey-api"> says otherwise) and renders. The worker is started
// before React and the app are loaded (renderApp.tsx is a chunk of its own),
// so its script, IndexedDB and the saved floor load while they do.

import { createWorkerEngine } from './engine/workerEngine.js';
import { appUpdate } from './lib/appUpdate.js';
import './styles.css';
import { registerSW } from 'virtual:pwa-register';

if ('serviceWorker' in navigator) {
  const update = registerSW({ onNeedRefresh: () => appUpdate.offer(() => update(true)) });
}

function apiHost(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="storey-api"]')?.content?.trim();
  return meta ? new URL(meta, window.location.origin).origin : window.location.origin;
}

const host = apiHost();
const engine = createWorkerEngine();
const [{ renderApp }] = await Promise.all([import('./renderApp.js'), engine.client.api.init({ host })]);
renderApp(engine.client, host);
