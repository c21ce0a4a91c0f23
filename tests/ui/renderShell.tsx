// Renders the signed-in Shell the way App does: driven by the live session
// view, so intents that change navigation in the (fake) worker re-render it.

import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { SELF_KEY } from '../../src/shared/api.js';
import { Shell } from '../../src/ui/components/Shell.js';
import { EngineContext } from '../../src/ui/hooks/engineContext.js';
import { useView, useViewEntry } from '../../src/ui/hooks/useView.js';
import { createFakeEngine, signedInWorld, type FakeEngine } from './fakeEngine.js';

function LiveShell({ location }: { location: { search: string; replace(search: string): void } }) {
  const session = useViewEntry(useView({ view: 'session' }), SELF_KEY);
  return session ? <Shell session={session} apiHost="http://127.0.0.1:9" location={location} /> : null;
}

export function renderShell(engine: FakeEngine = createFakeEngine(signedInWorld()), search = '') {
  const location = { search, replace: vi.fn((next: string) => void (location.search = next)) };
  const utils = render(
    <EngineContext.Provider value={engine.client}>
      <LiveShell location={location} />
    </EngineContext.Provider>,
  );
  return { ...utils, engine, location };
}
