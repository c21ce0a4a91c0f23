// The app's first commit renders nothing again in its own task (issue 14: no main-thread task over 50 ms).
// A state update made while React commits (a layout effect's, a ref's) is rendered at once, synchronously,
// in the commit's task, and every passive effect of the screen is run early for it: on a reopen that put
// ~20 ms of CPU more into the commit of the first screen (a task of 51–77 ms when the cores are shared).
// React's Profiler names such a render 'nested-update'.

import { cleanup, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY } from '../../src/shared/api.js';
import { Shell } from '../../src/ui/components/Shell.js';
import { EngineContext } from '../../src/ui/hooks/engineContext.js';
import { useView, useViewEntry } from '../../src/ui/hooks/useView.js';
import { createFakeEngine, signedInWorld } from './fakeEngine.js';

afterEach(cleanup);

function LiveShell() {
  const session = useViewEntry(useView({ view: 'session' }), SELF_KEY);
  const location = { search: '', replace: vi.fn() };
  return session ? <Shell session={session} apiHost="http://127.0.0.1:9" location={location} /> : null;
}

describe('the first screen', () => {
  it('is committed without a render inside the commit: "Play back a day" comes in a render of its own', async () => {
    const engine = createFakeEngine(signedInWorld());
    const phases: string[] = [];
    render(
      <Profiler id="shell" onRender={(_id, phase) => { phases.push(phase); }}>
        <EngineContext.Provider value={engine.client}>
          <LiveShell />
        </EngineContext.Provider>
      </Profiler>,
    );
    const button = await screen.findByRole('button', { name: 'Play back a day' });
    expect(await screen.findByRole('application', { name: /Floor plan of/ })).toBeTruthy();
    expect(phases[0]).toBe('mount');
    expect(phases.filter((p) => p === 'nested-update')).toEqual([]);
    expect(button.isConnected).toBe(true);
  });
});
