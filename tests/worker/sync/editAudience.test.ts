import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS } from '../../../src/shared/constants.js';
import { MSG } from '../../../src/shared/messages.js';
import { STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER, type StreamScope } from '../../../src/shared/protocol.js';
import { streamAudienceOf } from '../../../src/worker/sync/scopeLoaders.js';
import { connected, createFixture, LOC, ORG } from './fakes.js';

const EDIT_LOC = { ...LOC, audience: 'edit' } as const satisfies StreamScope;
const EDIT_ORG = { ...ORG, audience: 'edit' } as const satisfies StreamScope;

type Fixture = ReturnType<typeof createFixture>;

/** the organization's loads report the stream of `scope`, as the server does per role */
function answerOrganization(f: Fixture, scope: StreamScope) {
  const headers = () => ({ [STREAM_ID_HEADER]: f.stream(scope).id, [STREAM_SEQUENCE_HEADER]: String(f.stream(scope).seq) });
  f.api.on('GET', '/v1/organizations/1', () => ({ body: { id: '1', locations: ['10', '11'] }, headers: headers() }));
  f.api.on('GET', '/v1/organizations/1/locations', () => ({ body: [{ id: '10' }, { id: '11' }], headers: headers() }));
  f.api.on('GET', '/v1/organizations/1/users', () => ({ body: [{ id: '7' }], headers: headers() }));
  f.api.on('GET', '/v1/external_objects', () => ({ body: [], headers: headers() }));
}

/** a fixture whose organization and location loads report the streams of the role, as the server does */
function fixtureAnswering(scope: StreamScope, permissions: string[]) {
  const f = createFixture();
  f.settings.permissions = permissions;
  const headers = () => ({ [STREAM_ID_HEADER]: f.stream(scope).id, [STREAM_SEQUENCE_HEADER]: String(f.stream(scope).seq) });
  f.api.on('GET', '/v1/organizations/1/locations/10/assets', () => ({ body: f.data.assets, headers: headers() }));
  f.api.on('GET', '/v1/organizations/1/locations/10/sensors', () => ({ body: f.data.sensors, headers: headers() }));
  answerOrganization(f, scope.kind === 'location' && scope.audience ? EDIT_ORG : ORG);
  return f;
}

describe('createSync', () => {
  beforeEach(() => { vi.useFakeTimers(); vi.setSystemTime(1_000_000); });
  afterEach(() => { vi.useRealTimers(); });

  describe('location audience', () => {
    it('subscribes an edit-role user to the edit stream of the location instead of the public one', async () => {
      const f = fixtureAnswering(EDIT_LOC, [ROLE_PERMISSIONS.edit, ROLE_PERMISSIONS.regular]);
      await connected(f, { location: true });
      expect(f.transport().subscribed).toContain('location:1:10:edit');
      expect(f.transport().subscribed).not.toContain('location:1:10');
      expect(f.sync.locationScope()).toEqual(EDIT_LOC);
      expect(f.sync.subscriptionState(EDIT_LOC)).toBe('loaded');
      // asked without an audience, the location means the stream in use
      expect(f.sync.subscriptionState(LOC)).toBe('loaded');
    });

    it('applies unpublished assets from the edit stream and reports its position', async () => {
      const f = fixtureAnswering(EDIT_LOC, [ROLE_PERMISSIONS.edit]);
      await connected(f, { location: true });
      f.batches.length = 0;
      const change = { collection: 'assets' as const, kind: 'modified' as const, id: 'a1', data: { id: 'a1', unpublished: true } };
      f.transport().emit(EDIT_LOC, f.publish(EDIT_LOC, [change]));
      expect(f.batches).toEqual([{ scope: EDIT_LOC, changes: [change] }]);
      expect(f.sync.position(LOC)).toEqual({ stream_id: f.stream(EDIT_LOC).id, stream_sequence: 1 });
    });

    it('keeps a user without the edit role on the public location stream', async () => {
      const f = fixtureAnswering(LOC, [ROLE_PERMISSIONS.regular]);
      await connected(f, { location: true });
      expect(f.transport().subscribed).toContain('location:1:10');
      expect(f.transport().subscribed).not.toContain('location:1:10:edit');
      expect(f.sync.locationScope()).toEqual(LOC);
    });

    it('moves the location to the public stream when a reconnect finds the edit role gone', async () => {
      const f = fixtureAnswering(EDIT_LOC, [ROLE_PERMISSIONS.edit]);
      await connected(f, { location: true });
      f.settings.permissions = [ROLE_PERMISSIONS.regular];
      const headers = () => ({ [STREAM_ID_HEADER]: f.stream(LOC).id, [STREAM_SEQUENCE_HEADER]: String(f.stream(LOC).seq) });
      f.api.on('GET', '/v1/organizations/1/locations/10/assets', () => ({ body: f.data.assets, headers: headers() }));
      f.api.on('GET', '/v1/organizations/1/locations/10/sensors', () => ({ body: f.data.sensors, headers: headers() }));
      answerOrganization(f, ORG);
      f.sync.setOnline(true);
      await vi.waitFor(() => expect(f.sync.subscriptionState(LOC)).toBe('loaded'));
      expect(f.sync.locationScope()).toEqual(LOC);
      expect(f.transport().subscribed).toEqual(expect.arrayContaining(['location:1:10']));
      expect(f.transport().subscribed).not.toContain('location:1:10:edit');
      expect(f.sync.subscriptionState(EDIT_LOC)).toBe('inactive');
      expect(f.transport().subscribed).toContain('organization:1');
      expect(f.sync.subscriptionState(ORG)).toBe('loaded');
      expect(f.sync.subscriptionState(EDIT_ORG)).toBe('inactive');
    });
  });

  describe('organization audience', () => {
    it('subscribes an edit-role user to the edit stream of the organization and replays it like the others', async () => {
      const f = fixtureAnswering(EDIT_LOC, [ROLE_PERMISSIONS.edit]);
      await connected(f, { location: true });
      expect(f.transport().subscribed).toContain('organization:1:edit');
      expect(f.transport().subscribed).not.toContain('organization:1');
      expect(f.sync.subscriptionState(ORG)).toBe('loaded');
      f.batches.length = 0;
      const moved = { collection: 'users' as const, kind: 'modified' as const, id: '7', data: { id: '7', location: { location_id: '10', floor_id: 'hidden', time: 1 } } };
      f.transport().emit(EDIT_ORG, f.publish(EDIT_ORG, [moved]));
      expect(f.batches).toEqual([{ scope: EDIT_ORG, changes: [moved] }]);
      expect(f.sync.position(ORG)).toEqual({ stream_id: f.stream(EDIT_ORG).id, stream_sequence: 1 });
      // a packet that skips a sequence on the edit stream is a gap like on any other
      f.stream(EDIT_ORG).seq += 1;
      f.transport().emit(EDIT_ORG, f.publish(EDIT_ORG, [moved]));
      expect(f.messages('warn')).toContain(MSG.RECONNECTING_STREAM_INVALID);
    });

    it('keeps a user without the edit role on the shared organization stream', async () => {
      const f = fixtureAnswering(LOC, [ROLE_PERMISSIONS.regular]);
      await connected(f, { location: true });
      expect(f.transport().subscribed).toContain('organization:1');
      expect(f.transport().subscribed).not.toContain('organization:1:edit');
    });
  });

  describe('streamAudienceOf', () => {
    it('chooses edit for the edit role and the shared streams otherwise, also without a permission list', () => {
      expect(streamAudienceOf({ permissions: [ROLE_PERMISSIONS.edit] })).toBe('edit');
      expect(streamAudienceOf({ permissions: [ROLE_PERMISSIONS.admin, ROLE_PERMISSIONS.regular] })).toBeNull();
      expect(streamAudienceOf({})).toBeNull();
      expect(streamAudienceOf(null)).toBeNull();
    });
  });
});
