import { describe, expect, it } from 'vitest';
import {
  isEditScope, locationStreamScope, mqttTopicFilter, organizationStreamScope, pusherChannel, scopeFromPusherChannel, mqttPublishTopic, scopeKey,
} from '../../src/shared/protocol.js';

const EDIT = { kind: 'location', organizationId: '1', locationId: '7', audience: 'edit' } as const;
const ORG_EDIT = { kind: 'organization', organizationId: '1', audience: 'edit' } as const;

describe('protocol', () => {
  describe('mqttTopicFilter', () => {
    it('follows eb/changes/{org}/{location}/# for a location (spec §7)', () => {
      expect(mqttTopicFilter({ kind: 'location', organizationId: '1', locationId: '7' })).toBe('eb/changes/1/7/#');
    });
    it('publishes location packets under the subscribed filter', () => {
      expect(mqttPublishTopic({ kind: 'location', organizationId: '1', locationId: '7' })).toBe('eb/changes/1/7/changes');
    });
    it('puts the edit audience under _edit below the location, inside the spec pattern', () => {
      expect(mqttTopicFilter(EDIT)).toBe('eb/changes/1/7/_edit/#');
      expect(mqttPublishTopic(EDIT)).toBe('eb/changes/1/7/_edit/changes');
    });
    it('puts the organization and its edit audience where the broker’s _edit deny (eb/changes/{org}/+/_edit/#) covers the latter', () => {
      expect(mqttTopicFilter({ kind: 'organization', organizationId: '1' })).toBe('eb/changes/1/_org/#');
      expect(mqttTopicFilter(ORG_EDIT)).toBe('eb/changes/1/_org/_edit/#');
      expect(mqttPublishTopic(ORG_EDIT)).toBe('eb/changes/1/_org/_edit/changes');
    });
  });
  describe('pusherChannel', () => {
    it('round-trips every scope through its channel name', () => {
      for (const scope of [
        { kind: 'location', organizationId: '1', locationId: '7' },
        EDIT,
        { kind: 'organization', organizationId: '1' },
        ORG_EDIT,
        { kind: 'user', userId: '42' },
      ] as const) {
        expect(scopeFromPusherChannel(pusherChannel(scope))).toEqual(scope);
      }
    });
    it('names the edit audiences private-eb-edit-{org}-{location} and private-eb-edit-{org}', () => {
      expect(pusherChannel(EDIT)).toBe('private-eb-edit-1-7');
      expect(pusherChannel(ORG_EDIT)).toBe('private-eb-edit-1');
    });
    it('rejects channels that are not ours', () => {
      expect(scopeFromPusherChannel('private-other-1')).toBeNull();
      expect(scopeFromPusherChannel('presence-eb-changes-1')).toBeNull();
      expect(scopeFromPusherChannel('private-eb-edit-')).toBeNull();
      expect(scopeFromPusherChannel('private-eb-edit-1-')).toBeNull();
    });
  });
  describe('scopeKey', () => {
    it('keeps the edit stream of a location apart from the public one', () => {
      expect(scopeKey({ kind: 'location', organizationId: '1', locationId: '7' })).toBe('location:1:7');
      expect(scopeKey(EDIT)).toBe('location:1:7:edit');
      expect(scopeKey(ORG_EDIT)).toBe('organization:1:edit');
      expect(scopeKey({ kind: 'organization', organizationId: '1' })).toBe('organization:1');
    });
  });
  describe('locationStreamScope', () => {
    it('builds the public scope without an audience and the edit scope with one', () => {
      expect(locationStreamScope('1', '7')).toEqual({ kind: 'location', organizationId: '1', locationId: '7' });
      expect(locationStreamScope('1', '7', null)).toEqual({ kind: 'location', organizationId: '1', locationId: '7' });
      expect(locationStreamScope('1', '7', 'edit')).toEqual(EDIT);
      expect(isEditScope(EDIT)).toBe(true);
      expect(isEditScope(locationStreamScope('1', '7'))).toBe(false);
      expect(organizationStreamScope('1', 'edit')).toEqual(ORG_EDIT);
      expect(organizationStreamScope('1')).toEqual({ kind: 'organization', organizationId: '1' });
      expect(isEditScope(ORG_EDIT)).toBe(true);
      expect(isEditScope(organizationStreamScope('1', null))).toBe(false);
    });
  });
});
