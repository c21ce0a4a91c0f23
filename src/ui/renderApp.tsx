// The React side of the browser entry (main.tsx loads it while the engine
// worker starts): the viewer app, or a room-status display on /display/room/{id}.

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { DisplayApp } from './display/DisplayApp.js';
import { parseDisplayRoute } from './display/displayRoute.js';
import type { EngineClient } from './engine/engineClient.js';

export function renderApp(client: EngineClient, host: string): void {
  const display = parseDisplayRoute(window.location.pathname, window.location.search);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      {display ? <DisplayApp client={client} route={display} /> : <App client={client} apiHost={host} />}
    </StrictMode>,
  );
}
