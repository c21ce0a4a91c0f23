import { describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type AssetDetail, type DrawState, type PlaybackMeta } from '../../../src/shared/api.js';
import { CLEAN_DESK_PHASE_LABELS } from '../../../src/shared/rules/cleanDesk.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../../src/shared/rest.js';
import { createPlaybackService } from '../../../src/worker/reports/playback.js';
import type { PageCache } from '../../../src/worker/reports/runReport.js';
import type { ColumnarPage } from '../../../src/shared/reports/readings.js';
import type { Kept, ViewSource } from '../../../src/worker/views/viewHub.js';
import { loadedStore, locationScope, wireDesk, wireUser } from '../engine/harness.js';

// A replay shows at an instant only what was known at or before it (docs/reports.md "## Playback"):
// a replayed reading, a live reading dated at or before the instant, or nothing — never a live value
// or battery level from after it.

const H = 3_600_000;
const DAY = '2025-01-14';
const D0 = Date.UTC(2025, 0, 14);
const NOW = Date.UTC(2025, 0, 15, 10, 0);
const COLUMNS = ['time', 'sensor_id', 'valid_for', 'value', 'battery_level'];

/** The live store of today: every sensor's live value and battery are from this morning. */
function liveStore(now: () => number = () => NOW, extra: { assets: unknown[]; sensors: unknown[] } = { assets: [], sensors: [] }) {
  const assets = [
    wireDesk('d1', 'f1', { data_providers: ['s-occ'] }),
    { id: 'air', type: 'sensor', subtype: 'environment', name: 'Air 1', parent_id: 'f1', x: 5, y: 5, default_sensor_type: 'co2', data_providers: ['s-co2', 's-sat'] },
    { id: 'mood', type: 'sensor', subtype: 'stress', name: 'Stress 1', parent_id: 'f1', x: 8, y: 5, default_sensor_type: 'stress', data_providers: ['s-stress'] },
    { id: 'svc', type: 'sensor', subtype: 'service', name: 'Service 1', parent_id: 'f1', x: 12, y: 5, default_sensor_type: 'service', data_providers: ['s-svc'] },
    { id: 'r1', type: 'room', name: 'Aurora', parent_id: 'f1', x: 20, y: 20, outline: [[18, 18], [22, 18], [22, 22], [18, 22]], data_providers: ['s-room'] },
    // a co-worker's tag: live, they are on the other floor now
    { id: 'e2', type: 'employee', name: 'Employee e2', parent_id: null, data_providers: ['t2'], data_provider_refs: { location: 't2' }, default_sensor_type: 'location', config: { user_id: 'u2' } },
  ];
  const sensors = [
    { id: 's-occ', type: 'occupancy', last_measurement: { time: NOW - 5 * 60_000, valid_for: H, value: 1 }, last_status: { battery_level: 12 } },
    { id: 's-co2', type: 'co2', last_measurement: { time: NOW - 60_000, valid_for: H, value: 1400, battery_level: 9 }, last_status: { battery_level: 9 }, last_communication_time: NOW - 60_000 },
    { id: 's-sat', type: 'satisfaction', last_measurement: { time: NOW - 60_000, valid_for: H, value: 4 } },
    // silent since yesterday 06:00: its live reading is also the newest at any later instant of that day
    { id: 's-stress', type: 'stress', last_measurement: { time: D0 + 6 * H, valid_for: 12 * H, value: 3, battery_level: 55 }, last_status: { battery_level: 55 }, last_communication_time: D0 + 6 * H },
    { id: 's-svc', type: 'service', last_measurement: { time: NOW - 60_000, valid_for: H, value: 'all good' } },
    { id: 's-room', type: 'occupancy', last_measurement: { time: NOW - 60_000, valid_for: H, value: 0 } },
    { id: 't2', type: 'location', subtype: 'tag', last_measurement: { time: NOW - 60_000, valid_for: H, x: 50, y: 50, floor_id: 'f2' } },
  ];
  return loadedStore([...assets, ...extra.assets], [...sensors, ...extra.sensors], now, [wireUser('u2', { location_tag_id: 't2' })]);
}

/** The server's readings of that day, per type (the reference server pages them the same way). */
const DAY_ROWS: Record<string, unknown[][]> = {
  occupancy: [[D0 + 8 * H, 's-occ', H, 0, 70], [D0 + 9 * H, 's-occ', H, 1, 70], [D0 + 9 * H, 's-room', H, 1, 50], [D0 + 10 * H, 's-occ', H, 0, 69]],
  co2: [[D0 + 7 * H, 's-co2', H, 480, null], [D0 + 8 * H, 's-co2', H, 520, 81], [D0 + 9 * H, 's-co2', H, 610, null]],
  satisfaction: [],
  stress: [],
  service: [],
  // x, y, floor_id after the base columns
  location: [[D0 + 9 * H, 't2', H, null, null, 3, 4, 'f1']],
};

const LAYERS = ['desk_usage', 'devices', 'co2', 'satisfaction', 'stress'] as const;

/**
 * A playback service over the live store, its pages served from `rows` (per type, filtered as the server
 * filters: by sensor, and from the previous validity at `start` to `end`). `clock.now` may move on.
 */
function setup(
  rows: Record<string, unknown[][]> = DAY_ROWS, day = DAY, clock = { now: NOW }, cache: PageCache | null = null,
  slices: { defer(fn: () => void): void; sliceMs: number } = { defer: (fn) => { setTimeout(fn, 0); }, sliceMs: 12 },
  extra?: { assets: unknown[]; sensors: unknown[] },
) {
  const asked: Array<{ type: string; start: number }> = [];
  const fetchPage = async (type: string, q: MeasurementsQuery): Promise<MeasurementsResponse> => {
    asked.push({ type, start: q.start ?? 0 });
    const of = (rows[type] ?? []).filter((r) => (!q.sensor_id || q.sensor_id.includes(r[1] as string)) && (r[0] as number) <= (q.end ?? Infinity));
    // the reading still valid at `start` (one per sensor), unless asked to leave it out, then the rest
    const before = q.ignore_previous_validity ? [] : [...new Map(of.filter((r) => (r[0] as number) < (q.start ?? 0)).map((r) => [r[1], r])).values()];
    const columns = type === 'location' ? [...COLUMNS, 'x', 'y', 'floor_id'] : COLUMNS;
    return { columns, rows: [...before, ...of.filter((r) => (r[0] as number) >= (q.start ?? 0))], has_more_results: false } as MeasurementsResponse;
  };
  const { store: live, apply } = liveStore(() => clock.now, extra);
  const service = createPlaybackService({
    live, roles: () => ['regular'], viewerUserId: () => null, fetchPage, cache, now: () => clock.now, markDirty: () => undefined, ...slices,
  });
  const open = () => service.source({ view: 'playback', floorId: 'f1', layers: [...LAYERS], day });
  const floor = open();
  const popup = (assetId: string) => service.source({ view: 'asset', assetId, playback: { floorId: 'f1', day } });
  const at = (time: number) => service.setTime('f1', day, time);
  return { service, floor, open, popup, at, asked, apply, clock };
}

const entry = (source: ViewSource, key: string) => source.entry(key) as DrawState | undefined;
const detail = (source: ViewSource) => source.entry(SELF_KEY) as AssetDetail | undefined;

async function loaded(floor: ViewSource) {
  await vi.waitFor(() => { expect((floor.meta() as PlaybackMeta).progress.state).toBe('done'); });
}

describe('floor playback at an instant', () => {
  it("pages every sensor the floor's assets read, not only occupancy, reservations and air", async () => {
    const { floor, asked } = setup();
    await loaded(floor);
    expect(new Set(asked.map((a) => a.type))).toEqual(new Set(['occupancy', 'co2', 'satisfaction', 'stress', 'service', 'location']));
  });

  it('shows the replayed reading, never the live value dated after the instant', async () => {
    const { floor, popup, at } = setup();
    await loaded(floor);
    at(D0 + 9.5 * H);
    expect(entry(floor, 'd1')).toMatchObject({ statusKind: 'busy', status: 'occupied' });
    expect(entry(floor, 'air')).toMatchObject({ text: '610 ppm' });
    const air = detail(popup('air'))!;
    expect(air.value).toMatchObject({ text: '610 ppm' });
    expect(air.history.map((h) => h.time)).toEqual([D0 + 9 * H, D0 + 8 * H, D0 + 7 * H]);
    expect(air.history.every((h) => h.time <= D0 + 9.5 * H)).toBe(true);
    // the desk was left at 10:00: the clean-desk phase counts from then, not from any live leaving
    at(D0 + 10 * H + 5 * 60_000);
    expect(entry(floor, 'd1')).toMatchObject({ statusKind: 'busy', status: CLEAN_DESK_PHASE_LABELS.short_break.toLowerCase() });
    at(D0 + 10.5 * H);
    expect(entry(floor, 'd1')).toMatchObject({ statusKind: 'attention', status: CLEAN_DESK_PHASE_LABELS.awaiting_clearing.toLowerCase() });
  });

  it('takes the battery level from the newest reading at or before the instant, not the live one', async () => {
    const { floor, popup, at } = setup();
    await loaded(floor);
    at(D0 + 9.5 * H);
    const air = detail(popup('air'))!;
    // 81 % at 08:00 (the 09:00 reading sent none); live it is 9 %, which would say 'battery low'
    expect(air.battery).toBe(81);
    expect(air.lastCommunication).toBe(D0 + 9 * H);
    expect(entry(floor, 'air')!.status ?? '').not.toContain('battery low');
    at(D0 + 7.5 * H);
    expect(detail(popup('air'))!.battery).toBeNull();
  });

  it('shows nothing known where no reading of the sensor is dated at or before the instant', async () => {
    const { service, floor, popup, at } = setup();
    await loaded(floor);
    at(D0 + 9.5 * H);
    // satisfaction had no reading that day: live it is 4, the replay knows nothing
    const satisfaction = service.source({ view: 'playback', floorId: 'f1', layers: ['satisfaction'], day: DAY });
    expect(entry(satisfaction, 'air')!.text).toBeNull();
    expect(detail(popup('air'))!.history.some((h) => h.time > D0 + 9.5 * H)).toBe(false);
    // before the desk's first reading of the day, its state was not known
    at(D0 + 7 * H);
    expect(entry(floor, 'd1')).toMatchObject({ statusKind: 'unknown', status: 'no data' });
    expect(detail(popup('d1'))!.history).toEqual([]);
  });

  it("falls back on the live reading only when it is dated at or before the instant, with its battery", async () => {
    const { floor, popup, at } = setup();
    await loaded(floor);
    at(D0 + 9 * H);
    expect(entry(floor, 'mood')).toMatchObject({ text: '3 %' });
    expect(detail(popup('mood'))!.noRecentData).toBe(false);
    expect(detail(popup('mood'))!.battery).toBe(55);
    at(D0 + 5 * H);
    expect(entry(floor, 'mood')!.text).toBeNull();
    expect(detail(popup('mood'))).toMatchObject({ battery: null, lastCommunication: null, value: null, noRecentData: true });
  });

  it('opens a read-only popup that says which instant it shows', async () => {
    const { floor, popup, at } = setup();
    await loaded(floor);
    at(D0 + 9.5 * H);
    const desk = detail(popup('d1'))!;
    expect(desk.replayAt).toBe(D0 + 9.5 * H);
    expect(desk.actions).toEqual({ book: false, cancellable: [], vote: false, rename: false, closeTicket: false, publish: false });
  });
});

describe('the side panels of a replay', () => {
  it('list where people were and how the floor\'s rooms were at the instant, not now', async () => {
    const { service, floor, at } = setup();
    await loaded(floor);
    const people = service.source({ view: 'people', playback: { floorId: 'f1', day: DAY } });
    const rooms = service.source({ view: 'rooms', playback: { floorId: 'f1', day: DAY } });
    at(D0 + 9.5 * H);
    // live, u2 is on f2 at (50, 50) and the room is free
    expect(people.entry('u2')).toMatchObject({ floorId: 'f1', x: 3, y: 4, visible: true, lastSeen: D0 + 9 * H, assetId: 'e2' });
    expect([...people.keys()]).toEqual(['u2']);
    expect([...rooms.keys()]).toEqual(['r1']);
    expect(rooms.entry('r1')).toMatchObject({ name: 'Aurora', status: 'occupied', free: false });
    // before any reading of the day: nobody placed, the room not known
    at(D0 + 7 * H);
    expect(people.entry('u2')).toMatchObject({ floorId: null, visible: false });
    expect(rooms.entry('r1')).toMatchObject({ statusKind: 'unknown', free: false });
  });
});

describe('floor playback of values that are not numbers', () => {
  /** what IndexedDB does to a kept day: a structured clone each way */
  function clonedCache(): PageCache {
    const days = new Map<string, ColumnarPage[]>();
    return { async get(key) { return days.has(key) ? structuredClone(days.get(key)!) : null; }, async put(key, pages) { days.set(key, structuredClone(pages)); } };
  }
  const rows = {
    ...DAY_ROWS,
    satisfaction: [[D0 + 8 * H, 's-sat', H, '72', null]],
    service: [[D0 + 8 * H, 's-svc', H, 'needs cleaning', null], [D0 + 9 * H, 's-svc', H, true, null], [D0 + 10 * H, 's-svc', H, { status: 'cleaned' }, null]],
  };

  it('replays a word, a flag, an object and a number sent as text as they were sent, also from the kept day', async () => {
    const cache = clonedCache();
    for (const source of ['server', 'cache'] as const) {
      const { service, floor, popup, at, asked } = setup(rows, DAY, { now: NOW }, cache);
      await loaded(floor);
      if (source === 'cache') expect(asked).toEqual([]);
      at(D0 + 10.5 * H);
      // a number sent as text is on the satisfaction scale, as it is live
      const satisfaction = service.source({ view: 'playback', floorId: 'f1', layers: ['satisfaction'], day: DAY });
      expect(entry(satisfaction, 'air')).toMatchObject({ text: '72 %' });
      // the service sensor's words and flag, newest first, as the live popup lists them
      expect(detail(popup('svc'))!.history.map((h) => h.text)).toEqual(['cleaned', 'yes', 'needs cleaning']);
      at(D0 + 8.5 * H);
      expect(detail(popup('svc'))!.history.map((h) => h.text)).toEqual(['needs cleaning']);
    }
  });
});

describe('floor playback reopened', () => {
  it('shows a desk added and an asset moved since the replay was first opened', async () => {
    const rows = { ...DAY_ROWS, occupancy: [...DAY_ROWS.occupancy!, [D0 + 9 * H, 's-d2', H, 1, 90]].sort((a, b) => (a[0] as number) - (b[0] as number)) };
    const { floor, open, at, apply } = setup(rows);
    await loaded(floor);
    at(D0 + 9.5 * H);
    expect(entry(floor, 'd2')).toBeUndefined();
    // after Back to live, a desk is installed and the stress sensor moved
    apply({ scope: locationScope, changes: [
      { collection: 'sensors', kind: 'created', id: 's-d2', data: { id: 's-d2', type: 'occupancy' } },
      { collection: 'assets', kind: 'created', id: 'd2', data: wireDesk('d2', 'f1', { x: 30, y: 4 }) },
      { collection: 'assets', kind: 'modified', id: 'mood', data: { id: 'mood', type: 'sensor', subtype: 'stress', name: 'Stress 1', parent_id: 'f1', x: 40, y: 7, default_sensor_type: 'stress', data_providers: ['s-stress'] } },
    ] });
    const again = open();
    await loaded(again);
    at(D0 + 9.5 * H);
    // the new desk's reading of that day is replayed; the moved asset stands where it stands now
    expect(entry(again, 'd2')).toMatchObject({ x: 30, statusKind: 'busy' });
    expect(entry(again, 'mood')).toMatchObject({ x: 40, y: 7 });
  });

  it('reuses an unchanged replay of a past day at once, without asking the server again', async () => {
    const { floor, open, at, asked } = setup();
    await loaded(floor);
    at(D0 + 9.5 * H);
    const pages = asked.length;
    const again = open();
    // ready at once, at the instant it was left at
    expect(again.meta()).toMatchObject({ time: D0 + 9.5 * H, progress: { state: 'done' } });
    expect(entry(again, 'air')).toMatchObject({ text: '610 ppm' });
    expect(asked.length).toBe(pages);
  });

  it('reads what arrived since when a replay of the day still running is reopened', async () => {
    const T0 = Date.UTC(2025, 0, 15);
    const today = '2025-01-15';
    const rows: Record<string, unknown[][]> = { occupancy: [[T0 + 8 * H, 's-occ', H, 0, 70]], co2: [[T0 + 7 * H, 's-co2', H, 480, 80]], satisfaction: [], stress: [] };
    const clock = { now: T0 + 9 * H };
    const { floor, open, at, asked, popup } = setup(rows, today, clock);
    await loaded(floor);
    at(T0 + 9 * H);
    expect(entry(floor, 'air')).toMatchObject({ text: '480 ppm' });
    // an hour later the server has more of today
    clock.now = T0 + 10 * H;
    rows.co2!.push([T0 + 9.5 * H, 's-co2', H, 700, 79]);
    rows.occupancy!.push([T0 + 9.25 * H, 's-occ', H, 1, 70]);
    const before = asked.length;
    const again = open();
    await vi.waitFor(() => { expect(entry(again, 'air')?.text).toBe('480 ppm'); });
    at(T0 + 9.75 * H);
    await vi.waitFor(() => { expect(entry(again, 'air')).toMatchObject({ text: '700 ppm' }); });
    expect(entry(again, 'd1')).toMatchObject({ statusKind: 'busy' });
    // only what came after the first reading was asked for, not the whole day again
    expect(asked.slice(before).every((a) => a.start === T0 + 9 * H)).toBe(true);
    // the readings before are still there, once each
    expect(detail(popup('air'))!.history.map((h) => h.time)).toEqual([T0 + 9.5 * H, T0 + 7 * H]);
  });
});

describe('a replay of today left open', () => {
  const T0 = Date.UTC(2025, 0, 15);
  const today = '2025-01-15';
  /** the server's readings of today so far, and a replay of it opened at 10:00 */
  async function openToday() {
    const rows: Record<string, unknown[][]> = {
      occupancy: [[T0 + 8 * H, 's-occ', H, 0, 70]], co2: [[T0 + 7 * H, 's-co2', 2 * H, 480, 80], [T0 + 9.75 * H, 's-co2', H, 530, 80]],
      satisfaction: [], stress: [], service: [], location: [],
    };
    const clock = { now: T0 + 10 * H };
    const t = setup(rows, today, clock);
    await loaded(t.floor);
    t.at(T0 + 9.5 * H);
    expect(entry(t.floor, 'air')).toMatchObject({ text: '480 ppm' });
    /** what a replay reading the server afresh shows at `time` (the server's history for that instant) */
    const fromServer = async (time: number) => {
      const fresh = setup(rows, today, clock);
      await loaded(fresh.floor);
      fresh.at(time);
      return { floor: entry(fresh.floor, 'air'), popup: detail(fresh.popup('air')) };
    };
    /** a reading the server took now, dated at `time`: it keeps it in its history, and sends it live */
    const sent = (time: number, value: number) => {
      const row = [time, 's-co2', H, value, 79];
      rows.co2!.push(row);
      rows.co2!.sort((a, b) => (a[0] as number) - (b[0] as number));
      return { scope: locationScope, changes: [{ collection: 'measurements' as const, kind: 'created' as const, id: 's-co2', data: { sensor_id: 's-co2', type: 'co2', value: { time, valid_for: H, value, battery_level: 79 } } }] };
    };
    return { ...t, rows, clock, fromServer, sent };
  }

  it('includes a late reading that comes live dated before what it had read, as the server has it then', async () => {
    const { floor, popup, at, service, apply, fromServer, sent } = await openToday();
    // at 10:20 a reading of 09:15 arrives: the live store keeps its newer one, the replay takes it
    const batch = sent(T0 + 9.25 * H, 910);
    apply(batch);
    service.takeLive(batch.changes);
    at(T0 + 9.5 * H);
    expect(entry(floor, 'air')).toMatchObject({ text: '910 ppm' });
    const server = await fromServer(T0 + 9.5 * H);
    expect(entry(floor, 'air')).toEqual(server.floor);
    expect(detail(popup('air'))!.history).toEqual(server.popup!.history);
    expect(detail(popup('air'))!.history.map((h) => h.time)).toEqual([T0 + 9.25 * H, T0 + 7 * H]);
    // later on, the reading after it still shows
    at(T0 + 9.9 * H);
    expect(entry(floor, 'air')).toMatchObject({ text: '530 ppm' });
  });

  it('shows a late reading at the instant it is shown at as soon as it comes, and one of the same time in place of the one there', async () => {
    const { floor, popup, service, fromServer, sent } = await openToday();
    // the slider stays at 09:30; a late reading of 09:20 reaches that instant: the views read it without a step
    service.takeLive(sent(T0 + (9 + 1 / 3) * H, 700).changes);
    expect(entry(floor, 'air')).toMatchObject({ text: '700 ppm' });
    // the sensor sends 09:20 again with another value: the server answers with the last it took
    const again = sent(T0 + (9 + 1 / 3) * H, 720);
    service.takeLive(again.changes);
    expect(entry(floor, 'air')).toMatchObject({ text: '720 ppm' });
    expect(detail(popup('air'))!.history.map((h) => h.text)).toEqual(['720 ppm', '480 ppm']);
    expect(detail(popup('air'))!.value).toEqual((await fromServer(T0 + 9.5 * H)).popup!.value);
  });

  it('reads the whole day again after a gap of the live stream, so a late reading sent meanwhile shows', async () => {
    const { floor, at, service, asked, sent } = await openToday();
    // sent while the connection was down: the server has it, the replay never heard it
    sent(T0 + 9.25 * H, 940);
    const before = asked.length;
    service.liveReloaded();
    at(T0 + 9.5 * H);
    await vi.waitFor(() => { expect(entry(floor, 'air')).toMatchObject({ text: '940 ppm' }); });
    expect(asked.slice(before).every((a) => a.start === T0)).toBe(true);
  });

  it('takes a late reading from before the day as the one valid at its start, as the day\'s first page has it', async () => {
    const { floor, popup, at, service, rows, fromServer } = await openToday();
    // 23:50 the day before, valid for an hour: the newest before the day, still valid at midnight
    rows.co2!.unshift([T0 - 10 * 60_000, 's-co2', H, 640, 79]);
    service.takeLive([{ collection: 'measurements', kind: 'created', id: 's-co2', data: { sensor_id: 's-co2', value: { time: T0 - 10 * 60_000, valid_for: H, value: 640, battery_level: 79 } } }]);
    at(T0 + 0.5 * H);
    expect(entry(floor, 'air')).toMatchObject({ text: '640 ppm' });
    expect(entry(floor, 'air')).toEqual((await fromServer(T0 + 0.5 * H)).floor);
    // one older still changes nothing: the server's first page has the newest before the day
    service.takeLive([{ collection: 'measurements', kind: 'created', id: 's-co2', data: { sensor_id: 's-co2', value: { time: T0 - 20 * 60_000, valid_for: H, value: 600 } } }]);
    rows.co2!.unshift([T0 - 20 * 60_000, 's-co2', H, 600, null]);
    at(T0 + 0.25 * H);
    expect(entry(floor, 'air')).toMatchObject({ text: '640 ppm' });
    expect(detail(popup('air'))!.history).toEqual((await fromServer(T0 + 0.25 * H)).popup!.history);
    expect(detail(popup('air'))!.history.map((h) => h.text)).toEqual(['640 ppm']);
  });

  it('leaves out live readings of a sensor it did not page or dated after its day', async () => {
    const { floor, at, service } = await openToday();
    service.takeLive([
      { collection: 'measurements', kind: 'created', id: 's-other', data: { sensor_id: 's-other', value: { time: T0 + 9 * H, valid_for: H, value: 1 } } },
      { collection: 'measurements', kind: 'created', id: 's-co2', data: { sensor_id: 's-co2', value: { time: T0 + 25 * H, valid_for: H, value: 999 } } },
    ]);
    at(T0 + 23.9 * H);
    expect(entry(floor, 'air')?.text ?? null).not.toBe('999 ppm');
  });
});

describe('a step of a replay', () => {
  /** occupancy sent every half hour (valid 35 min) and at each change, as sensors do: most readings repeat the last one; null: none sent */
  const periodic = (id: string, from: number, states: Array<number | null>, battery: number) => states
    .map((v, k) => [D0 + from * H + k * 0.5 * H, id, 35 * 60_000, v, battery]).filter((r) => r[3] !== null);
  const REPEATING = {
    ...DAY_ROWS,
    // the desk's sensor falls silent for an hour: the free reading after it repeats the last one, which had expired
    occupancy: [...periodic('s-occ', 6, [0, 0, 0, 1, 1, 1, 1, 0, null, null, 0, 1, 1, 0, 0], 70), ...periodic('s-room', 6.25, [0, 0, 1, 1, 1, 0, 0, 0, 0, 1], 50)]
      .sort((a, b) => (a[0] as number) - (b[0] as number)),
  };

  it('re-derives only the assets that may have changed, and draws what a full derivation draws', async () => {
    const stepping = setup(REPEATING);
    const fresh = setup(REPEATING);
    await loaded(stepping.floor);
    await loaded(fresh.floor);
    const layers = new Map([['playback', 'all']]) as never;
    // what the hub keeps per key (what it sent, what the view drew it from), and asks the marked ones again with
    const kept = new Map<string, Kept>();
    const drawn = new Map<string, DrawState | undefined>();
    const ask = (keys: Iterable<string>) => {
      for (const key of keys) {
        if (!kept.has(key)) kept.set(key, { sent: undefined, from: undefined, made: undefined });
        drawn.set(key, stepping.floor.entry(key, kept.get(key)) as DrawState | undefined);
      }
    };
    stepping.at(D0);
    stepping.floor.affected(layers);
    ask(stepping.floor.keys());
    const marked: number[] = [];
    for (let t = D0; t < D0 + 24 * H; t += 7 * 60_000) {
      stepping.at(t);
      const keys = stepping.floor.affected(layers);
      marked.push(keys === 'all' ? Infinity : keys === null ? 0 : [...keys].length);
      ask(keys === 'all' ? stepping.floor.keys() : keys ?? []);
      // the other replay goes back first: every asset derived afresh at t
      fresh.at(D0 + 24 * H - 1);
      fresh.at(t);
      expect([...stepping.floor.keys()]).toEqual([...fresh.floor.keys()]);
      // what the view drew at this step (only the marked ones asked again), and asked afresh, are what a full derivation draws
      for (const key of fresh.floor.keys()) {
        expect(drawn.get(key), `${key} at ${new Date(t).toISOString()}`).toEqual(entry(fresh.floor, key));
        expect(entry(stepping.floor, key), `${key} at ${new Date(t).toISOString()}`).toEqual(entry(fresh.floor, key));
      }
    }
    // forward, no step marks the whole floor again; most mark a few of its assets
    expect(marked.every((n) => n !== Infinity)).toBe(true);
    expect(marked.filter((n) => n <= 3).length).toBeGreaterThan(marked.length / 2);
  });

  it('derives a long step in tasks of its own, and the floor view shows it all at once when done', async () => {
    // the worker's other work: each slice of a step is a task of its own, one asset long here
    const tasks: Array<() => void> = [];
    const runAll = () => { while (tasks.length > 0) tasks.shift()!(); };
    const { floor, at } = setup(DAY_ROWS, DAY, { now: NOW }, null, { defer: (fn) => tasks.push(fn), sliceMs: 0 });
    await vi.waitFor(() => { expect((floor.meta() as PlaybackMeta).progress.state).toBe('done'); });
    runAll();
    const layers = new Map([['playback', 'all']]) as never;
    at(D0 + 11 * H);
    runAll();
    floor.affected(layers);
    expect(entry(floor, 'd1')).toMatchObject({ statusKind: 'attention' });
    // back to 09:30: every asset derived anew, a slice at a time; meanwhile the view shows 11:00 as it was
    at(D0 + 9.5 * H);
    expect(tasks.length).toBe(1);
    expect(floor.affected(layers)).toBeNull();
    expect((floor.meta() as PlaybackMeta).time).toBe(D0 + 11 * H);
    tasks.shift()!();
    expect(tasks.length).toBe(1);
    expect(floor.affected(layers)).toBeNull();
    // a step on while it is derived: the view is told of both when the last is done
    at(D0 + 9.75 * H);
    runAll();
    expect((floor.meta() as PlaybackMeta).time).toBe(D0 + 9.75 * H);
    expect(floor.affected(layers)).toBe('all');
    expect(entry(floor, 'd1')).toMatchObject({ statusKind: 'busy' });
    expect(entry(floor, 'air')).toMatchObject({ text: '610 ppm' });
  });

  it('sets the sensors of a step back and of a jump in slices too, and a popup read between them shows the instant', async () => {
    // a floor of many desks, each taken from 09:00 to 10:00: a slice sets a few dozen sensors here
    const N = 400;
    const extra = {
      assets: Array.from({ length: N }, (_, i) => wireDesk(`m${i}`, 'f1', { data_providers: [`o${i}`] })),
      sensors: Array.from({ length: N }, (_, i) => ({ id: `o${i}`, type: 'occupancy', last_measurement: { time: NOW - 60_000, valid_for: H, value: 0 } })),
    };
    const rows = {
      ...DAY_ROWS,
      occupancy: [...DAY_ROWS.occupancy!, ...extra.sensors.flatMap((x) => [8, 9, 10].map((h) => [D0 + h * H, x.id, H, h === 9 ? 1 : 0, 80]))]
        .sort((a, b) => (a[0] as number) - (b[0] as number)),
    };
    const tasks: Array<() => void> = [];
    const runAll = () => { let n = 0; while (tasks.length > 0) { tasks.shift()!(); n += 1; } return n; };
    const { floor, popup, at } = setup(rows, DAY, { now: NOW }, null, { defer: (fn) => tasks.push(fn), sliceMs: 0 }, extra);
    await loaded(floor);
    runAll();
    const layers = new Map([['playback', 'all']]) as never;
    const busy = () => extra.assets.filter((a) => entry(floor, a.id)?.statusKind === 'busy').length;
    at(D0 + 10.5 * H);
    runAll();
    floor.affected(layers);
    expect(busy()).toBe(0);
    for (const [label, time, wanted] of [['back to 09:30', D0 + 9.5 * H, N], ['a jump to 17:00', D0 + 17 * H, 0], ['back to 09:15', D0 + 9.25 * H, N]] as const) {
      at(time);
      // the first slice set some of the sensors; the view shows the instant before until all is done
      expect(tasks.length, label).toBe(1);
      expect(floor.affected(layers), label).toBeNull();
      // a popup read between the slices shows the instant, also of a desk whose sensor the step has not reached
      expect(detail(popup(`m${N - 1}`))!.statusKind, label).toBe(wanted === N ? 'busy' : detail(popup('m0'))!.statusKind);
      expect(runAll(), label).toBeGreaterThan(N / 64);
      expect((floor.meta() as PlaybackMeta).time, label).toBe(time);
      expect(floor.affected(layers), label).not.toBeNull();
      expect(busy(), label).toBe(wanted);
    }
  });

  it("leaves the sensors no floor view draws from until a popup or another view reads them, which see the instant", async () => {
    const { service, floor, popup, at } = setup();
    // the desks alone: the air sensor's readings draw nothing on this view, the only one open
    const desks = service.source({ view: 'playback', floorId: 'f1', layers: ['desk_usage'], day: DAY });
    floor.close!();
    await loaded(desks);
    const layers = new Map([['playback', 'all']]) as never;
    for (const t of [D0 + 7.5 * H, D0 + 8.5 * H, D0 + 9.5 * H]) {
      at(t);
      for (const key of [...(desks.affected(layers) === null ? [] : desks.keys())]) desks.entry(key);
    }
    expect(entry(desks, 'd1')).toMatchObject({ statusKind: 'busy' });
    expect(entry(desks, 'air')).toBeUndefined();
    // the popup and a view with the CO₂ layer show the air of 09:30, not of the first instant
    expect(detail(popup('air'))!.value).toMatchObject({ text: '610 ppm' });
    expect(detail(popup('air'))!.history.map((h) => h.time)).toEqual([D0 + 9 * H, D0 + 8 * H, D0 + 7 * H]);
    const air = service.source({ view: 'playback', floorId: 'f1', layers: ['co2'], day: DAY });
    expect(entry(air, 'air')).toMatchObject({ text: '610 ppm' });
    at(D0 + 8.5 * H);
    expect(entry(air, 'air')).toMatchObject({ text: '520 ppm' });
  });

  it('shows a sensor left alone while no view drew from it at the instant once a view draws from it again', async () => {
    // air readings valid all day: nothing but the new reading would tell the kept facts to change
    const rows = { ...DAY_ROWS, co2: DAY_ROWS.co2!.map((r) => [r[0], r[1], 12 * H, r[3], r[4]]) };
    const { service, floor, at } = setup(rows);
    const desks = service.source({ view: 'playback', floorId: 'f1', layers: ['desk_usage'], day: DAY });
    floor.close!();
    await loaded(desks);
    at(D0 + 8.5 * H);
    const first = service.source({ view: 'playback', floorId: 'f1', layers: ['co2'], day: DAY });
    expect(entry(first, 'air')).toMatchObject({ text: '520 ppm' });
    first.close!();
    at(D0 + 9.5 * H);
    const again = service.source({ view: 'playback', floorId: 'f1', layers: ['co2'], day: DAY });
    expect(entry(again, 'air')).toMatchObject({ text: '610 ppm' });
  });
});
