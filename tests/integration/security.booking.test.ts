// Booking is a feature an organization turns on (`assetBookingFeature`,
// spec §9, default off), resolved room → floor → building → location →
// organization → base (spec §3). The viewer hides the booking controls where
// it is off; a user who sends POST /booking by hand must meet the same rule
// on the real server: refused with the error shape of every refusal, nothing
// stored, nothing published.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restPaths, type BookingResponse, type WireAsset } from '../../src/shared/rest.js';
import type { Config } from '../../src/shared/types.js';
import { BOOKING_DISABLED_MESSAGE } from '../../server/routes/booking.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { storeFingerprint } from './support/attack.js';

const REFUSED = { statusCode: 403, error: 'Forbidden', message: BOOKING_DISABLED_MESSAGE };

describe('security: booking where the feature is off', () => {
  let t: TestServer;
  let tokens: Awaited<ReturnType<TestServer['signInAll']>>;
  let org: string;
  let loc: string;
  let room: WireAsset;
  let slot = 0;

  /** a free half hour, a day further each call, so bookings never overlap */
  const book = (token: string, roomId = room.id) => {
    slot += 1;
    const start = t.server.store.clock.now() + (40 + slot) * 86_400_000;
    return t.api(restPaths.booking(), { method: 'POST', token, json: { room_id: roomId, start, end: start + 1_800_000, subject: 'Planning' } });
  };
  /** a refused booking: the shape of every refusal, and nothing stored or published */
  async function expectRefused(token: string, roomId?: string) {
    const before = storeFingerprint(t);
    let published = 0;
    const stop = t.server.publisher.onPublish(() => { published += 1; });
    const res = await book(token, roomId);
    stop();
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(REFUSED);
    expect(storeFingerprint(t)).toBe(before);
    expect(published).toBe(0);
  }
  const patch = async (path: string, config: Config) => {
    expect((await t.api(path, { method: 'PATCH', token: tokens.admin, json: { config } })).status).toBe(200);
  };
  const configOf = <T extends { config?: Config | null }>(entity: T | undefined) => ({ ...(entity?.config ?? {}) });

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    org = t.accounts.regular.organizationId;
    loc = t.server.seed.locationIds[0]!;
    room = [...t.server.store.assets.values()].find((a) => a.type === 'room' && a.location_id === loc && a.data_provider_refs.reservation
      && t.server.store.isAssetPublic(a))!;
    expect(room).toBeDefined();
  });
  afterAll(async () => { await t?.close(); });

  it('books where the organization turns the feature on (the demo organization)', async () => {
    expect(t.server.store.organizations.get(org)!.config).toMatchObject({ assetBookingFeature: true });
    expect((await book(tokens.regular)).status).toBe(201);
  });

  it('refuses every role when the location turns it off, and cancelling an earlier booking still works', async () => {
    const earlier = (await (await book(tokens.regular)).json()) as BookingResponse;
    await patch(restPaths.location(org, loc), { ...configOf(t.server.store.locations.get(loc)), assetBookingFeature: false });
    for (const who of ['regular', 'edit', 'admin'] as const) await expectRefused(tokens[who]);
    const cancel = await t.api(restPaths.booking(), { method: 'DELETE', token: tokens.regular, json: { room_id: room.id, booking_ref: earlier.booking_ref } });
    expect(cancel.status).toBe(204);
  });

  it('follows the nearest level: the location turning it on wins over the organization turning it off', async () => {
    const orgConfig = configOf(t.server.store.organizations.get(org));
    await patch(restPaths.organization(org), { ...orgConfig, assetBookingFeature: false });
    await patch(restPaths.location(org, loc), { ...configOf(t.server.store.locations.get(loc)), assetBookingFeature: true });
    expect((await book(tokens.regular)).status).toBe(201);
    const { assetBookingFeature: _, ...withoutFlag } = configOf(t.server.store.locations.get(loc)) as Config & { assetBookingFeature?: boolean };
    await patch(restPaths.location(org, loc), withoutFlag);
    await expectRefused(tokens.regular);
    await patch(restPaths.organization(org), orgConfig);
    expect((await book(tokens.regular)).status).toBe(201);
  });

  it('refuses a room whose own configuration turns it off', async () => {
    expect((await t.api(restPaths.asset(org, loc, room.id), { method: 'PATCH', token: tokens.edit, json: { config: { ...configOf(room), assetBookingFeature: false } } })).status).toBe(200);
    await expectRefused(tokens.regular);
    expect((await t.api(restPaths.asset(org, loc, room.id), { method: 'PATCH', token: tokens.edit, json: { config: { ...configOf(room), assetBookingFeature: true } } })).status).toBe(200);
    expect((await book(tokens.regular)).status).toBe(201);
  });

  it('refuses in an organization that never turned it on (the default is off)', async () => {
    const other = t.accounts.otherOrg.organizationId;
    expect(t.server.store.organizations.get(other)!.config?.assetBookingFeature).toBeUndefined();
    const otherRoom = [...t.server.store.assets.values()].find((a) => a.type === 'room' && a.data_provider_refs.reservation
      && t.server.store.locations.get(a.location_id)?.organization_id === other)!;
    expect(otherRoom).toBeDefined();
    await expectRefused(tokens.otherOrg, otherRoom.id);
  });
});
