import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type AssetDetail, type DrawState, type PlaybackMeta, type SessionView, type StructureEntry } from '../../src/shared/api.js';
import { DEFAULT_LAYERS } from '../../src/shared/constants.js';
import { addDaysToKey, calendarDay, dateKeyOf, wallToEpoch } from '../../src/shared/reports/calendar.js';
import { formatValue } from '../../src/worker/derive/drawState.js';
import { createEngine, type Engine } from '../../src/worker/engine.js';
import { systemClock } from '../../src/worker/ports.js';
import { createMemoryStorage } from '../../src/worker/storage/memoryStorage.js';
import { createMemoryPageCache } from '../../src/worker/storage/idbPageCache.js';
import { createTransport } from '../../src/worker/transports/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collect, createTestLogger } from '../worker/engine/harness.js';

// Floor playback against the reference server: a past working day replayed
// on a floor by the live derivation rules at chosen instants, while the live
// floor view of the same floor carries on untouched.

const WAIT = { timeout: 60_000, interval: 50 };

describe('floor playback against the reference server', () => {
  let t: TestServer;
  let engine: Engine;
  /** the measurement pages the engine asked the server for */
  const pagesAsked: string[] = [];
  /** the measurement pages the server refused */
  const pagesRefused: string[] = [];
  beforeAll(async () => {
    t = await startTestServer({ seed: { historyDays: 8, employees: 24 } });
    engine = createEngine({
      clock: systemClock,
      fetch: (i, init) => {
        const url = String(i instanceof Request ? i.url : i);
        if (!url.includes('/measurements/')) return globalThis.fetch(i, init);
        pagesAsked.push(url);
        return globalThis.fetch(i, init).then((res) => {
          if (!res.ok) pagesRefused.push(`${res.status} ${url}`);
          return res;
        });
      },
      transportFactory: createTransport,
      storage: createMemoryStorage(), logger: createTestLogger(), pageCache: () => createMemoryPageCache(),
    });
    await engine.init({ host: t.url });
    const session = await collect<SessionView>(engine, { view: 'session' });
    expect((await engine.signIn(t.accounts.regular.email, t.accounts.regular.password)).ok).toBe(true);
    expect((await engine.selectOrganization(t.accounts.regular.organizationId)).ok).toBe(true);
    await vi.waitFor(() => { expect(session.entries.get(SELF_KEY)!.locations.length).toBeGreaterThan(0); }, WAIT);
    expect((await engine.selectLocation(t.server.seed.locationIds[0]!)).ok).toBe(true);
  });
  afterAll(async () => {
    await engine?.dispose();
    await t?.close();
  });

  it('replays a past working day: desks empty at night, in use by late morning, people placed; the live view is untouched', async () => {
    const structure = await collect<StructureEntry>(engine, { view: 'structure' });
    const floors = new Set([...structure.entries.values()].flatMap((b) => b.floors.map((f) => f.id)));
    const locationId = t.server.seed.locationIds[0]!;
    const tz = t.server.store.locations.get(locationId)!.timezone;
    // the last Tuesday to Thursday before today, the busiest days
    let day = addDaysToKey(dateKeyOf(Date.now(), tz), -1);
    while (calendarDay(day, tz).weekday < 2 || calendarDay(day, tz).weekday > 4) day = addDaysToKey(day, -1);
    // the floor where most people worked that day, as the server's history says
    const token = await t.signIn('regular');
    const { start, end } = calendarDay(day, tz);
    const res = await t.api(`/organizations/${t.accounts.regular.organizationId}/locations/${locationId}/measurements/location?start=${start}&end=${end}`, { token });
    const counts = new Map<string, number>();
    for (const row of ((await res.json()) as { rows: unknown[][] }).rows) counts.set(String(row[7]), (counts.get(String(row[7])) ?? 0) + 1);
    const floorId = [...counts.entries()].filter(([id]) => floors.has(id)).sort((a, b) => b[1] - a[1])[0]![0];
    const live = await collect<DrawState>(engine, { view: 'floor', floorId, layers: DEFAULT_LAYERS });
    const liveBefore = JSON.stringify([...live.entries.entries()]);
    const liveMessages = live.messages.length;

    const replay = await collect<DrawState, PlaybackMeta>(engine, { view: 'playback', floorId, layers: [...DEFAULT_LAYERS, 'desks'], day });
    await vi.waitFor(() => { expect(replay.meta?.progress.state).toBe('done'); }, WAIT);
    const at = async (hour: number) => {
      const time = wallToEpoch(calendarDay(day, tz), hour);
      await engine.setPlaybackTime(floorId, day, time);
      await vi.waitFor(() => { expect(replay.meta?.time).toBe(time); }, WAIT);
      return [...replay.entries.values()];
    };
    const busy = (entries: DrawState[]) => entries.filter((e) => e.kind === 'desk' && e.statusKind === 'busy').length;
    const people = (entries: DrawState[]) => entries.filter((e) => e.kind === 'employee').length;
    const night = await at(3);
    expect(busy(night)).toBe(0);
    expect(people(night)).toBe(0);
    const day9to16 = [];
    for (const h of [9, 10, 11, 13.5, 14.5, 15.5]) day9to16.push(await at(h));
    expect(Math.max(...day9to16.map(busy))).toBeGreaterThan(0);
    expect(Math.max(...day9to16.map(people))).toBeGreaterThan(0);
    // the live floor got no patch from the playback and looks as it did
    expect(live.messages.length).toBe(liveMessages);
    expect(JSON.stringify([...live.entries.entries()])).toBe(liveBefore);
  });

  it('shows a sensor of any type and its battery as they were at the instant, never their live values', async () => {
    const locationId = t.server.seed.locationIds[0]!;
    const tz = t.server.store.locations.get(locationId)!.timezone;
    const structure = await collect<StructureEntry>(engine, { view: 'structure' });
    const floors = new Set([...structure.entries.values()].flatMap((b) => b.floors.map((f) => f.id)));
    // a stress sensor: a type playback used to take from the live store
    const asset = [...t.server.store.assets.values()]
      .find((a) => a.location_id === locationId && a.type === 'sensor' && a.subtype === 'stress' && floors.has(a.parent_id!))!;
    const sensorId = asset.data_provider_refs.stress!;
    const floorId = asset.parent_id!;
    const day = addDaysToKey(dateKeyOf(Date.now(), tz), -2);
    const instant = wallToEpoch(calendarDay(day, tz), 11);
    // what the server knew at that instant: its newest reading of the sensor at or before it
    const token = await t.signIn('regular');
    const { start, end } = calendarDay(day, tz);
    const res = await t.api(`/organizations/${t.accounts.regular.organizationId}/locations/${locationId}/measurements/stress?start=${start}&end=${end}&sensor_id=${sensorId}`, { token });
    const page = (await res.json()) as { columns: string[]; rows: unknown[][] };
    const [iTime, iValue, iBattery] = ['time', 'value', 'battery_level'].map((c) => page.columns.indexOf(c));
    const then = page.rows.filter((r) => (r[iTime!] as number) <= instant).at(-1)!;
    expect(then).toBeDefined();
    // live, the sensor now reads 99 and its battery is nearly flat
    const live = await collect<AssetDetail>(engine, { view: 'asset', assetId: asset.id });
    t.server.store.addMeasurement(sensorId, { time: Date.now(), valid_for: 3_600_000, value: 99, battery_level: 3 });
    t.server.store.heartbeat(sensorId, Date.now(), 3);
    await vi.waitFor(() => { expect(live.entries.get(SELF_KEY)).toMatchObject({ battery: 3, value: { text: '99 %' } }); }, WAIT);

    const replay = await collect<DrawState, PlaybackMeta>(engine, { view: 'playback', floorId, layers: [...DEFAULT_LAYERS, 'stress', 'devices'], day });
    await vi.waitFor(() => { expect(replay.meta?.progress.state).toBe('done'); }, WAIT);
    await engine.setPlaybackTime(floorId, day, instant);
    await vi.waitFor(() => { expect(replay.meta?.time).toBe(instant); }, WAIT);
    const text = `${formatValue(then[iValue!] as number)} %`;
    expect(replay.entries.get(asset.id)).toMatchObject({ text });
    const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: asset.id, playback: { floorId, day } });
    await vi.waitFor(() => { expect(popup.entries.get(SELF_KEY)).toBeDefined(); }, WAIT);
    expect(popup.entries.get(SELF_KEY)).toMatchObject({
      value: { text }, battery: then[iBattery!], lastCommunication: then[iTime!], replayAt: instant,
    });
    expect(popup.entries.get(SELF_KEY)!.history.every((h) => h.time <= instant)).toBe(true);
  });

  it('includes in a replay of today left open a late reading that came live, as the server answers for that instant', async () => {
    const locationId = t.server.seed.locationIds[0]!;
    const tz = t.server.store.locations.get(locationId)!.timezone;
    const structure = await collect<StructureEntry>(engine, { view: 'structure' });
    const floors = new Set([...structure.entries.values()].flatMap((b) => b.floors.map((f) => f.id)));
    const asset = [...t.server.store.assets.values()]
      .find((a) => a.location_id === locationId && a.type === 'sensor' && a.subtype === 'environment' && floors.has(a.parent_id!) && a.data_provider_refs.co2)!;
    const sensorId = asset.data_provider_refs.co2!;
    const floorId = asset.parent_id!;
    const day = dateKeyOf(Date.now(), tz);
    const { start } = calendarDay(day, tz);
    const replay = await collect<DrawState, PlaybackMeta>(engine, { view: 'playback', floorId, layers: [...DEFAULT_LAYERS, 'co2'], day });
    await vi.waitFor(() => { expect(replay.meta?.progress.state).toBe('done'); }, WAIT);
    // read up to now; then the sensor's reading of some minutes ago reaches the server late, and comes live
    const late = Math.max(start + 1, Date.now() - 10 * 60_000);
    const instant = late + 1;
    await engine.setPlaybackTime(floorId, day, instant);
    await vi.waitFor(() => { expect(replay.meta?.time).toBe(instant); }, WAIT);
    const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: asset.id, playback: { floorId, day } });
    await vi.waitFor(() => { expect(popup.entries.get(SELF_KEY)).toBeDefined(); }, WAIT);
    t.server.store.addMeasurement(sensorId, { time: late, valid_for: 1_800_000, value: 1234, battery_level: 64 });

    // what the server's history answers for that instant: its newest readings of the sensor at or before it
    const token = await t.signIn('regular');
    const res = await t.api(`/organizations/${t.accounts.regular.organizationId}/locations/${locationId}/measurements/co2?start=${start}&end=${instant + 1}&sensor_id=${sensorId}`, { token });
    const page = (await res.json()) as { columns: string[]; rows: unknown[][] };
    const [iTime, iValue] = ['time', 'value'].map((c) => page.columns.indexOf(c));
    const then = page.rows.filter((r) => (r[iTime!] as number) <= instant).sort((a, b) => (b[iTime!] as number) - (a[iTime!] as number));
    expect(then[0]).toEqual(expect.arrayContaining([late, 1234]));
    const text = `${formatValue(then[0]![iValue!] as number)} ppm`;
    await vi.waitFor(() => { expect(replay.entries.get(asset.id)).toMatchObject({ text }); }, WAIT);
    await vi.waitFor(() => { expect(popup.entries.get(SELF_KEY)).toMatchObject({ value: { text }, battery: 64, lastCommunication: late }); }, WAIT);
    const history = popup.entries.get(SELF_KEY)!.history;
    expect(history.map((h) => h.time)).toEqual(then.slice(0, history.length).map((r) => r[iTime!]));
    expect(history.length).toBe(Math.min(then.length, 5));
  });

  it('leaves out a ticket or voice at an instant before it was posted, and shows it after', async () => {
    const locationId = t.server.seed.locationIds[0]!;
    const tz = t.server.store.locations.get(locationId)!.timezone;
    const structure = await collect<StructureEntry>(engine, { view: 'structure' });
    const floors = new Set([...structure.entries.values()].flatMap((b) => b.floors.map((f) => f.id)));
    // a seeded ticket or voice of some past day, posted at least two minutes from that day's bounds
    const posted = [...t.server.store.assets.values()]
      .filter((a) => (a.type === 'ticket' || a.type === 'voice') && a.location_id === locationId && !a.unpublished && floors.has(a.parent_id!))
      .map((a) => ({ asset: a, time: (a.value as { time: number }).time }))
      .filter(({ time }) => {
        const day = calendarDay(dateKeyOf(time, tz), tz);
        return dateKeyOf(time, tz) < dateKeyOf(Date.now(), tz) && time - day.start > 120_000 && day.end - time > 120_000;
      });
    expect(posted.length).toBeGreaterThan(0);
    const { asset, time } = posted[0]!;
    const day = dateKeyOf(time, tz);
    const floorId = asset.parent_id!;
    const replay = await collect<DrawState, PlaybackMeta>(engine, { view: 'playback', floorId, layers: [...DEFAULT_LAYERS, 'service'], day });
    await vi.waitFor(() => { expect(replay.meta?.progress.state).toBe('done'); }, WAIT);
    const at = async (instant: number) => {
      await engine.setPlaybackTime(floorId, day, instant);
      await vi.waitFor(() => { expect(replay.meta?.time).toBe(instant); }, WAIT);
      return replay.entries.get(asset.id);
    };
    expect(await at(time - 60_000)).toBeUndefined();
    expect(await at(time + 60_000)).toMatchObject({ kind: asset.type === 'ticket' ? 'ticket' : 'voice' });
    expect(await at(time - 60_000)).toBeUndefined();
  });

  it('reopens an unchanged past day without asking the server, and reads it again once the floor changed', async () => {
    const locationId = t.server.seed.locationIds[0]!;
    const tz = t.server.store.locations.get(locationId)!.timezone;
    const structure = await collect<StructureEntry>(engine, { view: 'structure' });
    const floorId = [...structure.entries.values()][0]!.floors[0]!.id;
    const day = addDaysToKey(dateKeyOf(Date.now(), tz), -3);
    const instant = wallToEpoch(calendarDay(day, tz), 11.5);
    const layers = [...DEFAULT_LAYERS, 'desks' as const];
    const first = await collect<DrawState, PlaybackMeta>(engine, { view: 'playback', floorId, layers, day });
    await vi.waitFor(() => { expect(first.meta?.progress.state).toBe('done'); }, WAIT);
    await engine.setPlaybackTime(floorId, day, instant);
    await vi.waitFor(() => { expect(first.meta?.time).toBe(instant); }, WAIT);
    await engine.unsubscribe(first.id);

    // Back to live, then the same day again: the kept replay, at once, at the instant it was left at
    const asked = pagesAsked.length;
    const again = await collect<DrawState, PlaybackMeta>(engine, { view: 'playback', floorId, layers, day });
    await vi.waitFor(() => { expect(again.meta).toMatchObject({ time: instant, progress: { state: 'done' } }); }, WAIT);
    expect(pagesAsked.length).toBe(asked);
    await engine.unsubscribe(again.id);

    // meanwhile a service sensor is installed on the floor with that day's readings (words and a flag), and a desk is moved
    const live = await collect<DrawState>(engine, { view: 'floor', floorId, layers: [...layers, 'all_sensors'] });
    const sensor = t.server.store.createSensor(locationId, { type: 'service' });
    const asset = t.server.store.createAsset(locationId, {
      type: 'sensor', subtype: 'service', name: 'Cleaning request', parent_id: floorId, x: 3, y: 3, default_sensor_type: 'service', data_providers: [sensor.id],
    }, null);
    t.server.store.addMeasurement(sensor.id, { time: wallToEpoch(calendarDay(day, tz), 10), valid_for: 3_600_000, value: 'needs cleaning' });
    t.server.store.addMeasurement(sensor.id, { time: wallToEpoch(calendarDay(day, tz), 11), valid_for: 3_600_000, value: true });
    const desk = [...live.entries.values()].find((e) => e.kind === 'desk')!;
    t.server.store.updateAsset(desk.id, { x: desk.x + 7 });
    await vi.waitFor(() => {
      expect(live.entries.get(asset.id)).toBeDefined();
      expect(live.entries.get(desk.id)?.x).toBe(desk.x + 7);
    }, WAIT);

    const reopened = await collect<DrawState, PlaybackMeta>(engine, { view: 'playback', floorId, layers: [...layers, 'all_sensors'], day });
    await vi.waitFor(() => { expect(reopened.meta).toMatchObject({ time: instant, progress: { state: 'done' } }); }, WAIT);
    expect(pagesAsked.length).toBeGreaterThan(asked);
    expect(reopened.entries.get(desk.id)?.x).toBe(desk.x + 7);
    expect(reopened.entries.get(asset.id)).toBeDefined();
    // the sensor's values of that day as the server sent them, newest first, up to the instant
    const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: asset.id, playback: { floorId, day } });
    await vi.waitFor(() => { expect(popup.entries.get(SELF_KEY)?.history.map((h) => h.text)).toEqual(['yes', 'needs cleaning']); }, WAIT);
  });

  it('replays for a user below a report’s role without that report’s history: no page refused, desks and people without readings', async () => {
    const locationId = t.server.seed.locationIds[0]!;
    const org = t.accounts.regular.organizationId;
    const tz = t.server.store.locations.get(locationId)!.timezone;
    // the desk and location reports need the edit role; the server refuses their history to a regular user (docs/security.md "Report roles")
    const admin = await t.signIn('admin');
    const res = await t.api(`/organizations/${org}/locations/${locationId}`, { method: 'PATCH', token: admin, json: { config: { reportViewingRolesAtLeast: { desk: 'edit', location: 'edit' } } } });
    expect(res.status).toBe(200);
    const session = await collect<SessionView>(engine, { view: 'session' });
    await vi.waitFor(() => { expect(session.entries.get(SELF_KEY)!.capabilities.reports).toMatchObject({ desk: false, location: false, room: true }); }, WAIT);

    const structure = await collect<StructureEntry>(engine, { view: 'structure' });
    const floorId = [...structure.entries.values()][0]!.floors[0]!.id;
    // a day no test before replayed: the busiest weekdays before the last
    let day = addDaysToKey(dateKeyOf(Date.now(), tz), -4);
    while (calendarDay(day, tz).weekday < 2 || calendarDay(day, tz).weekday > 4) day = addDaysToKey(day, -1);
    const refusedBefore = pagesRefused.length;
    const asked = pagesAsked.length;
    const replay = await collect<DrawState, PlaybackMeta>(engine, { view: 'playback', floorId, layers: [...DEFAULT_LAYERS, 'desks'], day });
    await vi.waitFor(() => { expect(replay.meta?.progress.state).toBe('done'); }, WAIT);
    expect(pagesRefused.slice(refusedBefore)).toEqual([]);
    const pages = pagesAsked.slice(asked);
    expect(pages.some((u) => u.includes('/measurements/reservation')), 'the rooms’ bookings are still replayed').toBe(true);
    expect(pages.filter((u) => u.includes('/measurements/location'))).toEqual([]);
    const deskSensors = new Set([...t.server.store.assets.values()].filter((a) => a.location_id === locationId && a.subtype === 'desk').map((a) => a.data_provider_refs.occupancy));
    expect(pages.filter((u) => new URL(u).searchParams.getAll('sensor_id').some((id) => deskSensors.has(id)))).toEqual([]);
    for (const hour of [10, 11, 14]) {
      const time = wallToEpoch(calendarDay(day, tz), hour);
      await engine.setPlaybackTime(floorId, day, time);
      await vi.waitFor(() => { expect(replay.meta?.time).toBe(time); }, WAIT);
      const entries = [...replay.entries.values()];
      expect(entries.filter((e) => e.kind === 'desk' && e.statusKind === 'busy')).toEqual([]);
      expect(entries.filter((e) => e.kind === 'employee')).toEqual([]);
    }
  });
});
