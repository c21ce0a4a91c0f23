import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type SessionView } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import { createMemoryStorage } from '../../../src/worker/storage/memoryStorage.js';
import { createBroadcastTabChannel, parseTabMessage } from '../../../src/worker/tabChannel.js';
import { collect, createFakeBackend, createTestEngine } from './harness.js';

// Two tabs of the app: two engines, each with its own server connection, on
// one BroadcastChannel (Node's, as the browser's: same name, other instances).
const HOST = 'http://127.0.0.1:9';
const engines: Engine[] = [];
let channelName = '';
// a channel of its own per test: no message of one test reaches the next
beforeEach(() => { channelName = `storey-tabs-test-${Math.random()}`; });
afterEach(async () => { await Promise.all(engines.splice(0).map((e) => e.dispose())); });

async function tab(userId: string, storage = createMemoryStorage()) {
  const backend = createFakeBackend({ userId });
  const { engine } = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory, storage, tabs: createBroadcastTabChannel(channelName) });
  engines.push(engine);
  await engine.init({ host: HOST });
  expect((await engine.signIn(`${userId}@example.com`, 'pw')).ok).toBe(true);
  const session = await collect<SessionView>(engine, { view: 'session' });
  const signedIn = () => { engine.internals.hub.flush(); return session.entries.get(SELF_KEY)?.signedIn; };
  await vi.waitFor(() => { expect(signedIn()).toBe(true); });
  return { engine, backend, storage, signedIn };
}

describe('tabs of one browser', () => {
  it('signs the same user out in every tab when they sign out in one, telling the server once', async () => {
    const storage = createMemoryStorage();
    const first = await tab('u1', storage);
    const second = await tab('u1', storage);
    await first.engine.signOut();
    await vi.waitFor(() => { expect(second.signedIn()).toBe(false); });
    expect(first.signedIn()).toBe(false);
    expect(second.engine.internals.session()!.token()).toBeNull();
    expect(await storage.loadSession()).toBeNull();
    // the first tab ended the token on the server; the second did not send its own logout
    expect(first.backend.calls.filter((c) => c.startsWith('POST /v1/logout'))).toHaveLength(1);
    expect(second.backend.calls.filter((c) => c.startsWith('POST /v1/logout'))).toHaveLength(0);
  });

  it("leaves another user's tab signed in", async () => {
    const ann = await tab('u1');
    const bob = await tab('u2');
    await ann.engine.signOut();
    await vi.waitFor(() => { expect(ann.signedIn()).toBe(false); });
    // a message round trip later, Bob is still in
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bob.signedIn()).toBe(true);
    expect(bob.engine.internals.session()!.token()).toBe('secret-token');
  });

  it('ignores what another build or page may post on the channel', () => {
    expect(parseTabMessage({ type: 'signedOut', userId: 'u1' })).toEqual({ type: 'signedOut', userId: 'u1' });
    for (const junk of [null, 'signedOut', { type: 'signedOut' }, { type: 'signedOut', userId: '' }, { type: 'signedOut', userId: 7 }, { type: 'signOutAll' }]) {
      expect(parseTabMessage(junk)).toBeNull();
    }
  });
});
