// The seeded demo organization (docs/server.md "Demo data"): two locations in
// different timezones, accounts for every role, employees with location tags,
// tickets, voices, bookings, notifications, external objects, and a second
// organization whose user must never see the first one's data.

import { ROLE_PERMISSIONS } from '../../src/shared/constants.js';
import type { ReservationEvent } from '../../src/shared/types.js';
import { TICKET_LABELS, VOICE_LABELS, type TicketValue, type WireAsset } from '../../src/shared/rest.js';
import type { Id, Role } from '../../src/shared/types.js';
import { hashPassword } from '../auth.js';
import type { Store } from '../store/store.js';
import { avatarSvg, rectContains } from './floorLayout.js';
import { seedLocation, type SeededLocation } from './location.js';
import { createPrng, type Prng } from './prng.js';
import { attachHistory, DEFAULT_HISTORY_DAYS } from './seedHistory.js';
import { validityOf } from './sensorValues.js';
import { localDayStart } from './timezone.js';

export interface SeedOptions {
  seed?: number;
  /** desks per location, up to 10,000 */
  desks?: number;
  /** sensors per location, up to 20,000; at least what the desks and rooms need */
  sensors?: number;
  buildings?: number;
  floorsPerBuilding?: number;
  /** employees with location tags, over both locations */
  employees?: number;
  /** local days of generated measurement history before today; default DEFAULT_HISTORY_DAYS (14) */
  historyDays?: number;
  now: number;
}

export interface DemoAccount {
  role: Role | 'otherOrg';
  email: string;
  password: string;
  userId: Id;
  organizationId: Id;
}

export interface SeedResult {
  organizationId: Id;
  locationIds: Id[];
  otherOrganizationId: Id;
  otherLocationId: Id;
  accounts: Record<Role | 'otherOrg', DemoAccount>;
}

export const MAX_DESKS_PER_LOCATION = 10_000;
export const MAX_SENSORS_PER_LOCATION = 20_000;
export const DEMO_DOMAIN = 'storey.test';
export const OTHER_DOMAIN = 'other.test';

const FIRST_NAMES = ['Aino', 'Mikko', 'Sara', 'Juho', 'Emma', 'Leo', 'Olivia', 'Noah', 'Ava', 'Liam', 'Mia', 'Eetu', 'Sofia', 'Elias', 'Isla', 'Onni'];
const LAST_NAMES = ['Virtanen', 'Korhonen', 'Smith', 'Johnson', 'Nieminen', 'Garcia', 'Mäkelä', 'Brown', 'Lee', 'Laine', 'Davis', 'Heikkinen'];

export function seedDemo(store: Store, options: SeedOptions): SeedResult {
  const rng = createPrng(options.seed ?? 1);
  const now = options.now;
  const desks = Math.min(MAX_DESKS_PER_LOCATION, Math.max(1, options.desks ?? 96));
  const sensors = Math.min(MAX_SENSORS_PER_LOCATION, options.sensors ?? 0);
  const historyDays = Math.max(0, options.historyDays ?? DEFAULT_HISTORY_DAYS);
  store.publisher.setMuted(true);
  try {
    const org = store.createOrganization({ name: 'Storey Demo', email_domains: [DEMO_DOMAIN], config: { booking: { showUserBookings: true }, assetBookingFeature: true, wayfindingEnabled: true } });
    const common = { organizationId: org.id, buildings: options.buildings ?? 2, floorsPerBuilding: options.floorsPerBuilding ?? 3, desks, sensors };
    const helsinki = seedLocation(store, rng, { ...common, name: 'Helsinki HQ', timezone: 'Europe/Helsinki', latitude: 60.1699, longitude: 24.9384 });
    const newYork = seedLocation(store, rng, { ...common, name: 'New York', timezone: 'America/New_York', latitude: 40.7484, longitude: -73.9857 });

    const account = (role: Role, first: string, permissions: string[]): DemoAccount => {
      const email = `${role}@${DEMO_DOMAIN}`;
      const user = store.createUser(org.id, { email, first_name: first, last_name: 'Demo', permissions });
      const password = `${role}-password`;
      store.credentials.set(user.id, { passwordHash: hashPassword(password) });
      return { role, email, password, userId: user.id, organizationId: org.id };
    };
    const accounts = {
      admin: account('admin', 'Ada', Object.values(ROLE_PERMISSIONS)),
      edit: account('edit', 'Eddie', [ROLE_PERMISSIONS.edit, ROLE_PERMISSIONS.regular]),
      service: account('service', 'Sam', [ROLE_PERMISSIONS.service, ROLE_PERMISSIONS.regular]),
      regular: account('regular', 'Rita', [ROLE_PERMISSIONS.regular]),
    } as Record<Role, DemoAccount>;

    const employeeCount = options.employees ?? 24;
    const locations = [helsinki, newYork];
    for (let i = 0; i < employeeCount; i += 1) seedEmployee(store, rng, org.id, locations[i % 2]!, i, now);
    for (const loc of locations) {
      seedBookings(store, rng, loc, Object.values(accounts).map((a) => a.userId), now);
      seedTicketsAndVoices(store, rng, loc, accounts.regular.userId, voters(store, org.id, accounts), now);
      seedAutoTags(store, rng, loc, now);
    }
    const bookers = Object.values(accounts).map((a) => a.userId);
    for (const loc of locations) attachHistory(store, loc, { seed: options.seed ?? 1, days: historyDays, now, bookers });
    for (const a of Object.values(accounts)) {
      store.createNotification({ user_id: a.userId, title: 'Welcome to Storey', body: 'Your workplace, live.', created: now - 86_400_000, read: true, level: 'info', link: null });
      store.createNotification({ user_id: a.userId, title: 'Room booked', body: 'Your meeting room booking is confirmed.', created: now - 600_000, read: false, level: 'info', link: null });
    }

    const other = store.createOrganization({ name: 'Other Corp', email_domains: [OTHER_DOMAIN], sso_uri: `https://sso.${OTHER_DOMAIN}/authorize` });
    const otherLoc = seedLocation(store, rng, {
      organizationId: other.id, name: 'Other Office', timezone: 'Asia/Tokyo', latitude: 35.68, longitude: 139.76,
      buildings: 1, floorsPerBuilding: 1, desks: 8, sensors: 0,
    });
    const otherUser = store.createUser(other.id, {
      email: `member@${OTHER_DOMAIN}`, first_name: 'Oscar', last_name: 'Other', permissions: [ROLE_PERMISSIONS.edit, ROLE_PERMISSIONS.regular],
    });
    store.credentials.set(otherUser.id, { passwordHash: hashPassword('other-password') });
    store.createExternalObject({ organization_id: other.id, location_id: null, name: 'Other directory', type: 'directory', data: {} });
    attachHistory(store, otherLoc, { seed: options.seed ?? 1, days: Math.min(historyDays, 2), now, bookers: [otherUser.id] });
    return {
      organizationId: org.id,
      locationIds: locations.map((l) => l.locationId),
      otherOrganizationId: other.id,
      otherLocationId: otherLoc.locationId,
      accounts: {
        ...accounts,
        otherOrg: { role: 'otherOrg', email: otherUser.email, password: 'other-password', userId: otherUser.id, organizationId: other.id },
      },
    };
  } finally {
    // the seed fills records in place (a desk's sensors after the desk): index them once, as after any bulk load
    store.rebuildVisibility();
    store.publisher.setMuted(false);
  }
}

function seedEmployee(store: Store, rng: Prng, orgId: Id, loc: SeededLocation, i: number, now: number): void {
  const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
  const last = LAST_NAMES[(i * 7) % LAST_NAMES.length]!;
  const user = store.createUser(orgId, {
    email: `${first}.${last}.${i}@${DEMO_DOMAIN}`.toLowerCase(), first_name: first, last_name: last,
    permissions: [ROLE_PERMISSIONS.regular], visible: i % 9 !== 8,
    decoration: i % 5 === 0 ? { name: rng.pick(['hat', 'mask', 'crown']) } : null,
  });
  const avatarPath = `avatars/${user.id}.svg`;
  store.files.set(avatarPath, { contentType: 'image/svg+xml', data: Buffer.from(avatarSvg(`${first[0]}${last[0]}`, (i * 47) % 360)) });
  user.avatar_url = avatarPath;
  user.avatar_timestamp = now;
  const directory = store.createExternalObject({ organization_id: orgId, location_id: null, name: `${first} ${last}`, type: 'user', data: { user_id: user.id, department: rng.pick(['Sales', 'R&D', 'Ops', 'HR']) } });
  user.external_objects = [directory.id];
  const sensor = store.createSensor(loc.locationId, { type: 'location', subtype: 'tag', vendor_id: 'demo-tag', legacy_id: `TAG-${1000 + i}` });
  // the first two employees of each location sit in the privacy zone
  const placed = placeInLocation(rng, loc, i < 4 ? 'privacy' : null);
  // placed when created: the store's visibility index learns where an asset stands only through its mutations
  const employee = store.createAsset(loc.locationId, {
    type: 'employee', name: `${first} ${last}`, parent_id: placed.floor_id, x: placed.x, y: placed.y,
    data_providers: [sensor.id], data_provider_refs: { location: sensor.id },
    default_sensor_type: 'location', external_objects: [directory.id], config: { user_id: user.id },
  }, null);
  store.updateSensor(sensor.id, { asset_id: employee.id });
  store.createLocationTag({ organization_id: orgId, location_id: loc.locationId, user_id: user.id, sensor_id: sensor.id });
  store.addMeasurement(sensor.id, { ...placed, time: now - rng.int(0, 120_000), valid_for: validityOf('location'), battery_level: rng.int(30, 100) });
}

/** a random spot on a visible floor; with `zoneKind`, inside such a zone */
export function placeInLocation(rng: Prng, loc: SeededLocation, zoneKind: string | null) {
  const floors = loc.floors.filter((f) => !f.floor.hidden);
  const f = rng.pick(floors);
  const zone = zoneKind ? f.zones.find((z) => z.asset.subtype === zoneKind) : rng.pick(f.zones);
  const r = zone?.rect ?? { x: 1, y: 1, w: f.plan.width - 2, d: f.plan.depth - 2 };
  const x = Math.round(rng.range(r.x + 0.5, r.x + r.w - 0.5) * 10) / 10;
  const y = Math.round(rng.range(r.y + 0.5, r.y + r.d - 0.5) * 10) / 10;
  return {
    x, y, floor_id: f.floor.id, floor: f.floor.building_relative_index ?? 0,
    zones: f.zones.filter((z) => rectContains(z.rect, x, y)).map((z) => z.asset.id),
  };
}

function seedBookings(store: Store, rng: Prng, loc: SeededLocation, bookers: Id[], now: number): void {
  const timezone = store.locations.get(loc.locationId)!.timezone;
  const dayStart = localDayStart(now, timezone);
  for (const room of loc.rooms) {
    const sensorId = room.data_provider_refs.reservation!;
    const events: ReservationEvent[] = [];
    for (let day = 0; day < 2; day += 1) {
      for (let hour = 8; hour < 17; hour += rng.int(1, 3)) {
        if (!rng.chance(0.5)) continue;
        const start = dayStart + day * 86_400_000 + hour * 3_600_000;
        const userId = rng.pick(bookers);
        const bookingRef = `bk-${sensorId}-${events.length + 1}`;
        events.push({ start, end: start + rng.pick([30, 60, 90]) * 60_000, subject: rng.pick(['Stand-up', 'Planning', 'Interview', '1:1', 'Review']), user_id: userId, booking_ref: bookingRef });
        store.bookings.set(bookingRef, { bookingRef, sensorId, roomId: room.id, userId });
      }
    }
    store.addMeasurement(sensorId, { time: now - 60_000, valid_for: validityOf('reservation'), events });
  }
}

/** Employees who may have voted on the seeded tickets and voices: not the demo accounts, whose votes are theirs to cast. */
function voters(store: Store, orgId: Id, accounts: Record<Role, DemoAccount>): Id[] {
  const demo = new Set(Object.values(accounts).map((a) => a.userId));
  return [...store.users.values()].filter((u) => u.organization_id === orgId && !demo.has(u.id)).map((u) => u.id);
}

function seedTicketsAndVoices(store: Store, rng: Prng, loc: SeededLocation, ownerId: Id, voterIds: readonly Id[], now: number): void {
  const floors = loc.floors.filter((f) => !f.floor.hidden);
  const make = (type: 'ticket' | 'voice', label: string, text: string, ageMs: number) => {
    const f = rng.pick(floors);
    const validFor = type === 'voice' ? 3 * 86_400_000 : 30 * 86_400_000;
    const value: TicketValue = { text, label, status: 'open', email: null, time: now - ageMs, valid_for: validFor, valid_to: now - ageMs + validFor };
    const asset: Partial<WireAsset> = {
      type, subtype: label, name: text.slice(0, 40), parent_id: f.floor.id, x: rng.range(3, f.plan.width - 3), y: rng.range(8, f.plan.depth - 3),
      value, speech_bubble: text, timeout_action: type === 'voice' ? 'fade_out' : null,
    };
    // the totals are the count of individual votes, so a person's own vote adds to them and never lowers them
    const [up, down] = [rng.int(0, 5), rng.int(0, 2)];
    const votes = new Map<Id, 1 | -1>();
    for (const [i, voter] of voterIds.slice(0, up + down).entries()) votes.set(voter, i < up ? 1 : -1);
    asset.votes = { up: [...votes.values()].filter((v) => v === 1).length, down: [...votes.values()].filter((v) => v === -1).length };
    const created = store.createAsset(loc.locationId, asset, ownerId);
    store.votes.set(created.id, votes);
  };
  make('ticket', TICKET_LABELS[0], 'Screen flickers at the window desk', 3_600_000);
  make('ticket', TICKET_LABELS[1], 'Coffee spilled near the lift', 600_000);
  make('ticket', TICKET_LABELS[2], 'Door handle loose in meeting room', 2 * 86_400_000);
  make('voice', VOICE_LABELS[0], 'More plants in the quiet zone, please', 7_200_000);
  make('voice', VOICE_LABELS[2], 'Friday breakfast was great!', 86_400_000);
  make('voice', VOICE_LABELS[4], 'This voice is past its time', 4 * 86_400_000);
}

function seedAutoTags(store: Store, rng: Prng, loc: SeededLocation, now: number): void {
  for (const name of ['Projector cart', 'Wheelchair', 'First-aid kit']) {
    const sensor = store.createSensor(loc.locationId, { type: 'location', subtype: 'asset_tag', vendor_id: 'demo-tag' });
    const placed = placeInLocation(rng, loc, null);
    const asset = store.createAsset(loc.locationId, {
      type: 'auto_tag', name, parent_id: placed.floor_id, x: placed.x, y: placed.y,
      data_providers: [sensor.id], data_provider_refs: { location: sensor.id }, default_sensor_type: 'location',
    }, null);
    store.updateSensor(sensor.id, { asset_id: asset.id });
    store.addMeasurement(sensor.id, { ...placed, time: now - rng.int(0, 120_000), valid_for: validityOf('location') });
  }
}
