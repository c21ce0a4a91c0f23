/// <reference types="vite-plugin-pwa/vanillajs" />
// Browser entry: registers the app shell's service worker, starts the engine
// worker, points it at the API host (this page's origin unless
// <meta name="storey-api"> says otherwise) and renders.

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { DisplayApp } from './display/DisplayApp.js';
import { parseDisplayRoute } from './display/displayRoute.js';
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
await engine.client.api.init({ host });
// /display/room/{id}: a room-status display instead of the viewer
const display = parseDisplayRoute(window.location.pathname, window.location.search);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {display ? <DisplayApp client={engine.client} route={display} /> : <App client={engine.client} apiHost={host} />}
  </StrictMode>,
);
