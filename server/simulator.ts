// Keeps the demo alive on the store's (injected) clock: desks and rooms fill
// and empty, air readings drift, people walk between zones and floors, rooms
// get booked and released, tickets and voices appear, sensors send heartbeats
// and some fall silent so freshness timeouts happen. Everything goes through
// the store, so REST reads and live packets stay consistent.

import { TICKET_LABELS, VOICE_LABELS, type TicketValue, type WireAsset, type WireMeasurementValue } from '../src/shared/rest.js';
import type { Id, ReservationEvent, Vec2 } from '../src/shared/types.js';
import { createPrng, type Prng } from './seed/prng.js';
import { ENVIRONMENT_TYPES, OTHER_SENSOR_LAYERS, sensorReading, validityOf } from './seed/sensorValues.js';
import { localHour } from './seed/timezone.js';
import type { Store } from './store/store.js';

export interface SimulatorOptions {
  seed?: number;
  /** simulated events per second of clock time; default 5 */
  rate?: number;
  /** ms between ticks; default 1000 */
  tickMs?: number;
  /** share of desk and environment sensors that never report again; default 0.05 */
  silentFraction?: number;
}

export type SimulatorAction = 'occupancy' | 'environment' | 'move' | 'heartbeat' | 'reservation' | 'ticket' | 'silence';

export interface Simulator {
  start(): void;
  stop(): void;
  readonly running: boolean;
  /** performs `count` random events now (tests and benchmarks drive it directly) */
  step(count?: number): void;
  /** performs one event of a given kind now; false if nothing fitted */
  act(action: SimulatorAction): boolean;
  /** sensors that stopped reporting */
  readonly silent: ReadonlySet<Id>;
}

const WEIGHTS: Array<[SimulatorAction, number]> = [
  ['occupancy', 35], ['environment', 25], ['move', 20], ['heartbeat', 10], ['reservation', 5], ['ticket', 3], ['silence', 2],
];
const SIMULATED_TICKETS_MAX = 40;
const TOTAL_WEIGHT = WEIGHTS.reduce((s, [, w]) => s + w, 0);

function bbox(outline: Vec2[] | null): { x: number; y: number; w: number; d: number } | null {
  if (!outline || outline.length === 0) return null;
  const xs = outline.map((p) => p[0]);
  const ys = outline.map((p) => p[1]);
  const x = Math.min(...xs); const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, d: Math.max(...ys) - y };
}

export function createSimulator(store: Store, options: SimulatorOptions = {}): Simulator {
  const rng: Prng = createPrng((options.seed ?? 1) * 7919 + 17);
  const rate = options.rate ?? 5;
  const tickMs = options.tickMs ?? 1000;
  const silent = new Set<Id>();
  let timer: unknown = null;
  let carry = 0;
  let indexedSize = -1;
  let indexedAssets = -1;
  let floorsByLocation = new Map<Id, WireAsset[]>();
  let zonesByFloor = new Map<Id, WireAsset[]>();
  let byType = new Map<string, Id[]>();
  let pending: Array<{ sensorId: Id; value: WireMeasurementValue }> = [];
  const created: Id[] = [];

  function index(): void {
    if (store.assets.size !== indexedAssets) {
      // floors and zones rarely change; re-read them only when assets come or go
      indexedAssets = store.assets.size;
      floorsByLocation = new Map();
      zonesByFloor = new Map();
      for (const a of store.assets.values()) {
        if (a.type === 'floor' && !a.hidden && !a.unpublished) {
          const list = floorsByLocation.get(a.location_id) ?? [];
          floorsByLocation.set(a.location_id, list);
          list.push(a);
        } else if (a.type === 'zone' && a.parent_id) {
          const list = zonesByFloor.get(a.parent_id) ?? [];
          zonesByFloor.set(a.parent_id, list);
          list.push(a);
        }
      }
    }
    if (store.sensors.size === indexedSize) return;
    indexedSize = store.sensors.size;
    byType = new Map();
    for (const s of store.sensors.values()) {
      const list = byType.get(s.type) ?? [];
      byType.set(s.type, list);
      list.push(s.id);
    }
    if (silent.size === 0) {
      const fraction = options.silentFraction ?? 0.05;
      for (const type of ['occupancy', ...ENVIRONMENT_TYPES]) {
        for (const id of byType.get(type) ?? []) if (rng.chance(fraction)) silent.add(id);
      }
    }
  }
  const now = () => store.clock.now();
  const timezoneOf = (sensorId: Id) => store.locations.get(store.sensors.get(sensorId)!.location_id)?.timezone ?? 'UTC';
  function pickSensor(types: readonly string[]): Id | null {
    const lists = types.map((t) => byType.get(t) ?? []).filter((l) => l.length > 0);
    if (lists.length === 0) return null;
    for (let tries = 0; tries < 5; tries += 1) {
      const id = rng.pick(rng.pick(lists));
      if (!silent.has(id) && store.sensors.has(id)) return id;
    }
    return null;
  }
  function reading(types: readonly string[]): boolean {
    const id = pickSensor(types);
    if (!id) return false;
    const sensor = store.sensors.get(id)!;
    const t = now();
    const value = sensor.type === 'occupancy'
      ? (sensor.value === 1 ? (rng.chance(0.7) ? 0 : 1) : sensorReading('occupancy', localHour(t, timezoneOf(id)), rng))
      : sensorReading(sensor.type, localHour(t, timezoneOf(id)), rng);
    pending.push({ sensorId: id, value: { time: t, valid_for: validityOf(sensor.type), value, battery_level: sensor.last_status.battery_level } });
    return true;
  }
  function move(): boolean {
    const id = pickSensor(['location']);
    if (!id) return false;
    const sensor = store.sensors.get(id)!;
    const floors = floorsByLocation.get(sensor.location_id) ?? [];
    if (floors.length === 0) return false;
    const last = sensor.last_measurement;
    // mostly stay on the floor, sometimes take the stairs
    const floor = last?.floor_id && rng.chance(0.8) ? floors.find((f) => f.id === last.floor_id) ?? rng.pick(floors) : rng.pick(floors);
    const zones = zonesByFloor.get(floor.id) ?? [];
    const target = zones.length ? bbox(rng.pick(zones).outline) : bbox(floor.outline);
    if (!target) return false;
    const x = Math.round(rng.range(target.x + 0.3, target.x + Math.max(0.4, target.w - 0.3)) * 10) / 10;
    const y = Math.round(rng.range(target.y + 0.3, target.y + Math.max(0.4, target.d - 0.3)) * 10) / 10;
    const inside = zones.filter((z) => {
      const b = bbox(z.outline);
      return b && x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.d;
    }).map((z) => z.id);
    pending.push({
      sensorId: id,
      value: { time: now(), valid_for: validityOf('location'), x, y, floor_id: floor.id, floor: floor.building_relative_index ?? 0, zones: inside, battery_level: sensor.last_status.battery_level },
    });
    return true;
  }
  function heartbeat(): boolean {
    const id = pickSensor(['occupancy', 'location', ...ENVIRONMENT_TYPES, ...OTHER_SENSOR_LAYERS]);
    if (!id) return false;
    const battery = store.sensors.get(id)!.last_status.battery_level ?? 100;
    store.heartbeat(id, now(), Math.max(0, battery - (rng.chance(0.1) ? 1 : 0)));
    return true;
  }
  function reservation(): boolean {
    const id = pickSensor(['reservation']);
    if (!id) return false;
    const sensor = store.sensors.get(id)!;
    const t = now();
    const events = [...((sensor.last_measurement?.events ?? []) as ReservationEvent[])];
    const active = events.find((e) => e.start < t && t < e.end);
    let next: ReservationEvent[];
    if (active) {
      // the meeting ends early
      next = events.map((e) => (e === active ? { ...e, end: t } : e));
    } else {
      const start = t - rng.int(0, 5) * 60_000;
      const end = start + rng.pick([15, 30, 45, 60]) * 60_000;
      if (events.some((e) => e.start < end && start < e.end)) return false;
      const bookingRef = `sim-${id}-${t}`;
      const room = sensor.asset_id ?? '';
      store.bookings.set(bookingRef, { bookingRef, sensorId: id, roomId: room, userId: '' });
      next = [...events, { start, end, subject: rng.pick(['Ad-hoc sync', 'Call', 'Workshop']), user_id: null, booking_ref: bookingRef }];
    }
    next.sort((a, b) => a.start - b.start);
    pending.push({ sensorId: id, value: { time: t, valid_for: validityOf('reservation'), events: next } });
    return true;
  }
  function ticket(): boolean {
    const floors = [...floorsByLocation.values()].flat();
    if (floors.length === 0) return false;
    const floor = rng.pick(floors);
    const isTicket = rng.chance(0.5);
    const label = isTicket ? rng.pick(TICKET_LABELS) : rng.pick(VOICE_LABELS);
    const text = isTicket
      ? rng.pick(['Printer out of toner', 'Light flickering', 'Spill by the kitchen', 'Wi-Fi drops here'])
      : rng.pick(['Love the new sofas', 'Too cold in here', 'Great quiet room', 'More standing desks please']);
    const t = now();
    const validFor = isTicket ? 30 * 86_400_000 : 3 * 86_400_000;
    const value: TicketValue = { text, label, status: 'open', email: null, time: t, valid_for: validFor, valid_to: t + validFor };
    const box = bbox(floor.outline) ?? { x: 0, y: 0, w: 10, d: 10 };
    const body: Partial<WireAsset> = {
      type: isTicket ? 'ticket' : 'voice', subtype: label, name: text, parent_id: floor.id, value, speech_bubble: text,
      x: rng.range(box.x + 2, box.x + box.w - 2), y: rng.range(box.y + 8, box.y + box.d - 2), votes: { up: 0, down: 0 },
      timeout_action: isTicket ? null : 'fade_out',
    };
    created.push(store.createAsset(floor.location_id, body, null).id);
    // keep the map readable: the oldest simulated ticket or voice goes away
    while (created.length > SIMULATED_TICKETS_MAX) {
      const old = created.shift()!;
      if (store.assets.has(old)) store.deleteAsset(old);
    }
    return true;
  }
  function silence(): boolean {
    const id = pickSensor(['occupancy', ...ENVIRONMENT_TYPES]);
    if (!id) return false;
    silent.add(id);
    // now and then a silent sensor comes back, so both directions happen
    if (silent.size > 1 && rng.chance(0.3)) silent.delete(rng.pick([...silent]));
    return true;
  }

  function perform(action: SimulatorAction): boolean {
    switch (action) {
      case 'occupancy': return reading(['occupancy']);
      case 'environment': return reading([...ENVIRONMENT_TYPES, ...OTHER_SENSOR_LAYERS]);
      case 'move': return move();
      case 'heartbeat': flush(); return heartbeat();
      case 'reservation': return reservation();
      case 'ticket': flush(); return ticket();
      case 'silence': return silence();
    }
  }
  function act(action: SimulatorAction): boolean {
    index();
    const done = perform(action);
    flush();
    return done;
  }
  function flush(): void {
    if (pending.length === 0) return;
    const items = pending;
    pending = [];
    store.addMeasurements(items);
  }
  function randomAction(): SimulatorAction {
    let r = rng.next() * TOTAL_WEIGHT;
    for (const [a, w] of WEIGHTS) {
      r -= w;
      if (r < 0) return a;
    }
    return 'occupancy';
  }
  function step(count = 1): void {
    index();
    for (let i = 0; i < count; i += 1) perform(randomAction());
    // one batch per tick: fewer, larger packets (DESIGN §7, batch on the producer side)
    flush();
  }
  function tick(): void {
    carry += (rate * tickMs) / 1000;
    const n = Math.floor(carry);
    carry -= n;
    if (n > 0) step(n);
    timer = store.clock.setTimeout(tick, tickMs);
  }

  return {
    get running() { return timer !== null; },
    silent,
    act,
    step,
    start() {
      if (timer === null) timer = store.clock.setTimeout(tick, tickMs);
    },
    stop() {
      if (timer !== null) store.clock.clearTimeout(timer);
      timer = null;
    },
  };
}
