import { describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type AssetDetail, type DrawState, type PlaybackMeta } from '../../../src/shared/api.js';
import { CLEAN_DESK_PHASE_LABELS } from '../../../src/shared/rules/cleanDesk.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../../src/shared/rest.js';
import { createPlaybackService } from '../../../src/worker/reports/playback.js';
import type { ViewSource } from '../../../src/worker/views/viewHub.js';
import { loadedStore, wireDesk } from '../engine/harness.js';

// A replay shows at an instant only what was known at or before it (docs/reports.md "## Playback"):
// a replayed reading, a live reading dated at or before the instant, or nothing — never a live value
// or battery level from after it.

const H = 3_600_000;
const DAY = '2025-01-14';
const D0 = Date.UTC(2025, 0, 14);
const NOW = Date.UTC(2025, 0, 15, 10, 0);
const COLUMNS = ['time', 'sensor_id', 'valid_for', 'value', 'battery_level'];

/** The live store of today: every sensor's live value and battery are from this morning. */
function liveStore() {
  const assets = [
    wireDesk('d1', 'f1', { data_providers: ['s-occ'] }),
    { id: 'air', type: 'sensor', subtype: 'environment', name: 'Air 1', parent_id: 'f1', x: 5, y: 5, default_sensor_type: 'co2', data_providers: ['s-co2', 's-sat'] },
    { id: 'mood', type: 'sensor', subtype: 'stress', name: 'Stress 1', parent_id: 'f1', x: 8, y: 5, default_sensor_type: 'stress', data_providers: ['s-stress'] },
  ];
  const sensors = [
    { id: 's-occ', type: 'occupancy', last_measurement: { time: NOW - 5 * 60_000, valid_for: H, value: 1 }, last_status: { battery_level: 12 } },
    { id: 's-co2', type: 'co2', last_measurement: { time: NOW - 60_000, valid_for: H, value: 1400, battery_level: 9 }, last_status: { battery_level: 9 }, last_communication_time: NOW - 60_000 },
    { id: 's-sat', type: 'satisfaction', last_measurement: { time: NOW - 60_000, valid_for: H, value: 4 } },
    // silent since yesterday 06:00: its live reading is also the newest at any later instant of that day
    { id: 's-stress', type: 'stress', last_measurement: { time: D0 + 6 * H, valid_for: 12 * H, value: 3, battery_level: 55 }, last_status: { battery_level: 55 }, last_communication_time: D0 + 6 * H },
  ];
  return loadedStore(assets, sensors, () => NOW).store;
}

/** The server's readings of that day, per type (the reference server pages them the same way). */
const DAY_ROWS: Record<string, unknown[][]> = {
  occupancy: [[D0 + 8 * H, 's-occ', H, 0, 70], [D0 + 9 * H, 's-occ', H, 1, 70], [D0 + 10 * H, 's-occ', H, 0, 69]],
  co2: [[D0 + 7 * H, 's-co2', H, 480, null], [D0 + 8 * H, 's-co2', H, 520, 81], [D0 + 9 * H, 's-co2', H, 610, null]],
  satisfaction: [],
  stress: [],
};

function setup() {
  const asked: string[] = [];
  const fetchPage = async (type: string, q: MeasurementsQuery): Promise<MeasurementsResponse> => {
    asked.push(type);
    const rows = (DAY_ROWS[type] ?? []).filter((r) => (r[0] as number) <= (q.end ?? Infinity));
    return { columns: COLUMNS, rows, has_more_results: false } as MeasurementsResponse;
  };
  const service = createPlaybackService({
    live: liveStore(), roles: () => ['regular'], viewerUserId: () => null, fetchPage, cache: null, now: () => NOW, markDirty: () => undefined,
  });
  const floor = service.source({ view: 'playback', floorId: 'f1', layers: ['desk_usage', 'devices', 'co2', 'satisfaction', 'stress'], day: DAY });
  const popup = (assetId: string) => service.source({ view: 'asset', assetId, playback: { floorId: 'f1', day: DAY } });
  const at = (time: number) => service.setTime('f1', DAY, time);
  return { service, floor, popup, at, asked };
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
    expect(new Set(asked)).toEqual(new Set(['occupancy', 'co2', 'satisfaction', 'stress']));
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
