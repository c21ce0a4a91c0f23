import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../../src/shared/messages.js';
import { connected, createFixture, encode, LOC, LOC11, ORG } from './fakes.js';

const asset = (id: string, name: string) => ({ collection: 'assets' as const, kind: 'modified' as const, id, data: { id, name } });

describe('createSync', () => {
  beforeEach(() => { vi.useFakeTimers(); vi.setSystemTime(1_000_000); });
  afterEach(() => { vi.useRealTimers(); });

  describe('live packets', () => {
    it('delivers the initial load as kind initial, then created, modified and deleted changes in order', async () => {
      const f = createFixture();
      await connected(f, { location: true });
      const initial = f.batches.find((b) => b.scope.kind === 'location')!;
      expect(initial.changes).toEqual([
        { collection: 'assets', kind: 'initial', items: [{ id: 'a1', name: 'Desk 1' }] },
        { collection: 'sensors', kind: 'initial', items: [{ id: 's1', type: 'occupancy' }] },
      ]);
      f.batches.length = 0;
      f.transport().emit(LOC, f.publish(LOC, [{ collection: 'assets', kind: 'created', id: 'a2', data: { id: 'a2' } }]));
      f.transport().emit(LOC, f.publish(LOC, [asset('a2', 'Desk 2')]));
      f.transport().emit(LOC, f.publish(LOC, [{ collection: 'assets', kind: 'deleted', id: 'a1' }]));
      expect(f.batches.map((b) => b.changes.map((c) => `${c.kind}:${c.id}`))).toEqual([['created:a2'], ['modified:a2'], ['deleted:a1']]);
    });

    it('caches packets that arrive before the base load and replays them in order afterwards', async () => {
      const f = createFixture();
      await connected(f, { org: true });
      let release!: () => void;
      const gate = new Promise<void>((r) => { release = r; });
      f.api.on('GET', '/v1/organizations/1/locations/11/sensors', async () => {
        await gate;
        return { body: f.data.sensors, headers: { 'x-stream-id': f.stream(LOC11).id, 'x-stream-sequence': '0' } };
      });
      f.batches.length = 0;
      const loading = f.sync.loadLocation('11');
      // subscribed, and both initial loads asked (the sensors one held back)
      await vi.waitFor(() => expect(f.api.calls.some((c) => c.path.endsWith('/locations/11/sensors'))).toBe(true));
      expect(f.transport().subscribed).toContain('location:1:11');
      expect(f.sync.subscriptionState(LOC11)).toBe('active');
      f.transport().emit(LOC11, f.publish(LOC11, [asset('a1', 'first')]));
      f.transport().emit(LOC11, f.publish(LOC11, [asset('a1', 'second')]));
      expect(f.batches).toEqual([]);
      release();
      await loading;
      expect(f.sync.subscriptionState(LOC11)).toBe('loaded');
      expect(f.batches.map((b) => b.changes.map((c) => c.kind === 'initial' ? `initial:${c.collection}` : (c.data as { name: string }).name)))
        .toEqual([['initial:assets', 'initial:sensors'], ['first'], ['second']]);
    });

    it('drops packets the initial load already contains, per collection', async () => {
      const f = createFixture();
      await connected(f, { org: true });
      // packet 1 is published before both loads, packet 2 between the assets and the sensors load
      const p1 = f.publish(LOC11, [asset('a1', 'contained in both')]);
      let release!: () => void;
      const gate = new Promise<void>((r) => { release = r; });
      const assetsSeq = String(f.stream(LOC11).seq);
      f.api.on('GET', '/v1/organizations/1/locations/11/assets', () => ({ body: f.data.assets, headers: { 'x-stream-id': f.stream(LOC11).id, 'x-stream-sequence': assetsSeq } }));
      f.api.on('GET', '/v1/organizations/1/locations/11/sensors', async () => {
        await gate;
        return { body: f.data.sensors, headers: { 'x-stream-id': f.stream(LOC11).id, 'x-stream-sequence': '2' } };
      });
      const loading = f.sync.loadLocation('11');
      await vi.waitFor(() => expect(f.transport().subscribed).toContain('location:1:11'));
      const p2 = f.publish(LOC11, [asset('a1', 'new for assets'), { collection: 'measurements', kind: 'created', id: 's1', data: { sensor_id: 's1' } }]);
      const p3 = f.publish(LOC11, [asset('a1', 'new for both'), { collection: 'heartbeats', kind: 'created', id: 's1', data: { sensor_id: 's1', time: 1 } }]);
      f.transport().emit(LOC11, p1);
      f.transport().emit(LOC11, p2);
      f.transport().emit(LOC11, p3);
      release();
      await loading;
      const live = f.batches.filter((b) => b.scope.kind === 'location' && b.scope.locationId === '11' && b.changes[0]!.kind !== 'initial');
      expect(live.map((b) => b.changes.map((c) => `${c.collection}:${c.kind}`))).toEqual([
        ['assets:modified'],
        ['assets:modified', 'heartbeats:created'],
      ]);
      // a late copy of a contained packet is dropped silently
      f.transport().emit(LOC11, p1);
      expect(f.messages('warn')).not.toContain(MSG.RECONNECTING_STREAM_INVALID);
    });

    it("logs 'Reconnecting due to stream invalidity.' on a gap and reconnects, which reloads", async () => {
      const f = createFixture();
      await connected(f, { location: true });
      f.publish(LOC, [asset('a1', 'lost')]);
      f.transport().emit(LOC, f.publish(LOC, [asset('a1', 'after gap')]));
      expect(f.messages('warn')).toContain('Reconnecting due to stream invalidity.');
      expect(f.messages('warn')).toContain(MSG.RECONNECTING_STREAM_INVALID);
      await vi.advanceTimersByTimeAsync(0);
      expect(f.transports).toHaveLength(2);
      expect(f.batches.some((b) => (b.changes[0]!.data as { name?: string } | undefined)?.name === 'after gap')).toBe(false);
      expect(f.sync.subscriptionState(LOC)).toBe('loaded');
      const reload = f.batches.filter((b) => b.scope.kind === 'location').at(-1)!;
      expect(reload.changes.map((c) => `${c.kind}:${c.collection}`)).toEqual(['initial:assets', 'initial:sensors']);
    });

    it('treats an out-of-order packet as invalid', async () => {
      const f = createFixture();
      await connected(f, { location: true });
      const p1 = f.publish(LOC, [asset('a1', 'one')]);
      const p2 = f.publish(LOC, [asset('a1', 'two')]);
      const p3 = f.publish(LOC, [asset('a1', 'three')]);
      f.transport().emit(LOC, p1);
      f.transport().emit(LOC, p3);
      f.transport().emit(LOC, p2);
      expect(f.messages('warn').filter((m) => m === MSG.RECONNECTING_STREAM_INVALID)).toHaveLength(1);
    });

    it("logs 'UNINITIALIZED STREAM RECEIVING DATA!' for a packet of another stream and reconnects", async () => {
      const f = createFixture();
      await connected(f, { location: true });
      f.transport().emit(LOC, encode({ stream_id: 'restarted', stream_sequence: 1, changes: [asset('a1', 'x')] }));
      expect(f.messages('warn')).toContain('UNINITIALIZED STREAM RECEIVING DATA!');
      expect(f.messages('warn')).toContain(MSG.UNINITIALIZED_STREAM);
      await vi.advanceTimersByTimeAsync(0);
      expect(f.transports).toHaveLength(2);
      expect(f.sync.state().state).toBe('connected');
    });

    it('backs off instead of looping when a stream is invalid again right after the reload', async () => {
      const f = createFixture();
      await connected(f, { location: true });
      f.transport().emit(LOC, encode({ stream_id: 'other', stream_sequence: 1, changes: [] }));
      await vi.advanceTimersByTimeAsync(0);
      f.transport().emit(LOC, encode({ stream_id: 'other', stream_sequence: 2, changes: [] }));
      expect(f.sync.state()).toMatchObject({ state: 'unavailable', nextRetryAt: Date.now() + 5_000 });
      expect(f.transports).toHaveLength(2);
    });

    it("logs 'Object has no source subscription!' for a change whose collection the scope does not load", async () => {
      const f = createFixture();
      await connected(f, { location: true });
      f.batches.length = 0;
      f.transport().emit(LOC, f.publish(LOC, [{ collection: 'users', kind: 'modified', id: '7', data: {} }, asset('a1', 'kept')]));
      expect(f.messages('warn')).toContain('Object has no source subscription!');
      expect(f.messages('warn')).toContain(MSG.NO_SOURCE_SUBSCRIPTION);
      expect(f.batches.map((b) => b.changes.map((c) => c.collection))).toEqual([['assets']]);
    });

    it('drops an undecodable payload with a warning and keeps going', async () => {
      const f = createFixture();
      await connected(f, { location: true });
      f.batches.length = 0;
      f.transport().emit(LOC, 'not base64 at all ***');
      f.transport().emit(LOC, Buffer.from('plain text').toString('base64'));
      f.transport().emit(LOC, encode({ hello: 'world' }));
      f.transport().emit(LOC, f.publish(LOC, [asset('a1', 'fine')]));
      expect(f.messages('warn').filter((m) => m.startsWith('Dropped live payload: cannot decode'))).toHaveLength(2);
      expect(f.messages('warn')).toContain('Dropping live packet: no stream_id');
      expect(f.batches).toHaveLength(1);
      expect(f.transports).toHaveLength(1);
    });
  });

  describe('loadOrganization', () => {
    it("stops the previous organization's and location's subscriptions first", async () => {
      const f = createFixture();
      f.api.on('GET', '/v1/organizations/2', () => ({ body: { id: '2', locations: [] }, headers: { 'x-stream-id': 'o2', 'x-stream-sequence': '0' } }));
      f.api.on('GET', '/v1/organizations/2/locations', () => ({ body: [], headers: { 'x-stream-id': 'o2', 'x-stream-sequence': '0' } }));
      f.api.on('GET', '/v1/organizations/2/users', () => ({ body: [], headers: { 'x-stream-id': 'o2', 'x-stream-sequence': '0' } }));
      await connected(f, { location: true });
      f.api.on('GET', '/v1/external_objects', (req) => {
        expect(req.query.get('organization_id')).toBe('2');
        return { body: [], headers: { 'x-stream-id': 'o2', 'x-stream-sequence': '0' } };
      });
      await f.sync.loadOrganization('2');
      expect(f.transport().unsubscribed).toEqual(['location:1:10', 'organization:1']);
      expect(f.sync.subscriptionState(ORG)).toBe('inactive');
      expect(f.sync.subscriptionState(LOC)).toBe('inactive');
      expect(f.sync.locationId()).toBeNull();
      expect(f.sync.subscriptionState({ kind: 'organization', organizationId: '2' })).toBe('loaded');
      f.transport().emit(LOC, f.publish(LOC, [asset('a1', 'late')]));
      expect(f.messages('warn')).toContain('Ignoring data for an inactive subscription');
      expect(f.batches.some((b) => b.scope.kind === 'location' && b.changes[0]!.kind === 'modified')).toBe(false);
    });

    it("posts 'Failed trying to load.' and rejects when a load fails for a network reason", async () => {
      const f = createFixture();
      await connected(f);
      f.api.on('GET', '/v1/organizations/1/users', () => { throw new TypeError('fetch failed'); });
      await expect(f.sync.loadOrganization('1')).resolves.toMatchObject({ ok: false, message: MSG.FAILED_TRYING_TO_LOAD });
      expect(f.errors.map((e) => e.message)).toEqual([MSG.FAILED_TRYING_TO_LOAD]);
      expect(f.sync.state().nextRetryAt).toBe(Date.now() + 5_000);
    });

    it('answers a chosen organization the server refuses (4xx) with the failure, without posting or reconnecting', async () => {
      const f = createFixture();
      await connected(f);
      await expect(f.sync.loadOrganization('99')).resolves.toMatchObject({ ok: false, status: 404 });
      expect(f.errors).toEqual([]);
      expect(f.sync.organizationId()).toBeNull();
      expect(f.sync.state().state).toBe('connected');
    });
  });

  describe('loadLocation', () => {
    it('logs and does nothing for a location outside the loaded organization', async () => {
      const f = createFixture();
      await connected(f, { org: true });
      await expect(f.sync.loadLocation('99')).resolves.toBe(false);
      expect(f.messages('warn')).toContain('Location 99 is not a location of the loaded organization; not loading it.');
      expect(f.transport().subscribed).not.toContain('location:1:99');
      expect(f.api.calls.some((c) => c.path.includes('/locations/99'))).toBe(false);
    });

    it('logs and does nothing when no organization is loaded', async () => {
      const f = createFixture();
      await connected(f);
      await expect(f.sync.loadLocation('10')).resolves.toBe(false);
      expect(f.transport().subscribed).toEqual(['user:7']);
    });

    it("stops the previous location's subscription", async () => {
      const f = createFixture();
      await connected(f, { location: true });
      await f.sync.loadLocation('11');
      expect(f.transport().unsubscribed).toEqual(['location:1:10']);
      expect(f.sync.subscriptionState(LOC)).toBe('inactive');
      expect(f.sync.subscriptionState(LOC11)).toBe('loaded');
    });

    it('accepts a location created live after the organization loaded', async () => {
      const f = createFixture();
      f.api.on('GET', '/v1/organizations/1/locations/12/assets', () => ({ body: [], headers: { 'x-stream-id': 'l12', 'x-stream-sequence': '0' } }));
      f.api.on('GET', '/v1/organizations/1/locations/12/sensors', () => ({ body: [], headers: { 'x-stream-id': 'l12', 'x-stream-sequence': '0' } }));
      await connected(f, { org: true });
      f.transport().emit(ORG, f.publish(ORG, [{ collection: 'locations', kind: 'created', id: '12', data: { id: '12' } }]));
      await expect(f.sync.loadLocation('12')).resolves.toBe(true);
    });
  });
});
