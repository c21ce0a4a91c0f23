// The React side of the browser entry (main.tsx loads it while the engine
// worker starts): the viewer app, or a room-status display on /display/room/{id}.

import { StrictMode, startTransition, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { DisplayApp } from './display/DisplayApp.js';
import { parseDisplayRoute } from './display/displayRoute.js';
import type { EngineClient } from './engine/engineClient.js';
import type { RenderHold } from './engine/renderHold.js';
import { failureDetail, markRendered, showFailure } from './lib/startFailure.js';
import { yieldTask } from './lib/yieldTask.js';

/**
 * Calls `onCommitted` once the first screen is committed, before its effects: the views' changes
 * taken meanwhile apply then, and the effects (subscriptions, "the floor is drawn") see them.
 */
function FirstCommit({ onCommitted }: { onCommitted(): void }) {
  useLayoutEffect(() => onCommitted(), [onCommitted]);
  return null;
}

/**
 * `hold`: the mirrors' hold (engine/renderHold.ts), taken while React renders the first screen. Answers how to
 * take the app down again (the engine stopped: the failure screen takes #root).
 */
export async function renderApp(client: EngineClient, host: string, hold?: Pick<RenderHold, 'take'>): Promise<() => void> {
  const display = parseDisplayRoute(window.location.pathname, window.location.search);
  const root = createRoot(document.getElementById('root')!, {
    // nothing caught it: React has taken the screen down, so the person is told, with Reload (docs/ui.md)
    onUncaughtError(error) {
      console.error('[storey] the app stopped', error);
      showFailure(failureDetail(error));
    },
  });
  // the root (React's listeners on every event type) and the first render in tasks of their own
  await yieldTask();
  // the views' data stays as it is until the first screen is committed: a change would make React render
  // it again in one synchronous task
  const release = hold?.take() ?? (() => undefined);
  const committed = () => { markRendered(); release(); };
  // a transition: React renders the first screen (the shell and its floor's first step) in slices
  // of a few ms, yielding between them, instead of one long task (issue 14: no task over 50 ms)
  startTransition(() => {
    root.render(
      <StrictMode>
        {display ? <DisplayApp client={client} route={display} /> : <App client={client} apiHost={host} />}
        <FirstCommit onCommitted={committed} />
      </StrictMode>,
    );
  });
  return () => root.unmount();
}
