import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { MSG } from '../../../src/shared/messages.js';
import { RECONNECT_MAX_DELAY_MS, RECONNECT_STEP_MS, TIME_SYNC_INTERVAL_MS } from '../../../src/shared/constants.js';
import { connected, createFixture, LOC, LOC11, ORG, USER } from '../sync/fakes.js';
import { scopeKey } from '../../../src/shared/protocol.js';

const networkError = (message: string) => ({ level: 'error', type: 'network', message });

describe('createSession', () => {
  beforeEach(() => { vi.useFakeTimers(); vi.setSystemTime(1_000_000); });
  afterEach(() => { vi.useRealTimers(); });

  describe('connect', () => {
    it("fails with 'Current user is not set' when no token exists", async () => {
      const f = createFixture();
      await expect(f.sync.connect()).rejects.toThrow('Current user is not set');
      await expect(f.sync.connect()).rejects.toThrow(MSG.CURRENT_USER_NOT_SET);
      expect(f.transports).toHaveLength(0);
    });

    it("fails a second attempt while one is ongoing with 'Only one connection attempt can be ongoing!'", async () => {
      const f = createFixture();
      let release!: () => void;
      f.connectOutcomes.push(() => new Promise<void>((resolve) => { release = resolve; }));
      // signing in starts the first attempt
      await f.sync.signIn('ada@example.com', 'password1');
      expect(() => f.session.connect()).toThrow('Only one connection attempt can be ongoing!');
      expect(() => f.session.connect()).toThrow(MSG.ONLY_ONE_CONNECTION_ATTEMPT);
      await vi.waitFor(() => expect(release).toBeDefined());
      release();
      await f.settled();
      expect(f.sync.state().state).toBe('connected');
      expect(f.transports).toHaveLength(1);
    });

    it('goes connecting, then connected, activates the user scope and loads notifications', async () => {
      const f = createFixture();
      await connected(f);
      expect(f.views.map((v) => v.state)).toContain('connecting');
      expect(f.sync.state()).toMatchObject({ state: 'connected', transport: 'mqtt', attempts: 0, nextRetryAt: null });
      expect(f.transport().subscribed).toEqual([scopeKey(USER)]);
      expect(f.batches).toEqual([{ scope: USER, changes: [{ collection: 'notifications', kind: 'initial', items: [] }] }]);
      expect(f.sync.subscriptionState(USER)).toBe('loaded');
    });

    it('sends the bearer token in a header and never in a URL or a log line', async () => {
      const f = createFixture();
      await connected(f, { location: true });
      const authed = f.api.calls.filter((c) => c.path !== '/v1/login');
      expect(authed.every((c) => c.headers.authorization === 'Bearer secret-token')).toBe(true);
      expect(f.api.calls.some((c) => c.path.includes('secret-token') || c.query.toString().includes('secret-token'))).toBe(false);
      expect(JSON.stringify(f.lines)).not.toContain('secret-token');
    });

    it("posts 'Problem connecting to server.' and schedules a reconnect in 5 s when the transport fails", async () => {
      const f = createFixture();
      await f.sync.signIn('ada@example.com', 'password1');
      f.connectOutcomes.push(f.failing('refused'));
      await f.sync.connect();
      expect(f.errors).toEqual([{ ...networkError('Problem connecting to server.'), time: Date.now() }]);
      expect(f.errors[0]!.message).toBe(MSG.PROBLEM_CONNECTING);
      expect(f.sync.state()).toMatchObject({ state: 'error', attempts: 1, nextRetryAt: Date.now() + 5_000, lastError: MSG.PROBLEM_CONNECTING });
      await vi.advanceTimersByTimeAsync(4_999);
      expect(f.transports).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(f.transports).toHaveLength(2);
      expect(f.sync.state().state).toBe('connected');
    });

    it("posts 'Could not sync time with server.' when /current_time fails, and schedules a reconnect", async () => {
      const f = createFixture();
      f.api.on('GET', '/v1/current_time', () => { throw new TypeError('fetch failed'); });
      await f.sync.signIn('ada@example.com', 'password1');
      await f.sync.connect();
      expect(f.errors.map((e) => e.message)).toEqual(['Could not sync time with server.']);
      expect(f.errors[0]).toMatchObject(networkError(MSG.COULD_NOT_SYNC_TIME));
      expect(f.transports).toHaveLength(0);
      expect(f.sync.state().nextRetryAt).toBe(Date.now() + RECONNECT_STEP_MS);
    });

    it("posts 'Failed reconnect attempt.' when the server cannot even tell the time during a reconnect", async () => {
      const f = createFixture();
      await connected(f);
      f.api.on('GET', '/v1/current_time', () => { throw new TypeError('fetch failed'); });
      f.transport().state('disconnected');
      await vi.advanceTimersByTimeAsync(5_000);
      expect(f.errors.map((e) => e.message)).toEqual(['Failed reconnect attempt.']);
      expect(f.sync.state()).toMatchObject({ state: 'error', attempts: 2, nextRetryAt: Date.now() + 10_000 });
    });

    it("posts 'Failed trying to load.' when an initial load fails, and schedules a reconnect that reloads", async () => {
      const f = createFixture();
      await f.sync.signIn('ada@example.com', 'password1');
      let fail = true;
      f.api.on('GET', '/v1/notifications', () => {
        if (fail) return { status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: 'later' } };
        return { body: [{ id: 'n1' }], headers: { 'x-stream-id': 'u', 'x-stream-sequence': '0' } };
      });
      await f.sync.connect();
      expect(f.errors.map((e) => e.message)).toEqual(['Failed trying to load.']);
      expect(f.errors[0]).toMatchObject(networkError(MSG.FAILED_TRYING_TO_LOAD));
      expect(f.sync.state()).toMatchObject({ state: 'error', attempts: 1 });
      fail = false;
      await vi.advanceTimersByTimeAsync(5_000);
      expect(f.sync.state()).toMatchObject({ state: 'connected', attempts: 0, lastError: null });
      expect(f.batches.at(-1)!.changes[0]).toMatchObject({ collection: 'notifications', kind: 'initial', items: [{ id: 'n1' }] });
    });

    it('names missing Pusher settings clearly and still retries on the schedule', async () => {
      const { createTransport } = await import('../../../src/worker/transports/index.js');
      const f = createFixture({ transportFactory: createTransport });
      f.settings.mqtt_config = undefined;
      f.settings.pusher_config = { app_key: 'key', cluster: '' };
      await f.sync.signIn('ada@example.com', 'password1');
      await f.sync.connect();
      expect(f.sync.state().lastError).toBe('Real-time messaging needs an app key and a cluster option.');
      expect(f.errors.map((e) => e.message)).toEqual([MSG.PROBLEM_CONNECTING]);
      expect(f.sync.state().nextRetryAt).toBe(Date.now() + 5_000);
    });
  });

  describe('reconnect back-off', () => {
    it("waits 5, 10, 15 … 60, 60 s between failed attempts, posting 'Failed reconnect attempt.' each time", async () => {
      const f = createFixture();
      await f.sync.signIn('ada@example.com', 'password1');
      for (let i = 0; i < 14; i++) f.connectOutcomes.push(f.failing());
      await f.sync.connect();
      const delays: number[] = [];
      for (let i = 0; i < 13; i++) {
        const before = Date.now();
        const due = f.sync.state().nextRetryAt!;
        delays.push(due - before);
        await vi.advanceTimersByTimeAsync(due - before);
      }
      expect(delays).toEqual([5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 60].map((s) => s * 1000));
      expect(Math.max(...delays)).toBe(RECONNECT_MAX_DELAY_MS);
      expect(f.errors[0]!.message).toBe('Problem connecting to server.');
      expect(f.errors.slice(1).map((e) => e.message)).toEqual(Array(13).fill('Failed reconnect attempt.'));
      expect(f.errors[1]!.message).toBe(MSG.FAILED_RECONNECT_ATTEMPT);
    });

    it('starts again at 5 s after a success', async () => {
      const f = createFixture();
      await f.sync.signIn('ada@example.com', 'password1');
      f.connectOutcomes.push(f.failing(), f.failing(), f.failing());
      await f.sync.connect();
      await vi.advanceTimersByTimeAsync(5_000);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(f.sync.state()).toMatchObject({ state: 'error', attempts: 3, nextRetryAt: Date.now() + 15_000 });
      await vi.advanceTimersByTimeAsync(15_000);
      expect(f.sync.state()).toMatchObject({ state: 'connected', attempts: 0, nextRetryAt: null });
      f.connectOutcomes.push(f.failing());
      f.transport().state('disconnected');
      expect(f.sync.state()).toMatchObject({ state: 'unavailable', attempts: 1, nextRetryAt: Date.now() + 5_000 });
      await vi.advanceTimersByTimeAsync(5_000);
      expect(f.sync.state()).toMatchObject({ state: 'error', attempts: 2, nextRetryAt: Date.now() + 10_000 });
    });
  });

  describe('transport loss', () => {
    it('goes unavailable, reconnects after 5 s and reloads the organization and location', async () => {
      const f = createFixture();
      await connected(f, { location: true });
      const first = f.transport();
      f.batches.length = 0;
      first.state('disconnected');
      expect(f.sync.state()).toMatchObject({ state: 'unavailable', transportState: 'disconnected', nextRetryAt: Date.now() + 5_000 });
      expect(first.disconnected).toBe(true);
      expect(f.messages('warn')).toContain('Live connection lost; reconnecting on the back-off schedule.');
      await vi.advanceTimersByTimeAsync(5_000);
      const second = f.transport();
      expect(second).not.toBe(first);
      expect(new Set(second.subscribed)).toEqual(new Set([scopeKey(USER), scopeKey(ORG), scopeKey(LOC)]));
      const initial = f.batches.flatMap((b) => b.changes.filter((c) => c.kind === 'initial').map((c) => c.collection));
      expect(new Set(initial)).toEqual(new Set(['notifications', 'organizations', 'locations', 'users', 'external_objects', 'assets', 'sensors']));
      expect(f.sync.state()).toMatchObject({ state: 'connected', attempts: 0 });
      expect(f.errors).toEqual([]);
    });
  });

  describe('time sync', () => {
    it('keeps the server offset with the half round trip removed, and repeats every 30 s', async () => {
      const f = createFixture({ serverOffsetMs: 120_000 });
      f.api.on('GET', '/v1/current_time', async () => {
        const time = Date.now() + 120_000;
        await new Promise((r) => setTimeout(r, 200));
        return { body: { time } };
      });
      await f.sync.signIn('ada@example.com', 'password1');
      const connecting = f.sync.connect();
      await vi.advanceTimersByTimeAsync(200);
      await connecting;
      // the server read its time at send; the half-RTT assumption puts it 100 ms later
      expect(f.corrected.offsetMs).toBe(120_000 - 100);
      expect(f.sync.state().serverOffsetMs).toBe(120_000 - 100);
      const before = f.api.calls.filter((c) => c.path === '/v1/current_time').length;
      await vi.advanceTimersByTimeAsync(TIME_SYNC_INTERVAL_MS + 200);
      expect(f.api.calls.filter((c) => c.path === '/v1/current_time').length).toBe(before + 1);
      await vi.advanceTimersByTimeAsync(30_000);
      expect(f.api.calls.filter((c) => c.path === '/v1/current_time').length).toBe(before + 2);
    });

    it("posts 'Could not sync time with server.' when a periodic sync fails, and reconnects", async () => {
      const f = createFixture();
      await connected(f);
      f.api.on('GET', '/v1/current_time', () => ({ status: 500, body: { message: 'down' } }));
      await vi.advanceTimersByTimeAsync(30_000);
      expect(f.errors.map((e) => e.message)).toEqual(['Could not sync time with server.']);
      expect(f.sync.state()).toMatchObject({ state: 'error', nextRetryAt: Date.now() + 5_000 });
      f.api.on('GET', '/v1/current_time', () => ({ body: { time: Date.now() } }));
      await vi.advanceTimersByTimeAsync(5_000);
      expect(f.sync.state().state).toBe('connected');
    });
  });

  describe('setOnline', () => {
    it('logs going online and forces a reconnect at once', async () => {
      const f = createFixture();
      await connected(f);
      f.sync.setOnline(true);
      expect(f.messages('info')).toContain('Browser went online; reconnecting.');
      await vi.advanceTimersByTimeAsync(0);
      expect(f.transports).toHaveLength(2);
      expect(f.sync.state()).toMatchObject({ state: 'connected', online: true });
    });

    it('logs going offline without reconnecting', async () => {
      const f = createFixture();
      await connected(f);
      f.sync.setOnline(false);
      expect(f.messages('info')).toContain('Browser went offline.');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(f.transports).toHaveLength(1);
      expect(f.sync.state().online).toBe(false);
    });

    it('cuts a pending back-off short when the browser comes back online', async () => {
      const f = createFixture();
      await f.sync.signIn('ada@example.com', 'password1');
      f.connectOutcomes.push(f.failing());
      await f.sync.connect();
      expect(f.sync.state().nextRetryAt).toBe(Date.now() + 5_000);
      f.sync.setOnline(true);
      await vi.advanceTimersByTimeAsync(0);
      expect(f.sync.state()).toMatchObject({ state: 'connected', nextRetryAt: null });
    });
  });

  describe('timeouts', () => {
    const never = () => new Promise<never>(() => undefined);
    const SHORT = { timeSyncMs: 1_000, settingsMs: 1_000, transportMs: 1_000, loadMs: 1_000 };

    it.each([
      ['GET /v1/current_time', MSG.COULD_NOT_SYNC_TIME],
      ['GET /v2/settings', MSG.PROBLEM_CONNECTING],
    ])('fails a first connect whose %s never answers, then recovers on the back-off once it answers', async (route, message) => {
      const f = createFixture({ timeouts: SHORT });
      const [method, path] = route.split(' ') as [string, string];
      const healthy = path === '/v2/settings' ? () => ({ body: f.settings }) : () => ({ body: { time: Date.now() } });
      // the sign-in's own settings call answers; the connect step's first call hangs
      let calls = 0;
      f.api.on(method, path, () => {
        calls += 1;
        return calls === (path === '/v2/settings' ? 2 : 1) ? never() : healthy();
      });
      await f.sync.signIn('ada@example.com', 'password1');
      await vi.advanceTimersByTimeAsync(SHORT.timeSyncMs);
      await f.settled();
      expect(f.errors.map((e) => e.message)).toEqual([message]);
      expect(f.sync.state()).toMatchObject({ state: 'error', nextRetryAt: Date.now() + 5_000 });
      await vi.advanceTimersByTimeAsync(5_000);
      await f.until((st) => st.phase.name === 'live');
      expect(f.sync.state()).toMatchObject({ state: 'connected', attempts: 0 });
    });

    it('fails a sign-in whose server never answers instead of hanging, and stays signed out', async () => {
      const f = createFixture({ timeouts: SHORT });
      f.api.on('POST', '/v1/login', never);
      const signing = f.sync.signIn('ada@example.com', 'password1');
      const outcome = expect(signing).rejects.toMatchObject({ name: 'StepTimeoutError' });
      await vi.advanceTimersByTimeAsync(SHORT.settingsMs);
      await outcome;
      expect(f.session.state().phase.name).toBe('signedOut');
      expect(f.session.token()).toBeNull();
    });

    it('gives up on a broker that never answers (no CONNACK) and retries on the back-off', async () => {
      const f = createFixture({ timeouts: SHORT });
      f.connectOutcomes.push(never);
      await f.sync.signIn('ada@example.com', 'password1');
      await vi.advanceTimersByTimeAsync(SHORT.transportMs);
      await f.settled();
      expect(f.errors.map((e) => e.message)).toEqual([MSG.PROBLEM_CONNECTING]);
      expect(f.transports[0]!.disconnected).toBe(true);
      await vi.advanceTimersByTimeAsync(5_000);
      await f.until((s) => s.phase.name === 'live');
      expect(f.transports).toHaveLength(2);
    });

    it("fails an initial load that never answers with 'Failed trying to load.', and the reconnect reloads it", async () => {
      const f = createFixture({ timeouts: SHORT });
      let hang = true;
      f.api.on('GET', '/v1/notifications', () => (hang ? never() : { body: [{ id: 'n1' }], headers: { 'x-stream-id': 'u', 'x-stream-sequence': '0' } }));
      await f.sync.signIn('ada@example.com', 'password1');
      await vi.advanceTimersByTimeAsync(SHORT.loadMs);
      await f.settled();
      expect(f.errors.map((e) => e.message)).toEqual([MSG.FAILED_TRYING_TO_LOAD]);
      hang = false;
      await vi.advanceTimersByTimeAsync(5_000);
      await f.until((s) => s.phase.name === 'live');
      expect(f.batches.at(-1)!.changes[0]).toMatchObject({ collection: 'notifications', kind: 'initial', items: [{ id: 'n1' }] });
    });
  });

  describe('401', () => {
    it('ends the session when the settings answer 401 mid-session, without retrying', async () => {
      const f = createFixture();
      await connected(f, { location: true });
      f.api.on('GET', '/v2/settings', () => ({ status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Token expired' } }));
      f.transport().state('disconnected');
      await vi.advanceTimersByTimeAsync(5_000);
      await f.settled();
      expect(f.session.state().phase).toMatchObject({ name: 'sessionExpired', reason: 'Your session has ended — sign in again.' });
      expect(f.sync.state().state).toBe('idle');
      expect(f.port.ended).toEqual(['expired']);
      expect(f.session.token()).toBeNull();
      await vi.advanceTimersByTimeAsync(120_000);
      expect(f.transports).toHaveLength(1);
    });
  });

  describe('sign-out and switches during a connect', () => {
    it('signing out while the attempt is connecting drops it: nothing of it lands afterwards', async () => {
      const f = createFixture();
      let release!: () => void;
      f.connectOutcomes.push(() => new Promise<void>((resolve) => { release = resolve; }));
      await f.sync.signIn('ada@example.com', 'password1');
      await vi.waitFor(() => expect(release).toBeDefined());
      f.session.signOut();
      release();
      await vi.advanceTimersByTimeAsync(0);
      expect(f.session.state().phase.name).toBe('signedOut');
      expect(f.batches).toEqual([]);
      expect(f.scheduler.size()).toBe(0);
    });

    it('a location chosen while connecting is the one loaded once connected', async () => {
      const f = createFixture();
      await connected(f, { location: true });
      let release!: () => void;
      f.connectOutcomes.push(() => new Promise<void>((resolve) => { release = resolve; }));
      f.transport().state('disconnected');
      await vi.advanceTimersByTimeAsync(5_000);
      await vi.waitFor(() => expect(release).toBeDefined());
      const chosen = f.session.selectLocation('11');
      release();
      await expect(chosen).resolves.toEqual({ ok: true, value: undefined });
      expect(f.sync.subscriptionState(LOC11)).toBe('loaded');
      expect(f.sync.subscriptionState(LOC)).toBe('inactive');
    });
  });

  describe('signOut', () => {
    it('closes the transport, stops every scope and cancels reconnects and time sync', async () => {
      const f = createFixture();
      await connected(f, { location: true });
      f.session.signOut();
      expect(f.transport().disconnected).toBe(true);
      expect(f.sync.state()).toMatchObject({ state: 'idle', phase: 'signedOut', nextRetryAt: null, transport: null });
      for (const scope of [USER, ORG, LOC]) expect(f.sync.subscriptionState(scope)).toBe('inactive');
      expect(f.scheduler.size()).toBe(0);
      expect(f.port.ended).toEqual(['signOut']);
      expect(f.session.token()).toBeNull();
    });
  });
});
