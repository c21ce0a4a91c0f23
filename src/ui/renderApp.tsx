// The React side of the browser entry (main.tsx loads it while the engine
// worker starts): the viewer app, or a room-status display on /display/room/{id}.

import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { DisplayApp } from './display/DisplayApp.js';
import { parseDisplayRoute } from './display/displayRoute.js';
import type { EngineClient } from './engine/engineClient.js';

export function renderApp(client: EngineClient, host: string): void {
  const display = parseDisplayRoute(window.location.pathname, window.location.search);
  const root = createRoot(document.getElementById('root')!);
  // a transition: React renders the first screen (the shell and its floor's first step) in slices
  // of a few ms, yielding between them, instead of one long task (issue 14: no task over 50 ms)
  startTransition(() => {
    root.render(
      <StrictMode>
        {display ? <DisplayApp client={client} route={display} /> : <App client={client} apiHost={host} />}
      </StrictMode>,
    );
  });
}
