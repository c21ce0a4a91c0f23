import { describe, expect, it, vi } from 'vitest';
import { SELF_KEY } from '../../src/shared/api.js';
import { DEFAULT_LAYERS } from '../../src/shared/constants.js';
import { createEngineClient } from '../../src/ui/engine/engineClient.js';
import { isOpenIdReturn, startUp, type StartUpOptions } from '../../src/ui/engine/startUp.js';
import { createFakeEngine, sessionView, signedInWorld } from './fakeEngine.js';

const never = () => new Promise<void>(() => undefined);

function options(patch: Partial<StartUpOptions> = {}): StartUpOptions {
  return { host: 'http://127.0.0.1:9', hash: '', display: false, layers: async () => [...DEFAULT_LAYERS], wait: never, ...patch };
}

describe('startUp', () => {
  it('resumes while the app loads and has the saved floor in its view before the first render', async () => {
    const fake = createFakeEngine(signedInWorld());
    vi.mocked(fake.resume).mockResolvedValue(true);
    const client = createEngineClient(fake);
    await startUp(client, options({ layers: async () => ['desks'] }));
    expect(fake.init).toHaveBeenCalledWith({ host: 'http://127.0.0.1:9' });
    expect(fake.resume).toHaveBeenCalledTimes(1);
    // the floor of the session, with the layers the shell will ask for: the shell takes both views over
    const floor = client.peek({ view: 'floor', floorId: 'f1', layers: ['desks'] });
    expect(floor?.ready).toBe(true);
    expect(floor?.getSnapshot('d1')?.name).toBe('Desk d1');
    const session = client.view({ view: 'session' });
    expect(session.mirror.getSnapshot(SELF_KEY)?.signedIn).toBe(true);
    expect(client.view({ view: 'floor', floorId: 'f1', layers: ['desks'] }).mirror).toBe(floor);
    expect(fake.subscribe).toHaveBeenCalledTimes(2);
  });

  it('opens the floor once navigation is ready, not before', async () => {
    const world = signedInWorld();
    world.session!.entries[SELF_KEY] = sessionView({ navigation: 'structure', floorId: null });
    const fake = createFakeEngine(world);
    vi.mocked(fake.resume).mockResolvedValue(true);
    const client = createEngineClient(fake);
    let first = false;
    const ready = startUp(client, options()).then(() => { first = true; });
    await fake.flush();
    expect(fake.open('floor')).toEqual([]);
    expect(first).toBe(false);
    fake.emit('session', { upserted: { [SELF_KEY]: sessionView() } });
    await ready;
    expect(fake.open('floor')).toEqual([{ view: 'floor', floorId: 'f1', layers: [...DEFAULT_LAYERS] }]);
  });

  it('renders at once when nothing was stored, and waits no longer than its limit otherwise', async () => {
    const fake = createFakeEngine(signedInWorld());
    vi.mocked(fake.resume).mockResolvedValue(false);
    await startUp(createEngineClient(fake), options({ layers: never as never }));

    const stuck = signedInWorld();
    stuck.session!.entries[SELF_KEY] = sessionView({ navigation: 'structure', floorId: null });
    const slow = createFakeEngine(stuck);
    vi.mocked(slow.resume).mockResolvedValue(true);
    const wait = vi.fn(() => Promise.resolve());
    await startUp(createEngineClient(slow), options({ wait }));
    expect(wait).toHaveBeenCalledTimes(1);
  });

  it('leaves an OpenID return to the app (it signs in with the token) and a room display its floor', async () => {
    expect(isOpenIdReturn('#id_token=abc&state=x')).toBe(true);
    expect(isOpenIdReturn('#state=x&id_token=abc')).toBe(true);
    expect(isOpenIdReturn('#mode=reset&code=1')).toBe(false);
    const fake = createFakeEngine(signedInWorld());
    await startUp(createEngineClient(fake), options({ hash: '#id_token=abc.def' }));
    expect(fake.resume).not.toHaveBeenCalled();

    const display = createFakeEngine(signedInWorld());
    vi.mocked(display.resume).mockResolvedValue(true);
    await startUp(createEngineClient(display), options({ display: true }));
    await display.flush();
    expect(display.resume).toHaveBeenCalledTimes(1);
    expect(display.open('session')).toHaveLength(1);
    expect(display.open('floor')).toEqual([]);
  });
});
