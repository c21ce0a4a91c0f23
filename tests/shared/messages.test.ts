import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/shared/messages.js';
import * as C from '../../src/shared/constants.js';

describe('messages', () => {
  it('carries every message of spec §5 and §8 verbatim', () => {
    expect(MSG).toEqual({
      ONLY_ONE_CONNECTION_ATTEMPT: 'Only one connection attempt can be ongoing!',
      CURRENT_USER_NOT_SET: 'Current user is not set',
      NO_PERMISSIONS: 'No permissions',
      NO_ROLE: 'No role',
      COULD_NOT_SYNC_TIME: 'Could not sync time with server.',
      PROBLEM_CONNECTING: 'Problem connecting to server.',
      FAILED_RECONNECT_ATTEMPT: 'Failed reconnect attempt.',
      FAILED_TRYING_TO_LOAD: 'Failed trying to load.',
      UNINITIALIZED_STREAM: 'UNINITIALIZED STREAM RECEIVING DATA!',
      RECONNECTING_STREAM_INVALID: 'Reconnecting due to stream invalidity.',
      NO_SOURCE_SUBSCRIPTION: 'Object has no source subscription!',
      NO_RESERVATIONS: 'No reservations',
      NEXT_PREFIX: 'Next:',
      ZONE_GENERIC_LABEL: 'Unknown zone',
      ZONE_CHILLING_LABEL: 'Chilling out',
    });
  });
});

describe('constants', () => {
  it('holds the business constants of spec §9 verbatim', () => {
    expect(C.CORE_VERSION).toBe('0.27.0');
    expect([C.HOUR_START, C.HOUR_END, C.CLEAN_DESK_POLICY]).toEqual([7, 18, 120]);
    expect(C.MANUAL_LOCATION_TIMEOUT_MS).toBe(432e5);
    expect([C.POPUP_DEFAULT_WIDTH, C.POPUP_DEFAULT_HEIGHT]).toEqual([300, 250]);
    expect(C.FLOOR_DEFAULT_HEIGHT).toBe(2.8);
    expect(C.ASSET_DEFAULT_SIZE).toBe(1.5);
    expect(C.FADE_OUT_MIN_ALPHA).toBe(0.2);
    expect(C.MAX_RECHECK_DELAY_MS).toBe(6048e5);
    expect(C.CLEAN_DESK_THRESHOLDS).toEqual([0, 0.08, 0.081, 0.999, 1]);
    expect(C.TIME_SYNC_INTERVAL_MS).toBe(30000);
    expect([C.RECONNECT_STEP_MS, C.RECONNECT_MAX_DELAY_MS]).toEqual([5000, 60000]);
    expect([C.MQTT_KEEPALIVE_S, C.MQTT_PROTOCOL_VERSION, C.MQTT_RECONNECT_PERIOD_MS, C.MQTT_CONNECT_TIMEOUT_MS]).toEqual([30, 5, 2000, 15000]);
    expect(C.MEASUREMENT_PAGE_LIMIT).toBe(20000);
    expect(C.DEFAULT_BUILDING_OFFSET).toBe(80);
    expect(C.MEETING_RECENT_READING_MS).toBe(80000);
    expect(C.RESERVATION_REFRESH_CAP_MS).toBe(6048e5);
    expect(C.FLOOR_LINK_CROSS_BUILDING_COST).toBe(1000);
    expect([C.QS_DEPTH, C.QS_ARRAY_LIMIT, C.QS_PARAMETER_LIMIT]).toEqual([5, 20, 1000]);
    expect(C.REALTIME_TIMELINE_INTERVAL_MS).toBe(60000);
    expect(C.EARTH_RADIUS_M).toBe(6371000);
  });

  it('lists the roles with their permissions of spec §6', () => {
    expect(C.ROLE_PERMISSIONS).toEqual({
      admin: 'FOREIGN_ORGANIZATION_ACCESS',
      edit: 'ASSET_UPDATE',
      service: 'ASSET_UPDATE_SERVICE_TICKET',
      regular: 'USER_UPDATE_SELF',
    });
  });
});
