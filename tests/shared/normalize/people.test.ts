import { describe, expect, it } from 'vitest';
import {
  hasSignInUser, manualLocationSensorId, normalizeExternalObjects, normalizeNotification, normalizeSettings,
  normalizeUser, normalizeUsers, userAssetId,
} from '../../../src/shared/normalize/people.js';
import { WARN } from '../../../src/shared/normalize/warnings.js';
import { DEFAULT_AVATAR_URL } from '../../../src/shared/constants.js';
import { recordingContext } from '../helpers.js';

describe('normalizeUser', () => {
  it('reads the fields of spec §3 and names the derived asset and sensor', () => {
    const { ctx } = recordingContext();
    const u = normalizeUser({
      id: 42, uuid: 'u42', organization_id: 1, first_name: 'Ada', last_name: 'L', email: 'a@x', visible: false,
      location_tag_id: 3, location: { location_id: 7, floor_id: 11, time: 1000, x: 1, y: 2 },
      avatar_timestamp: 5, avatar_url: '/img/a.png', speech_bubble: 'hi', decoration: 'crown', external_objects: [8],
    }, ctx)!;
    expect(u).toEqual({
      id: '42', uuid: 'u42', organization_id: '1', first_name: 'Ada', last_name: 'L', email: 'a@x', visible: false,
      location_tag_id: '3', location: { location_id: '7', floor_id: '11', time: 1000, x: 1, y: 2 },
      avatar_timestamp: 5, avatar_url: '/img/a.png', speech_bubble: 'hi', decoration: { name: 'crown' },
      external_objects: ['8'], local_user_asset: userAssetId('42'), manual_location_sensor: manualLocationSensorId('42'),
    });
  });

  it('defaults the avatar to a local image and visible to true', () => {
    const { ctx } = recordingContext();
    const u = normalizeUser({ id: 'x' }, ctx)!;
    expect(u.avatar_url).toBe(DEFAULT_AVATAR_URL);
    expect(u.avatar_url.startsWith('/')).toBe(true);
    expect(u.visible).toBe(true);
    expect(u.location).toBeNull();
    expect(u.decoration).toBeNull();
  });

  it('warns on duplicate user ids', () => {
    const { ctx, messages } = recordingContext();
    normalizeUsers([{ id: 1 }, { id: 1 }], ctx);
    expect(messages()).toEqual([WARN.duplicateId('user', '1')]);
  });
});

describe('normalizeExternalObjects', () => {
  it('reads id, name, type and data, and warns on duplicate ids', () => {
    const { ctx, messages } = recordingContext();
    const list = normalizeExternalObjects([{ id: 1, name: 'Ada', type: 'user', data: { a: 1 } }, { id: 1, type: 'user' }], ctx);
    expect(list).toEqual([{ id: '1', name: '', type: 'user', data: {} }]);
    expect(messages()).toEqual([WARN.duplicateId('external object', '1')]);
  });
});

describe('normalizeSettings', () => {
  it('reads the user, permissions, cdn_base_url and the pusher config', () => {
    const { ctx } = recordingContext();
    const s = normalizeSettings({
      user: { id: '1' }, permissions: ['ASSET_UPDATE', 3], cdn_base_url: 'https://cdn',
      pusher_config: { app_key: 'k', cluster: 'eu', ws_host: '127.0.0.1', ws_port: 6001 },
    }, ctx)!;
    expect(s.user.id).toBe('1');
    expect(s.permissions).toEqual(['ASSET_UPDATE']);
    expect(s.cdn_base_url).toBe('https://cdn');
    expect(s.pusher_config).toEqual({ app_key: 'k', cluster: 'eu', ws_host: '127.0.0.1', ws_port: 6001 });
    expect(s.mqtt_config).toBeUndefined();
  });

  it('reads the mqtt config', () => {
    const { ctx } = recordingContext();
    const s = normalizeSettings({ user: { id: '1' }, permissions: [], mqtt_config: { url: 'ws://h', mqtt_url: 'mqtt://h', username: 'u', password: 'p', port: 1 } }, ctx)!;
    expect(s.mqtt_config).toEqual({ url: 'ws://h', mqtt_url: 'mqtt://h', username: 'u', password: 'p' });
  });

  it('refuses user data without a non-empty string id', () => {
    const { ctx, messages } = recordingContext();
    expect(normalizeSettings({ user: { id: 5 }, permissions: [] }, ctx)).toBeNull();
    expect(normalizeSettings({ user: { id: '' }, permissions: [] }, ctx)).toBeNull();
    expect(normalizeSettings({ permissions: [] }, ctx)).toBeNull();
    expect(messages()).toEqual([WARN.settingsWithoutUser, WARN.settingsWithoutUser, WARN.settingsWithoutUser]);
    expect(hasSignInUser({ user: { id: 'a' } })).toBe(true);
  });

  it('warns and uses an empty list when permissions are missing', () => {
    const { ctx, messages } = recordingContext();
    expect(normalizeSettings({ user: { id: 'a' } }, ctx)!.permissions).toEqual([]);
    expect(messages()).toEqual([WARN.settingsWithoutPermissions]);
  });
});

describe('normalizeNotification', () => {
  it('keeps unknown fields and reads the ones we rely on', () => {
    const { ctx } = recordingContext();
    expect(normalizeNotification({ id: 1, user_id: 2, title: 'T', body: 'B', created: '2024-01-01T00:00:00Z', read: true, extra: 'x' }, ctx)).toEqual({
      id: '1', user_id: '2', title: 'T', body: 'B', created: Date.UTC(2024, 0, 1), read: true, extra: 'x',
    });
  });
});
