// The server keeps what the public may not see in an index updated by every
// asset mutation (server/store/visibilityIndex.ts) instead of scanning all
// assets on each request. A mutation path that skipped it would leak a
// hidden floor or an unpublished asset. So an edit user drives every kind of
// asset mutation through the real REST API — create, update, move to another
// floor, publish and unpublish, hide and show a floor, delete — and after
// each one every role reads everything it can: the asset and sensor lists,
// each asset and sensor by id, the measurements pages, and the public live
// stream replayed over its first load. What each reads must match what a
// full scan of the stored assets (the old code, kept as the oracle) allows.

import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PUSHER_EVENT, STREAM_SEQUENCE_HEADER, pusherChannel, type LiveChange, type StreamScope,
} from '../../src/shared/protocol.js';
import { restPaths, type MeasurementsResponse, type WireAsset, type WireSensor } from '../../src/shared/rest.js';
import type { Role, Settings } from '../../src/shared/types.js';
import { decodePacket } from '../../server/live/packetCodec.js';
import { hiddenIn, isPublicByWalk } from '../../server/store/visibility.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from './support/attack.js';

type Who = Role | 'otherOrg';
const ROLES: Who[] = ['admin', 'edit', 'service', 'regular', 'otherOrg'];
const SEES_ALL = new Set<Who>(['admin', 'edit']);

describe('security: what the public may not see, after every kind of asset mutation', () => {
  let t: TestServer;
  let tokens: Record<Who, string>;
  let org: string;
  let loc: string;
  let pusher: Pusher;
  /** the public stream replayed over a regular user's first load, as a client would */
  const mirror = { assets: new Map<string, WireAsset>(), sensors: new Map<string, WireSensor>(), sequence: 0, ready: false };
  const packets: Array<{ sequence: number; changes: LiveChange[] }> = [];
  /** sensors given a reading, whose measurements pages each role reads */
  const readSensors = new Set<string>();

  const asEdit = async (method: string, path: string, json?: unknown) => {
    const res = await t.api(path, { method, token: tokens.edit, json });
    expect(res.status, `${method} ${path} ${JSON.stringify(json)}`).toBeLessThan(300);
    return res.status === 204 ? null : await res.json();
  };
  const createAsset = async (body: Partial<WireAsset>) => (await asEdit('POST', restPaths.assets(org, loc), body)) as WireAsset;
  const patchAsset = (id: string, patch: Partial<WireAsset>) => asEdit('PATCH', restPaths.asset(org, loc, id), patch);
  const deleteAsset = (id: string) => asEdit('DELETE', restPaths.asset(org, loc, id));
  /** a desk with its occupancy sensor, which has a reading */
  async function createDesk(name: string, parentId: string, extra: Partial<WireAsset> = {}): Promise<WireAsset> {
    const sensor = (await asEdit('POST', restPaths.sensors(org, loc), { type: 'occupancy' })) as WireSensor;
    const desk = await createAsset({
      type: 'shape', subtype: 'desk', name, parent_id: parentId, x: 3, y: 3,
      data_providers: [sensor.id], data_provider_refs: { occupancy: sensor.id }, ...extra,
    });
    await asEdit('PATCH', restPaths.sensor(org, loc, sensor.id), { asset_id: desk.id });
    await asEdit('POST', `${t.url}/v2${restPaths.ingestMeasurements()}`, {
      measurements: [{ sensor_id: sensor.id, value: { time: t.server.store.clock.now(), value: 1 } }],
    });
    readSensors.add(sensor.id);
    return desk;
  }

  /** what a full scan of the stored assets says the public may not see (the oracle) */
  function oracle() {
    const s = t.server.store;
    const hidden = hiddenIn(s.assets.values(), loc, (a) => isPublicByWalk(a, (id) => s.assets.get(id)));
    const sensors = [...s.sensors.values()].filter((x) => x.location_id === loc);
    const hiddenSensors = new Set(sensors.filter((x) => hidden.sensors.has(x.id) || (x.asset_id !== null && hidden.assets.has(x.asset_id))).map((x) => x.id));
    const assets = [...s.assets.values()].filter((a) => a.location_id === loc);
    return { hidden, hiddenSensors, assets, sensors };
  }

  async function read<T>(who: Who, path: string): Promise<{ status: number; body: T | null; text: string }> {
    const res = await t.api(path, { token: tokens[who] });
    const text = await res.text();
    return { status: res.status, body: res.status === 200 ? JSON.parse(text) as T : null, text };
  }

  /** every role reads everything it can; each answer must agree with the oracle */
  async function everyRoleSeesOnlyWhatItMay(step: string) {
    const o = oracle();
    // the index the server answers from agrees with the scan
    const indexed = t.server.store.hiddenIn(loc);
    expect([...o.hidden.assets].filter((id) => !indexed.assets.has(id)), `${step}: hidden assets the index misses`).toEqual([]);
    expect(indexed.assets.size, `${step}: hidden assets the index has in excess`).toBe(o.hidden.assets.size);
    expect([...o.hidden.sensors].filter((id) => !indexed.sensors.has(id)), `${step}: hidden sensors the index misses`).toEqual([]);
    expect(indexed.sensors.size, `${step}: hidden sensors the index has in excess`).toBe(o.hidden.sensors.size);
    expect(o.hidden.assets.size, `${step}: something is hidden`).toBeGreaterThan(0);

    for (const who of ROLES) {
      const at = `${step}, ${who}`;
      const assets = await read<WireAsset[]>(who, restPaths.assets(org, loc));
      const sensors = await read<WireSensor[]>(who, restPaths.sensors(org, loc, { include_inactive: true }));
      if (who === 'otherOrg') {
        // another organization's user reaches nothing of this location
        expect([assets.status, sensors.status], at).toEqual([403, 403]);
        for (const a of o.assets.slice(0, 5)) expect((await read(who, restPaths.asset(org, loc, a.id))).status, at).toBe(403);
        continue;
      }
      const all = SEES_ALL.has(who);
      const shownAssets = o.assets.filter((a) => all || !o.hidden.assets.has(a.id)).map((a) => a.id).sort();
      const shownSensors = o.sensors.filter((x) => all || !o.hiddenSensors.has(x.id)).map((x) => x.id).sort();
      expect(assets.body!.map((a) => a.id).sort(), `${at}: assets listed`).toEqual(shownAssets);
      expect(sensors.body!.map((x) => x.id).sort(), `${at}: sensors listed`).toEqual(shownSensors);
      if (!all) {
        // not even as a building's floor or a parent: no hidden id anywhere in what they read
        for (const id of [...o.hidden.assets, ...o.hiddenSensors]) {
          expect(assets.text.includes(`"${id}"`), `${at}: asset list names hidden ${id}`).toBe(false);
          expect(sensors.text.includes(`"${id}"`), `${at}: sensor list names hidden ${id}`).toBe(false);
        }
      }
      for (const a of o.assets) {
        const one = await read<WireAsset>(who, restPaths.asset(org, loc, a.id));
        expect(one.status, `${at}: GET asset ${a.id} (${a.name})`).toBe(all || !o.hidden.assets.has(a.id) ? 200 : 404);
        if (!all && a.type === 'building') expect(one.body!.floors!.filter((f) => o.hidden.assets.has(f)), at).toEqual([]);
      }
      for (const id of readSensors) {
        if (!t.server.store.sensors.has(id)) continue;
        const may = all || !o.hiddenSensors.has(id);
        expect((await read(who, restPaths.sensor(org, loc, id))).status, `${at}: GET sensor ${id}`).toBe(may ? 200 : 404);
        const page = await read<MeasurementsResponse>(who, restPaths.measurements(org, loc, 'occupancy', { sensor_id: [id], start: 0 }));
        const idAt = page.body!.columns.indexOf('sensor_id');
        expect(page.body!.rows.some((r) => r[idAt] === id), `${at}: readings of sensor ${id}`).toBe(may);
      }
    }
    await publicStreamAgrees(step, o);
  }

  /** the public stream, replayed over the first load, leads to what a regular user's REST load says */
  async function publicStreamAgrees(step: string, o: ReturnType<typeof oracle>) {
    const scope: StreamScope = { kind: 'location', organizationId: org, locationId: loc };
    const position = t.server.publisher.position(scope).stream_sequence;
    await until(() => packets.some((p) => p.sequence >= position) || position <= mirror.sequence, `${step}: the public stream to reach ${position}`);
    for (const p of packets.splice(0).sort((a, b) => a.sequence - b.sequence)) {
      if (p.sequence <= mirror.sequence) continue;
      expect(p.sequence, `${step}: no gap in the public stream`).toBe(mirror.sequence + 1);
      mirror.sequence = p.sequence;
      for (const c of p.changes) {
        const into = c.collection === 'assets' ? mirror.assets : c.collection === 'sensors' ? mirror.sensors : null;
        if (!into) continue;
        if (c.kind === 'deleted') into.delete(c.id);
        else (into as Map<string, unknown>).set(c.id, c.data);
      }
    }
    const publicAssets = o.assets.filter((a) => !o.hidden.assets.has(a.id)).map((a) => a.id).sort();
    expect([...mirror.assets.keys()].sort(), `${step}: assets the public stream leaves a client with`).toEqual(publicAssets);
    const publicSensors = o.sensors.filter((x) => !o.hiddenSensors.has(x.id)).map((x) => x.id).sort();
    expect([...mirror.sensors.keys()].sort(), `${step}: sensors the public stream leaves a client with`).toEqual(publicSensors);
    for (const b of mirror.assets.values()) {
      if (b.type === 'building') expect(b.floors!.filter((f) => o.hidden.assets.has(f)), `${step}: building ${b.id} floors on the stream`).toEqual([]);
    }
  }

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
    const settings = (await (await t.api(`${t.url}/v2/settings`, { token: tokens.regular })).json()) as Settings;
    const pc = settings.pusher_config!;
    pusher = new Pusher(pc.app_key, {
      cluster: pc.cluster, wsHost: pc.ws_host, wsPort: pc.ws_port, forceTLS: false, enabledTransports: ['ws'],
      channelAuthorization: { endpoint: `${t.baseUrl}/pusher/auth`, transport: 'ajax', headers: { Authorization: `Bearer ${tokens.regular}` } },
    });
    const channel = pusher.subscribe(pusherChannel({ kind: 'location', organizationId: org, locationId: loc }));
    channel.bind(PUSHER_EVENT, (payload: string) => {
      const packet = decodePacket(payload);
      expect(packet.frame, 'a change split into frames (this test replays whole packets)').toBeUndefined();
      packets.push({ sequence: packet.stream_sequence, changes: packet.changes });
    });
    await new Promise<void>((resolve, reject) => {
      channel.bind('pusher:subscription_succeeded', () => resolve());
      channel.bind('pusher:subscription_error', (e: { status: number }) => reject(new Error(`subscription refused: ${e.status}`)));
    });
    // the first load, and the stream position it reflects (docs/protocol.md §5)
    const assets = await t.api(restPaths.assets(org, loc), { token: tokens.regular });
    const sensors = await t.api(restPaths.sensors(org, loc, { include_inactive: true }), { token: tokens.regular });
    expect(assets.headers.get(STREAM_SEQUENCE_HEADER)).toBe(sensors.headers.get(STREAM_SEQUENCE_HEADER));
    mirror.sequence = Number(assets.headers.get(STREAM_SEQUENCE_HEADER));
    for (const a of (await assets.json()) as WireAsset[]) mirror.assets.set(a.id, a);
    for (const x of (await sensors.json()) as WireSensor[]) mirror.sensors.set(x.id, x);
  });
  afterAll(async () => {
    pusher?.disconnect();
    await t?.close();
  });

  const floors = () => [...t.server.store.assets.values()].filter((a) => a.location_id === loc && a.type === 'floor');
  const visibleFloor = (n = 0) => floors().filter((f) => !f.hidden && !f.unpublished)[n]!;
  const hiddenFloor = () => floors().find((f) => f.hidden)!;

  it('starts from the seed: a hidden floor, an unpublished desk, each role reading what it may', async () => {
    expect(hiddenFloor()).toBeDefined();
    await everyRoleSeesOnlyWhatItMay('seed');
  });

  let secretDesk: WireAsset;
  let plantDesk: WireAsset;
  let plantRoom: WireAsset;
  let roomDesk: WireAsset;

  it('create: an unpublished desk, a desk on the hidden floor, a room there with a desk inside it', async () => {
    secretDesk = await createDesk('Secret desk', visibleFloor().id, { unpublished: true });
    plantDesk = await createDesk('Plant desk', hiddenFloor().id);
    plantRoom = await createAsset({ type: 'room', name: 'Plant office', parent_id: hiddenFloor().id, x: 2, y: 2 });
    roomDesk = await createDesk('Desk in the plant office', plantRoom.id);
    await everyRoleSeesOnlyWhatItMay('create');
  });

  it('update: renaming hidden assets keeps them hidden; a public desk renamed stays public', async () => {
    await patchAsset(secretDesk.id, { name: 'Secret desk (renamed)' });
    await patchAsset(plantDesk.id, { name: 'Plant desk (renamed)', x: 4 });
    await patchAsset(roomDesk.id, { data_providers: [...roomDesk.data_providers] });
    const desk = [...t.server.store.assets.values()].find((a) => a.location_id === loc && a.subtype === 'desk' && t.server.store.isAssetPublic(a))!;
    await patchAsset(desk.id, { name: `${desk.name} (renamed)` });
    await everyRoleSeesOnlyWhatItMay('update');
  });

  it('publish and unpublish: a desk, then a whole floor', async () => {
    await patchAsset(secretDesk.id, { unpublished: false });
    await everyRoleSeesOnlyWhatItMay('publish a desk');
    await patchAsset(secretDesk.id, { unpublished: true });
    await everyRoleSeesOnlyWhatItMay('unpublish a desk');
    const floor = visibleFloor(1);
    await patchAsset(floor.id, { unpublished: true });
    await everyRoleSeesOnlyWhatItMay('unpublish a floor');
    await patchAsset(floor.id, { unpublished: false });
    await everyRoleSeesOnlyWhatItMay('publish a floor');
  });

  it('hide and show a floor with what stands on it', async () => {
    const floor = visibleFloor(0);
    await patchAsset(floor.id, { hidden: true });
    await everyRoleSeesOnlyWhatItMay('hide a floor');
    await patchAsset(floor.id, { hidden: false });
    await everyRoleSeesOnlyWhatItMay('show a floor');
    // the plant floor shown and hidden again: its desk, room and the desk in the room come and go with it
    await patchAsset(hiddenFloor().id, { hidden: false });
    await everyRoleSeesOnlyWhatItMay('show the plant floor');
    const plant = floors().find((f) => f.id === plantRoom.parent_id)!;
    await patchAsset(plant.id, { hidden: true });
    await everyRoleSeesOnlyWhatItMay('hide the plant floor again');
  });

  it('move to another floor: in and out of the hidden floor, a room carrying the desk inside it', async () => {
    const desk = [...t.server.store.assets.values()].find((a) => a.parent_id === visibleFloor().id && a.subtype === 'desk' && t.server.store.isAssetPublic(a))!;
    await patchAsset(desk.id, { parent_id: hiddenFloor().id });
    await everyRoleSeesOnlyWhatItMay('move a public desk onto the hidden floor');
    await patchAsset(plantDesk.id, { parent_id: visibleFloor().id });
    await everyRoleSeesOnlyWhatItMay('move the plant desk off the hidden floor');
    await patchAsset(plantRoom.id, { parent_id: visibleFloor(1).id });
    await everyRoleSeesOnlyWhatItMay('move the room (with its desk) off the hidden floor');
    await patchAsset(plantRoom.id, { parent_id: hiddenFloor().id });
    await everyRoleSeesOnlyWhatItMay('move the room back onto the hidden floor');
    await patchAsset(roomDesk.id, { parent_id: visibleFloor().id });
    await patchAsset(roomDesk.id, { parent_id: plantRoom.id });
    await everyRoleSeesOnlyWhatItMay('move the desk out of the room and back');
  });

  it('delete: hidden and public desks, then an emptied hidden floor', async () => {
    await deleteAsset(secretDesk.id);
    await deleteAsset(plantDesk.id);
    await everyRoleSeesOnlyWhatItMay('delete desks');
    await deleteAsset(roomDesk.id);
    await deleteAsset(plantRoom.id);
    await everyRoleSeesOnlyWhatItMay('delete the room and its desk');
    const plant = hiddenFloor();
    for (const a of [...t.server.store.assets.values()].filter((x) => x.parent_id === plant.id)) await deleteAsset(a.id);
    await deleteAsset(plant.id);
    // an unpublished desk keeps something hidden for the last check
    await createDesk('Last secret', visibleFloor().id, { unpublished: true });
    await everyRoleSeesOnlyWhatItMay('delete the hidden floor');
  });
});
