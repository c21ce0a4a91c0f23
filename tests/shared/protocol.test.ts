import { describe, expect, it } from 'vitest';
import { mqttTopicFilter, pusherChannel, scopeFromPusherChannel, mqttPublishTopic } from '../../src/shared/protocol.js';

describe('protocol', () => {
  describe('mqttTopicFilter', () => {
    it('follows eb/changes/{org}/{location}/# for a location (spec §7)', () => {
      expect(mqttTopicFilter({ kind: 'location', organizationId: '1', locationId: '7' })).toBe('eb/changes/1/7/#');
    });
    it('publishes location packets under the subscribed filter', () => {
      expect(mqttPublishTopic({ kind: 'location', organizationId: '1', locationId: '7' })).toBe('eb/changes/1/7/changes');
    });
  });
  describe('pusherChannel', () => {
    it('round-trips every scope through its channel name', () => {
      for (const scope of [
        { kind: 'location', organizationId: '1', locationId: '7' },
        { kind: 'organization', organizationId: '1' },
        { kind: 'user', userId: '42' },
      ] as const) {
        expect(scopeFromPusherChannel(pusherChannel(scope))).toEqual(scope);
      }
    });
    it('rejects channels that are not ours', () => {
      expect(scopeFromPusherChannel('private-other-1')).toBeNull();
      expect(scopeFromPusherChannel('presence-eb-changes-1')).toBeNull();
    });
  });
});
