import { describe, expect, it } from 'vitest';
import {
  BASE_CONFIG, createBaseConfig, defaultTicketLabel, mergeConfig, resolveConfig, zoneKind, zoneLabel, type ConfigNode,
} from '../../src/shared/config.js';
import { MAP_LAYERS } from '../../src/shared/constants.js';
import { MSG } from '../../src/shared/messages.js';

describe('config', () => {
  describe('BASE_CONFIG', () => {
    it('holds the working hours, clean-desk policy and manual location timeout of spec §9', () => {
      expect(BASE_CONFIG.hourStart).toBe(7);
      expect(BASE_CONFIG.hourEnd).toBe(18);
      expect(BASE_CONFIG.cleanDeskPolicy).toBe(120);
      expect(BASE_CONFIG.manualLocationTimeout).toBe(432e5);
      expect(BASE_CONFIG.manualLocationTimeout).toBe(12 * 3600 * 1000);
    });

    it('holds the size defaults and the fade and re-check limits', () => {
      expect(BASE_CONFIG.popup).toEqual({ width: 300, height: 250 });
      expect(BASE_CONFIG.floorHeight).toBe(2.8);
      expect(BASE_CONFIG.assetSize).toEqual({ width: 1.5, height: 1.5, depth: 1.5 });
      expect(BASE_CONFIG.fadeOutMinAlpha).toBe(0.2);
      expect(BASE_CONFIG.maxRecheckDelay).toBe(6048e5);
    });

    it('has the four ticket labels, each with empty emailRecipients', () => {
      expect(BASE_CONFIG.ticketLabels).toEqual({
        it: { emailRecipients: [] },
        cleaning: { emailRecipients: [] },
        maintenance: { emailRecipients: [] },
        facility: { emailRecipients: [] },
      });
    });

    it('has the five voice labels in order', () => {
      expect(BASE_CONFIG.voiceLabels).toEqual(['space', 'tech', 'culture', 'work', 'other']);
    });

    it('defaults every flag of spec §9 to false', () => {
      for (const flag of [
        'ticketsVoicesRequireModeration', 'ticketsRequireCategory', 'ticketsAskForEmail', 'wayfindingEnabled',
        'assetBookingFeature', 'allDayBookingButton', 'useTaitoriEmbedURLv2',
      ] as const) {
        expect(BASE_CONFIG[flag], flag).toBe(false);
      }
      expect(BASE_CONFIG.booking).toEqual({ showUserBookings: false, forceShowUserBookings: false });
    });

    it('lists every map layer of spec §2 with floorplan, info, desk_usage, room_reservation and co-workers on', () => {
      expect(Object.keys(BASE_CONFIG.layers)).toEqual([...MAP_LAYERS]);
      expect(MAP_LAYERS).toHaveLength(25);
      const on = Object.entries(BASE_CONFIG.layers).filter(([, v]) => v).map(([k]) => k);
      expect(on.sort()).toEqual(['co-workers', 'desk_usage', 'floorplan', 'info', 'room_reservation']);
    });

    it("labels the generic zone 'Unknown zone' and chilling 'Chilling out'", () => {
      expect(Object.keys(BASE_CONFIG.zoneKinds)).toEqual(['generic', 'communication', 'collaboration', 'concentration', 'chilling']);
      expect(BASE_CONFIG.zoneKinds.generic!.label).toBe('Unknown zone');
      expect(BASE_CONFIG.zoneKinds.chilling!.label).toBe('Chilling out');
      expect(BASE_CONFIG.zoneKinds.generic!.label).toBe(MSG.ZONE_GENERIC_LABEL);
      expect(BASE_CONFIG.zoneKinds.chilling!.label).toBe(MSG.ZONE_CHILLING_LABEL);
    });

    it('sets reportViewingRolesAtLeast to regular for location, desk, room and environment reports', () => {
      expect(BASE_CONFIG.reportViewingRolesAtLeast).toEqual({
        location: 'regular', desk: 'regular', room: 'regular', environment: 'regular',
      });
    });

    it('carries the clean-desk thresholds 0, 0.08, 0.081, 0.999, 1 with a colour each', () => {
      expect(BASE_CONFIG.cleanDesk.thresholds).toEqual([0, 0.08, 0.081, 0.999, 1]);
      expect(BASE_CONFIG.cleanDesk.colors).toHaveLength(5);
    });

    it('has room status colours, a missing colour, a not-applicable colour and theme colours', () => {
      expect(BASE_CONFIG.statusColors.room.length).toBeGreaterThanOrEqual(4);
      expect(BASE_CONFIG.statusColors.missing).toMatch(/^#[0-9a-f]{6}$/);
      expect(BASE_CONFIG.statusColors.notApplicable).toMatch(/^#[0-9a-f]{6}$/);
      expect(Object.keys(BASE_CONFIG.theme).length).toBeGreaterThan(0);
    });

    it('holds the timing and limit constants of spec §9', () => {
      expect(BASE_CONFIG.coreVersion).toBe('0.27.0');
      expect(BASE_CONFIG.timeSyncInterval).toBe(30000);
      expect(BASE_CONFIG.reconnect).toEqual({ step: 5000, max: 60000 });
      expect(BASE_CONFIG.mqtt).toEqual({ keepalive: 30, protocolVersion: 5, reconnectPeriod: 2000, connectTimeout: 15000 });
      expect(BASE_CONFIG.measurementPageLimit).toBe(20000);
      expect(BASE_CONFIG.buildingOffset).toBe(80);
      expect(BASE_CONFIG.meetingRecentReadingWindow).toBe(80000);
      expect(BASE_CONFIG.reservationRefreshCap).toBe(7 * 24 * 3600 * 1000);
      expect(BASE_CONFIG.floorLinkCrossBuildingCost).toBe(1000);
      expect(BASE_CONFIG.query).toEqual({ depth: 5, arrayLimit: 20, parameterLimit: 1000 });
      expect(BASE_CONFIG.realtimeTimelineInterval).toBe(60000);
    });

    it('is frozen, while createBaseConfig hands out a fresh copy', () => {
      expect(Object.isFrozen(BASE_CONFIG.booking)).toBe(true);
      const copy = createBaseConfig();
      copy.booking.showUserBookings = true;
      expect(BASE_CONFIG.booking.showUserBookings).toBe(false);
    });
  });

  describe('mergeConfig', () => {
    it('merges nested objects key by key', () => {
      const merged = mergeConfig(createBaseConfig(), { booking: { showUserBookings: true } });
      expect(merged.booking).toEqual({ showUserBookings: true, forceShowUserBookings: false });
    });

    it('ignores an override of a different kind than the base value', () => {
      const merged = mergeConfig(createBaseConfig(), { hourStart: '8', voiceLabels: 'x', booking: true });
      expect(merged.hourStart).toBe(7);
      expect(merged.voiceLabels).toEqual(['space', 'tech', 'culture', 'work', 'other']);
      expect(merged.booking.showUserBookings).toBe(false);
    });

    it('replaces arrays whole and passes unknown keys through', () => {
      const merged = mergeConfig(createBaseConfig(), { voiceLabels: ['a'], customFlag: 1 });
      expect(merged.voiceLabels).toEqual(['a']);
      expect((merged as unknown as Record<string, unknown>).customFlag).toBe(1);
    });
  });

  describe('resolveConfig', () => {
    const nodes: Record<string, ConfigNode> = {
      desk: { parent_id: 'room', config: { hourStart: 9 } },
      room: { parent_id: 'floor', config: { hourStart: 8, hourEnd: 17 } },
      floor: { parent_id: 'building', config: { wayfindingEnabled: true } },
      building: { config: { cleanDeskPolicy: 60 } },
    };
    const lookup = (id: string) => nodes[id];
    const location = { config: { cleanDeskPolicy: 90, ticketsAskForEmail: true, booking: { showUserBookings: true } } };
    const organization = { config: { ticketsAskForEmail: false, allDayBookingButton: true, hourEnd: 20 } };

    it('walks asset → parent chain → location → organization → base, the nearest winning', () => {
      const c = resolveConfig(nodes.desk, { lookup, location, organization });
      expect(c.hourStart).toBe(9);
      expect(c.hourEnd).toBe(17);
      expect(c.wayfindingEnabled).toBe(true);
      expect(c.cleanDeskPolicy).toBe(60);
      expect(c.ticketsAskForEmail).toBe(true);
      expect(c.allDayBookingButton).toBe(true);
      expect(c.booking).toEqual({ showUserBookings: true, forceShowUserBookings: false });
      expect(c.manualLocationTimeout).toBe(432e5);
    });

    it('gives the base config with no levels', () => {
      expect(resolveConfig(null)).toEqual(createBaseConfig());
    });

    it('stops on a parent cycle instead of looping', () => {
      const cyclic: Record<string, ConfigNode> = {
        a: { parent_id: 'b', config: { hourStart: 1 } },
        b: { parent_id: 'a', config: { hourStart: 2, hourEnd: 3 } },
      };
      const c = resolveConfig(cyclic.a, { lookup: (id) => cyclic[id] });
      expect(c.hourStart).toBe(1);
      expect(c.hourEnd).toBe(3);
    });
  });

  describe('zoneLabel', () => {
    it("reads a zone's subtype as its kind", () => {
      expect(zoneKind('concentration')).toBe('concentration');
      expect(zoneLabel('chilling')).toBe('Chilling out');
      expect(zoneLabel('collaboration')).toBe('Collaboration');
    });

    it("calls zones without a known kind 'Unknown zone'", () => {
      expect(zoneLabel(null)).toBe('Unknown zone');
      expect(zoneLabel('privacy')).toBe('Unknown zone');
      expect(zoneKind('toString')).toBe('generic');
    });
  });
});

describe('defaultTicketLabel', () => {
  it('is the general category of each list, or none when the location requires a choice', () => {
    expect(defaultTicketLabel(BASE_CONFIG, 'ticket')).toBe('facility');
    expect(defaultTicketLabel(BASE_CONFIG, 'voice')).toBe('other');
    expect(defaultTicketLabel({ ...BASE_CONFIG, ticketsRequireCategory: true }, 'ticket')).toBeNull();
    expect(defaultTicketLabel({ ...BASE_CONFIG, voiceLabels: [] }, 'voice')).toBeNull();
  });
});
