import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS } from '../../../src/shared/constants.js';
import { STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER, type StreamScope } from '../../../src/shared/protocol.js';
import { locationAudienceOf } from '../../../src/worker/sync/scopeLoaders.js';
import { connected, createFixture, LOC } from './fakes.js';

const EDIT_LOC = { ...LOC, audience: 'edit' } as const satisfies StreamScope;

/** a fixture whose location loads report the stream of `scope`, as the server does per role */
function fixtureAnswering(scope: StreamScope, permissions: string[]) {
  const f = createFixture();
  f.settings.permissions = permissions;
  const headers = () => ({ [STREAM_ID_HEADER]: f.stream(scope).id, [STREAM_SEQUENCE_HEADER]: String(f.stream(scope).seq) });
  f.api.on('GET', '/v1/organizations/1/locations/10/assets', () => ({ body: f.data.assets, headers: headers() }));
  f.api.on('GET', '/v1/organizations/1/locations/10/sensors', () => ({ body: f.data.sensors, headers: headers() }));
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
      f.sync.setOnline(true);
      await vi.waitFor(() => expect(f.sync.subscriptionState(LOC)).toBe('loaded'));
      expect(f.sync.locationScope()).toEqual(LOC);
      expect(f.transport().subscribed).toEqual(expect.arrayContaining(['location:1:10']));
      expect(f.transport().subscribed).not.toContain('location:1:10:edit');
      expect(f.sync.subscriptionState(EDIT_LOC)).toBe('inactive');
    });
  });

  describe('locationAudienceOf', () => {
    it('chooses edit for the edit role and the public stream otherwise, also without a permission list', () => {
      expect(locationAudienceOf({ permissions: [ROLE_PERMISSIONS.edit] })).toBe('edit');
      expect(locationAudienceOf({ permissions: [ROLE_PERMISSIONS.admin, ROLE_PERMISSIONS.regular] })).toBeNull();
      expect(locationAudienceOf({})).toBeNull();
      expect(locationAudienceOf(null)).toBeNull();
    });
  });
});
