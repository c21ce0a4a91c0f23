// The reports' role gates (spec §6 reportViewingRolesAtLeast) against a
// caller who skips the viewer: the reports are computed in the worker from
// the measurement pages, so a gate the viewer alone kept let anyone below it
// read the report's data with curl (until 2026-11-25). The server now refuses
// the history a report reads to who may view none of the reports reading it
// (docs/security.md "Report roles"), with the style of every role refusal.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restPaths, type MeasurementsResponse, type WireAsset, type WireSensor } from '../../src/shared/rest.js';
import { isSensorHidden } from '../../server/store/visibility.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('security: report roles enforced on the measurement pages', () => {
  let t: TestServer;
  let tokens: Awaited<ReturnType<TestServer['signInAll']>>;
  let org: string;
  let loc: string;
  let desk: WireAsset;
  let room: WireAsset;
  let co2: WireSensor;

  const page = (token: string, type: string, sensorIds?: string[]) =>
    t.api(restPaths.measurements(org, loc, type, { start: 0, ...(sensorIds ? { sensor_id: sensorIds } : {}) }), { token });
  const sensorsOf = async (res: Response) => {
    expect(res.status).toBe(200);
    const body = await res.json() as MeasurementsResponse;
    const at = body.columns.indexOf('sensor_id');
    return new Set(body.rows.map((r) => r[at] as string));
  };
  const gate = async (gates: Record<string, string>) => {
    const res = await t.api(restPaths.location(org, loc), { method: 'PATCH', token: tokens.admin, json: { config: { reportViewingRolesAtLeast: gates } } });
    expect(res.status).toBe(200);
  };
  const refused = async (res: Response, message: string) => {
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ statusCode: 403, error: 'Forbidden', message });
  };

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    org = t.accounts.regular.organizationId;
    loc = t.server.seed.locationIds[0]!;
    const assets = [...t.server.store.assets.values()].filter((a) => a.location_id === loc && t.server.store.isAssetPublic(a));
    const hasHistory = (id: string | undefined) => !!id && (t.server.store.history.get(id)?.length ?? 0) > 0;
    desk = assets.find((a) => a.subtype === 'desk' && hasHistory(a.data_provider_refs.occupancy))!;
    room = assets.find((a) => a.type === 'room' && hasHistory(a.data_provider_refs.occupancy) && hasHistory(a.data_provider_refs.reservation))!;
    const air = assets.find((a) => a.type !== 'room' && a.subtype !== 'desk' && hasHistory(a.data_provider_refs.co2))!;
    expect(desk && room && air).toBeTruthy();
    co2 = t.server.store.sensors.get(air.data_provider_refs.co2!)!;
  });
  afterAll(async () => { await t?.close(); });

  it('serves every report’s history to every role under the default configuration (regular)', async () => {
    for (const token of [tokens.regular, tokens.service, tokens.edit]) {
      expect(await sensorsOf(await page(token, 'occupancy', [desk.data_provider_refs.occupancy!]))).toContain(desk.data_provider_refs.occupancy);
      expect((await sensorsOf(await page(token, 'location'))).size).toBeGreaterThan(0);
      expect(await sensorsOf(await page(token, 'co2'))).toContain(co2.id);
    }
  });

  it('refuses a desk’s history below the desk and location reports’ role, by name or in the whole type', async () => {
    await gate({ desk: 'edit', location: 'edit' });
    const deskSensor = desk.data_provider_refs.occupancy!;
    const roomSensor = room.data_provider_refs.occupancy!;
    const message = 'Requires the edit role (reportViewingRolesAtLeast.desk): this is the desk report\'s history';
    for (const token of [tokens.regular, tokens.service]) {
      await refused(await page(token, 'occupancy', [deskSensor]), message);
      // hidden among a room's sensor (which the room report, still regular, reads)
      await refused(await page(token, 'occupancy', [roomSensor, deskSensor]), message);
      // the whole type: the rooms' occupancy (room report) without any desk's
      const whole = await sensorsOf(await page(token, 'occupancy'));
      expect(whole).toContain(roomSensor);
      expect(whole).not.toContain(deskSensor);
      const desks = [...t.server.store.assets.values()].filter((a) => a.location_id === loc && a.subtype === 'desk').map((a) => a.data_provider_refs.occupancy);
      expect(desks.filter((id) => id && whole.has(id))).toEqual([]);
      // located people are the location report's alone
      await refused(await page(token, 'location'), 'Requires the edit role (reportViewingRolesAtLeast.location): this is the location report\'s history');
      // what the room and environment reports read stays open
      expect(await sensorsOf(await page(token, 'reservation', [room.data_provider_refs.reservation!]))).toContain(room.data_provider_refs.reservation);
      expect(await sensorsOf(await page(token, 'co2', [co2.id]))).toContain(co2.id);
    }
    for (const token of [tokens.edit, tokens.admin]) {
      expect(await sensorsOf(await page(token, 'occupancy', [deskSensor]))).toContain(deskSensor);
      expect(await sensorsOf(await page(token, 'occupancy'))).toContain(deskSensor);
      expect((await sensorsOf(await page(token, 'location'))).size).toBeGreaterThan(0);
    }
  });

  it('names the weaker gate when two reports read a history: a room’s occupancy under room admin, location edit', async () => {
    await gate({ desk: 'regular', location: 'edit', room: 'admin' });
    const roomSensor = room.data_provider_refs.occupancy!;
    await refused(await page(tokens.regular, 'occupancy', [roomSensor]), 'Requires the edit role (reportViewingRolesAtLeast.location): this is the location report\'s history');
    expect(await sensorsOf(await page(tokens.edit, 'occupancy', [roomSensor]))).toContain(roomSensor);
    // the reservations are the room report's alone
    await refused(await page(tokens.edit, 'reservation', [room.data_provider_refs.reservation!]), 'Requires the admin role (reportViewingRolesAtLeast.room): this is the room report\'s history');
    await refused(await page(tokens.edit, 'reservation'), 'Requires the admin role (reportViewingRolesAtLeast.room): this is the room report\'s history');
    expect(await sensorsOf(await page(tokens.admin, 'reservation'))).toContain(room.data_provider_refs.reservation);
  });

  it('refuses everyone, the admin too, a history whose only report names no role', async () => {
    await gate({ desk: 'regular', location: 'regular', room: 'regular', environment: 'nobody' });
    for (const token of [tokens.regular, tokens.edit, tokens.admin]) {
      await refused(await page(token, 'co2', [co2.id]), 'No role (reportViewingRolesAtLeast.environment names none): this is the environment report\'s history');
      await refused(await page(token, 'co2'), 'No role (reportViewingRolesAtLeast.environment names none): this is the environment report\'s history');
    }
  });

  it('answers a hidden sensor as an unknown one under a gate, never with the gate’s refusal', async () => {
    await gate({ desk: 'edit', location: 'edit', room: 'regular', environment: 'regular' });
    const hiddenHere = t.server.store.hiddenIn(loc);
    const hidden = [...t.server.store.sensors.values()].find((s) => s.location_id === loc && s.type === 'occupancy' && isSensorHidden(s, hiddenHere));
    expect(hidden, 'the seed has a sensor of an unpublished desk or a hidden floor').toBeDefined();
    const asUnknown = await page(tokens.regular, 'occupancy', ['999999999999']);
    expect(asUnknown.status).toBe(200);
    const res = await page(tokens.regular, 'occupancy', [hidden!.id]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(await asUnknown.json());
  });
});
