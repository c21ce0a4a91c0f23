import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASUREMENT_PAGE_LIMIT } from '../../src/shared/constants.js';
import { STREAM_SEQUENCE_HEADER } from '../../src/shared/protocol.js';
import { restPaths, type MeasurementsQuery, type MeasurementsResponse, type WireSensor } from '../../src/shared/rest.js';
import { HISTORY_MAX_ROWS } from '../../server/store/store.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('server sensors and measurements', () => {
  let t: TestServer;
  let edit: string;
  let regular: string;
  let other: string;
  let org: string;
  let loc: string;
  beforeAll(async () => {
    t = await startTestServer();
    ({ edit, regular, otherOrg: other } = await t.signInAll());
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
  });
  afterAll(async () => { await t?.close(); });
  const measurements = async (type: string, query: MeasurementsQuery, token = regular) => {
    const res = await t.api(restPaths.measurements(org, loc, type, query), { token });
    expect(res.status).toBe(200);
    return (await res.json()) as MeasurementsResponse;
  };

  describe('GET .../sensors', () => {
    it('answers every sensor layer of spec §2 with the location stream position', async () => {
      const res = await t.api(restPaths.sensors(org, loc), { token: regular });
      expect(res.status).toBe(200);
      expect(res.headers.get(STREAM_SEQUENCE_HEADER)).toMatch(/^\d+$/);
      const types = new Set(((await res.json()) as WireSensor[]).map((s) => s.type));
      for (const type of ['tvoc', 'temperature', 'humidity', 'co2', 'illuminance', 'pressure', 'loudness', 'satisfaction', 'stress', 'service', 'devices', 'monitoring', 'mesh', 'occupancy', 'reservation', 'location']) {
        expect(types).toContain(type);
      }
    });
    it('leaves inactive sensors out unless include_inactive=true', async () => {
      const sensor = [...t.server.store.sensors.values()].find((s) => s.location_id === loc && s.type === 'mesh')!;
      expect((await t.api(restPaths.sensor(org, loc, sensor.id), { method: 'PATCH', token: edit, json: { active: false } })).status).toBe(200);
      const active = (await (await t.api(restPaths.sensors(org, loc), { token: regular })).json()) as WireSensor[];
      const all = (await (await t.api(restPaths.sensors(org, loc, { include_inactive: true }), { token: regular })).json()) as WireSensor[];
      expect(active.some((s) => s.id === sensor.id)).toBe(false);
      expect(all.some((s) => s.id === sensor.id)).toBe(true);
    });
    it('lets the edit role create, read, update and delete a sensor; refuses the regular role with 403', async () => {
      expect((await t.api(restPaths.sensors(org, loc), { method: 'POST', token: regular, json: { type: 'co2' } })).status).toBe(403);
      const created = await t.api(restPaths.sensors(org, loc), { method: 'POST', token: edit, json: { type: 'co2', vendor_id: 'v1' } });
      expect(created.status).toBe(201);
      const sensor = (await created.json()) as WireSensor;
      expect((await t.api(restPaths.sensor(org, loc, sensor.id), { token: regular })).status).toBe(200);
      expect((await t.api(restPaths.sensor(org, loc, sensor.id), { method: 'PATCH', token: regular, json: { vendor_id: 'x' } })).status).toBe(403);
      expect((await t.api(restPaths.sensor(org, loc, sensor.id), { method: 'PATCH', token: edit, json: { vendor_id: 42 } })).status).toBe(400);
      expect((await t.api(restPaths.sensor(org, loc, sensor.id), { method: 'DELETE', token: edit })).status).toBe(204);
      expect((await t.api(restPaths.sensor(org, loc, sensor.id), { token: edit })).status).toBe(404);
      expect((await t.api(restPaths.sensors(org, loc), { method: 'POST', token: edit, json: {} })).status).toBe(400);
      expect((await t.api(restPaths.sensors(org, loc), { token: other })).status).toBe(403);
    });
  });

  describe('GET .../measurements/{type}', () => {
    it('answers columns, rows and has_more_results', async () => {
      const page = await measurements('co2', {});
      expect(page.columns).toEqual(['time', 'sensor_id', 'valid_for', 'value', 'battery_level']);
      expect(page.rows.length).toBeGreaterThan(0);
      expect(page.has_more_results).toBe(false);
      const location = await measurements('location', {});
      expect(location.columns).toEqual(['time', 'sensor_id', 'valid_for', 'value', 'battery_level', 'x', 'y', 'floor_id', 'zones']);
    });
    it('pages by advancing start past the last time, across several pages, losing and repeating nothing', async () => {
      const all = await measurements('temperature', { start: 0 });
      const collected: unknown[][] = [];
      let start = 0;
      let pages = 0;
      for (;;) {
        const page = await measurements('temperature', { start, limit: 7, ignore_previous_validity: pages > 0 });
        pages += 1;
        expect(page.rows.length).toBeLessThanOrEqual(7);
        collected.push(...page.rows);
        if (!page.has_more_results) break;
        start = (page.rows.at(-1)![0] as number) + 1;
      }
      expect(pages).toBeGreaterThan(3);
      expect(collected).toEqual(all.rows);
      const times = collected.map((r) => r[0] as number);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    });
    it('filters by repeated sensor_id and by end', async () => {
      const ids = [...t.server.store.sensors.values()].filter((s) => s.location_id === loc && s.type === 'humidity').slice(0, 2).map((s) => s.id);
      const page = await measurements('humidity', { sensor_id: ids });
      expect(new Set(page.rows.map((r) => r[1]))).toEqual(new Set(ids));
      const end = page.rows[Math.floor(page.rows.length / 2)]![0] as number;
      const early = await measurements('humidity', { sensor_id: ids, end });
      expect(early.rows.every((r) => (r[0] as number) < end)).toBe(true);
    });
    it('includes the reading still valid at start unless ignore_previous_validity=true', async () => {
      const sensor = [...t.server.store.sensors.values()].find((s) => s.location_id === loc && s.type === 'pressure')!;
      const rows = t.server.store.history.get(sensor.id)!;
      const start = rows.at(-1)!.time + 1;
      const withPrevious = await measurements('pressure', { sensor_id: sensor.id, start });
      const without = await measurements('pressure', { sensor_id: sensor.id, start, ignore_previous_validity: true });
      expect(withPrevious.rows.map((r) => r[0])).toEqual([rows.at(-1)!.time]);
      expect(without.rows).toEqual([]);
    });
    it('never splits one timestamp across pages', async () => {
      const ids = [...t.server.store.sensors.values()].filter((s) => s.location_id === loc && s.type === 'loudness').slice(0, 4).map((s) => s.id);
      const time = Date.now() + 60_000;
      const ingest = await fetch(`${t.url}/v2/measurements`, {
        method: 'POST', headers: { authorization: `Bearer ${edit}`, 'content-type': 'application/json' },
        body: JSON.stringify({ measurements: ids.map((id) => ({ sensor_id: id, value: { time, valid_for: 60_000, value: 50 } })) }),
      });
      expect(ingest.status).toBe(200);
      const first = await measurements('loudness', { sensor_id: ids, start: time - 1, limit: 3, ignore_previous_validity: true, end: time + 1 });
      expect(first.rows).toHaveLength(4);
      expect(first.has_more_results).toBe(false);
    });
    it(`refuses a limit above ${MEASUREMENT_PAGE_LIMIT} and malformed queries with 400`, async () => {
      expect((await t.api(restPaths.measurements(org, loc, 'co2', { limit: 20001 }), { token: regular })).status).toBe(400);
      expect((await t.api(`${restPaths.measurements(org, loc, 'co2')}?start=yesterday`, { token: regular })).status).toBe(400);
      expect((await t.api(restPaths.measurements(org, loc, 'co2', { start: 10, end: 5 }), { token: regular })).status).toBe(400);
      expect((await t.api(restPaths.measurements(org, loc, 'co2')))).toHaveProperty('status', 401);
      expect((await t.api(restPaths.measurements(org, loc, 'co2'), { token: other })).status).toBe(403);
      expect((await t.api(restPaths.measurements(org, '999999', 'co2'), { token: regular })).status).toBe(404);
    });
  });

  describe('POST /v2/measurements', () => {
    const post = (token: string | null, body: unknown) => fetch(`${t.url}/v2/measurements`, {
      method: 'POST', headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    it('stores readings, updates the sensor, and publishes them', async () => {
      const sensor = [...t.server.store.sensors.values()].find((s) => s.location_id === loc && s.type === 'co2')!;
      const scope = { kind: 'location' as const, organizationId: org, locationId: loc };
      const before = t.server.publisher.position(scope).stream_sequence;
      const time = Date.now();
      const res = await post(edit, { measurements: [{ sensor_id: sensor.id, value: { time, valid_for: 600_000, value: 777 } }] });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ accepted: 1 });
      expect(t.server.store.sensors.get(sensor.id)!.value).toBe(777);
      expect(t.server.publisher.position(scope).stream_sequence).toBe(before + 1);
    });
    it('refuses the regular role with 403, no token with 401, and a bad item with 400 storing nothing', async () => {
      const sensor = [...t.server.store.sensors.values()].find((s) => s.location_id === loc && s.type === 'co2')!;
      const good = { sensor_id: sensor.id, value: { time: Date.now(), valid_for: 1000, value: 1 } };
      expect((await post(regular, { measurements: [good] })).status).toBe(403);
      expect((await post(null, { measurements: [good] })).status).toBe(401);
      const rows = t.server.store.history.get(sensor.id)!.length;
      expect((await post(edit, { measurements: [good, { sensor_id: '999999', value: { time: 1 } }] })).status).toBe(400);
      expect((await post(edit, { measurements: [good, { sensor_id: sensor.id, value: { valid_for: 1 } }] })).status).toBe(400);
      expect((await post(edit, { measurements: [] })).status).toBe(400);
      const otherSensor = [...t.server.store.sensors.values()].find((s) => s.location_id === t.server.seed.otherLocationId)!;
      expect((await post(edit, { measurements: [{ sensor_id: otherSensor.id, value: { time: 1 } }] })).status).toBe(400);
      expect(t.server.store.history.get(sensor.id)!.length).toBe(rows);
    });

    const newSensor = async () => {
      const res = await t.api(restPaths.sensors(org, loc), { method: 'POST', token: edit, json: { type: 'co2' } });
      expect(res.status).toBe(201);
      return ((await res.json()) as WireSensor).id;
    };
    const reading = (sensorId: string, time: number, value = 400) => ({ sensor_id: sensorId, value: { time, valid_for: 600_000, value } });

    it('takes a reading of any age: a year and a day late, it is paged on its day and sent live', async () => {
      const sensorId = await newSensor();
      const scope = { kind: 'location' as const, organizationId: org, locationId: loc };
      const before = t.server.publisher.position(scope).stream_sequence;
      const time = Date.now() - 366 * 86_400_000;
      const res = await post(edit, { measurements: [reading(sensorId, time, 612)] });
      expect(res.status).toBe(200);
      expect(t.server.publisher.position(scope).stream_sequence, 'sent live').toBe(before + 1);
      const page = await measurements('co2', { start: time - 60_000, end: time + 60_000, sensor_id: [sensorId] });
      expect(page.rows.map((r) => [r[0], r[3]])).toEqual([[time, 612]]);
    });

    it('refuses with 422, storing nothing, a batch with a reading older than the newest 5,000 it keeps of the sensor', async () => {
      const sensorId = await newSensor();
      const now = Date.now();
      const full = Array.from({ length: HISTORY_MAX_ROWS }, (_, i) => reading(sensorId, now - (HISTORY_MAX_ROWS - i) * 60_000));
      expect((await post(edit, { measurements: full })).status).toBe(200);
      const kept = JSON.stringify(t.server.store.history.get(sensorId));
      const scope = { kind: 'location' as const, organizationId: org, locationId: loc };
      const before = t.server.publisher.position(scope).stream_sequence;

      // older than all it keeps: answered "accepted" and dropped on arrival until 2026-11-24
      const late = now - (HISTORY_MAX_ROWS + 10) * 60_000;
      const res = await post(edit, { measurements: [reading(sensorId, now), reading(sensorId, late)] });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({
        statusCode: 422,
        message: `body/measurements/1/value/time: ${new Date(late).toISOString()} is older than the ${HISTORY_MAX_ROWS} newest readings this server keeps for sensor ${sensorId}; nothing was stored`,
      });
      expect(JSON.stringify(t.server.store.history.get(sensorId)), 'nothing stored').toBe(kept);
      expect(t.server.publisher.position(scope).stream_sequence, 'nothing sent').toBe(before);
      // one batch alone may not overflow a sensor either: its oldest item would go
      const fresh = await newSensor();
      const overflow = Array.from({ length: HISTORY_MAX_ROWS + 1 }, (_, i) => reading(fresh, now - i * 1_000));
      const refused = await post(edit, { measurements: overflow });
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { message: string }).message).toContain(`body/measurements/${HISTORY_MAX_ROWS}/value/time`);
      expect(t.server.store.history.get(fresh)).toBeUndefined();

      // newer than the oldest it keeps: taken, and every reading accepted is paged
      const inside = now - (HISTORY_MAX_ROWS - 1) * 60_000 + 30_000;
      expect((await post(edit, { measurements: [reading(sensorId, inside, 505)] })).status).toBe(200);
      const page = await measurements('co2', { start: inside - 1, end: inside + 1, sensor_id: [sensorId] });
      expect(page.rows.map((r) => r[3])).toContain(505);
    });
  });
});
