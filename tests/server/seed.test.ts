import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../server/clock.js';
import { createPublisher } from '../../server/live/publisher.js';
import { seedDemo } from '../../server/seed/demo.js';
import { createSimulator } from '../../server/simulator.js';
import { createStore } from '../../server/store/store.js';
import { decodePacket } from '../../server/live/packetCodec.js';
import { localDayStart, timezoneOffsetMs } from '../../server/seed/timezone.js';

const NOW = Date.UTC(2025, 2, 12, 10, 0, 0);
const build = (seed: number, extra: Record<string, number> = {}) => {
  const clock = createManualClock(NOW);
  const store = createStore(clock, createPublisher());
  const result = seedDemo(store, { seed, now: NOW, desks: 24, employees: 6, historyDays: 2, ...extra });
  return { clock, store, result };
};
const fingerprint = (store: ReturnType<typeof build>['store']) =>
  JSON.stringify([...store.assets.values()].map((a) => [a.id, a.type, a.subtype, a.name, a.x, a.y, a.parent_id]))
  + JSON.stringify([...store.history.values()].map((rows) => rows.map((r) => [r.time, r.value])));

describe('seedDemo', () => {
  it('builds the same organization for the same seed and a different one for another seed', () => {
    expect(fingerprint(build(5).store)).toBe(fingerprint(build(5).store));
    expect(fingerprint(build(5).store)).not.toBe(fingerprint(build(6).store));
  });
  it('makes two locations in different timezones, each with several buildings of several floors and one hidden floor', () => {
    const { store, result } = build(1);
    const locations = result.locationIds.map((id) => store.locations.get(id)!);
    expect(locations.map((l) => l.timezone)).toEqual(['Europe/Helsinki', 'America/New_York']);
    for (const loc of locations) {
      expect(loc.buildings.length).toBeGreaterThanOrEqual(2);
      const floors = [...store.assets.values()].filter((a) => a.type === 'floor' && a.location_id === loc.id);
      expect(floors.length).toBeGreaterThanOrEqual(6);
      expect(floors.filter((f) => f.hidden)).toHaveLength(1);
      for (const b of loc.buildings) expect(store.assets.get(b)!.floors!.every((f) => store.assets.get(f)!.parent_id === b)).toBe(true);
    }
  });
  it('links portals of consecutive floors both ways', () => {
    const { store } = build(1);
    const portals = [...store.assets.values()].filter((a) => a.type === 'portal');
    expect(portals.length).toBeGreaterThan(0);
    for (const p of portals) for (const target of p.targets) expect(store.assets.get(target)!.targets).toContain(p.id);
  });
  it("joins every building's ground floor to the others' through a passage, so routes can cross buildings", () => {
    const { store, result } = build(1);
    for (const locationId of result.locationIds) {
      const loc = store.locations.get(locationId)!;
      const grounds = loc.buildings.map((b) => store.assets.get(b)!.floors![0]!);
      const passages = [...store.assets.values()].filter((a) => a.type === 'portal' && a.subtype === 'passage' && a.location_id === locationId);
      expect(passages.map((p) => p.parent_id).sort()).toEqual([...grounds].sort());
      for (const p of passages) expect(p.targets.map((t) => store.assets.get(t)!.parent_id).sort()).toEqual(grounds.filter((g) => g !== p.parent_id).sort());
    }
  });
  it('places employees with location tags, some inside the privacy zone', () => {
    const { store } = build(1);
    const employees = [...store.assets.values()].filter((a) => a.type === 'employee');
    expect(employees).toHaveLength(6);
    const privacyZones = new Set([...store.assets.values()].filter((a) => a.subtype === 'privacy').map((a) => a.id));
    const inPrivacy = employees.filter((e) => (store.sensors.get(e.data_providers[0]!)!.last_measurement!.zones ?? []).some((z) => privacyZones.has(z)));
    expect(inPrivacy.length).toBeGreaterThan(0);
    expect([...store.users.values()].filter((u) => u.location_tag_id).length).toBe(6);
  });
  it('reaches 10,000 desks and 20,000 sensors per location', () => {
    const { store, result } = build(1, { desks: 10_000, sensors: 20_000, employees: 2, historyDays: 1 });
    for (const loc of result.locationIds) {
      const desks = [...store.assets.values()].filter((a) => a.location_id === loc && a.subtype === 'desk');
      const sensors = [...store.sensors.values()].filter((s) => s.location_id === loc);
      expect(desks).toHaveLength(10_000);
      expect(sensors.length).toBeGreaterThanOrEqual(20_000);
    }
  }, 60_000);
});

describe('simulator', () => {
  it('runs on the injected clock at the given rate and publishes what it changes', () => {
    const { clock, store } = build(1);
    const packets: number[] = [];
    store.publisher.onPublish((_scope, payloads) => packets.push(...payloads.map((p) => decodePacket(p).changes.length)));
    const sim = createSimulator(store, { seed: 1, rate: 20, tickMs: 1000 });
    sim.start();
    expect(sim.running).toBe(true);
    clock.advance(999);
    expect(packets).toEqual([]);
    clock.advance(5_001);
    expect(packets.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(60);
    sim.stop();
    const count = packets.length;
    clock.advance(10_000);
    expect(packets.length).toBe(count);
  });
  it('moves people, books rooms, opens tickets, sends heartbeats and silences sensors', () => {
    const { clock, store } = build(1);
    const sim = createSimulator(store, { seed: 2 });
    const tag = [...store.sensors.values()].find((s) => s.type === 'location')!;
    for (const action of ['move', 'reservation', 'ticket', 'heartbeat', 'silence', 'environment', 'occupancy'] as const) {
      clock.advance(1000);
      expect(sim.act(action), action).toBe(true);
    }
    for (let i = 0; i < 40; i += 1) sim.act('move');
    expect(store.history.get(tag.id)!.length).toBeGreaterThan(1);
    expect(sim.silent.size).toBeGreaterThan(0);
    const before = new Map([...sim.silent].map((id) => [id, store.sensors.get(id)!.last_communication_time]));
    sim.step(500);
    const stillSilent = [...before.keys()].filter((id) => sim.silent.has(id));
    for (const id of stillSilent) expect(store.sensors.get(id)!.last_communication_time).toBe(before.get(id));
  });
});

describe('timezone', () => {
  it('finds local midnight of Helsinki and New York', () => {
    expect(timezoneOffsetMs(NOW, 'Europe/Helsinki')).toBe(2 * 3_600_000);
    expect(localDayStart(NOW, 'Europe/Helsinki')).toBe(Date.UTC(2025, 2, 11, 22));
    expect(localDayStart(NOW, 'America/New_York')).toBe(Date.UTC(2025, 2, 12, 4));
  });
});
