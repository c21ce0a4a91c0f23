// React context carrying the engine client, so components reach the engine
// without props drilling and tests can hand in a client over a fake engine.

import { createContext, useContext } from 'react';
import type { EngineClient } from '../engine/engineClient.js';

export const EngineContext = createContext<EngineClient | null>(null);

export function useEngine(): EngineClient {
  const client = useContext(EngineContext);
  if (!client) throw new Error('useEngine needs an <EngineContext.Provider>');
  return client;
}
