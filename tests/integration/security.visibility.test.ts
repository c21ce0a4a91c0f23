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
  PUSHER_EVENT, STREAM_SEQUENCE_HEADER, locationStreamScope, pusherChannel, type LiveChange, type StreamScope,
} from '../../src/shared/protocol.js';
import { restPaths, type MeasurementsResponse, type WireAsset, type WireSensor } from '../../src/shared/rest.js';
import type { Role, Settings } from '../../src/shared/types.js';
import { decodePacket } from '../../server/live/packetCodec.js';
import { hiddenIn, isPublicByWalk, sensorsNamedBy } from '../../server/store/visibility.js';
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
  /** a location stream replayed over its first load, as a client would: the public one as a regular user, the edit one as an edit user */
  interface Mirror {
    scope: StreamScope;
    pusher: Pusher | null;
    assets: Map<string, WireAsset>;
    sensors: Map<string, WireSensor>;
    sequence: number;
    packets: Array<{ sequence: number; changes: LiveChange[] }>;
  }
  const mirrors: Mirror[] = [];
  /** sensors given a reading, whose measurements pages each role reads */
  const readSensors = new Set<string>();

  const asEdit = async (method: string, path: string, json?: unknown) => {
    const res = await t.api(path, { method, token: tokens.edit, json });
    expect(res.status, `${method} ${path} ${JSON.stringify(json)}`).toBeLessThan(300);
    return res.status === 204 ? null : await res.json();
  };
  const createAsset = async (body: Partial<WireAsset>) => (await asEdit('POST', restPaths.assets(org, loc), body)) as WireAsset;
  const patchAsset = (id: string, patch: Partial<WireAsset>) => asEdit('PATCH', restPaths.asset(org, loc, id), patch);
  /** assets deleted while hidden, and the sensors they named: never named to the public afterwards either */
  const gone = { assets: new Set<string>(), sensors: new Set<string>() };
  const deleteAsset = (id: string) => {
    const asset = t.server.store.assets.get(id);
    if (asset && oracle().hidden.assets.has(id)) {
      gone.assets.add(id);
      for (const sensorId of sensorsNamedBy(asset)) gone.sensors.add(sensorId);
    }
    return asEdit('DELETE', restPaths.asset(org, loc, id));
  };
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
    // a sensor serving a public asset (named by it, or naming it) is the public's, whatever hidden asset shares it
    const isHidden = (x: WireSensor) => {
      const viaAsset = x.asset_id !== null && (hidden.assets.has(x.asset_id) || gone.assets.has(x.asset_id));
      if (hidden.named.has(x.id) || (x.asset_id !== null && !viaAsset)) return false;
      return viaAsset || hidden.sensors.has(x.id) || gone.sensors.has(x.id);
    };
    const hiddenSensors = new Set(sensors.filter(isHidden).map((x) => x.id));
    const assets = [...s.assets.values()].filter((a) => a.location_id === loc);
    return { hidden, hiddenSensors, assets, sensors };
  }

  /**
   * Ids an asset list names (parents, a building's floors, a portal's targets)
   * that are not in it, for a reader who sees only it (`stored` null), or that
   * are not stored at all, for a reader who sees everything.
   */
  function danglingReferences(assets: WireAsset[], stored: ReadonlySet<string> | null): string[] {
    const known = stored ?? new Set(assets.map((a) => a.id));
    const out: string[] = [];
    for (const a of assets) {
      for (const id of [a.parent_id, ...(a.floors ?? []), ...(a.targets ?? [])]) if (id && !known.has(id)) out.push(`${a.name} → ${id}`);
    }
    return out;
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
    expect([...o.hidden.named].filter((id) => !indexed.named.has(id)), `${step}: sensors of public assets the index misses`).toEqual([]);
    expect(indexed.named.size, `${step}: sensors of public assets the index has in excess`).toBe(o.hidden.named.size);
    expect(o.hidden.assets.size, `${step}: something is hidden`).toBeGreaterThan(0);
    expect([[...indexed.goneAssets].sort(), [...indexed.goneSensors].sort()], `${step}: what the index remembers deleted while hidden`)
      .toEqual([[...gone.assets].sort(), [...gone.sensors].sort()]);

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
        // not even as a building's floor, a parent or a location's building: no hidden id anywhere in what they read
        const location = await read(who, restPaths.location(org, loc));
        const locations = await read(who, restPaths.locations(org));
        for (const id of [...o.hidden.assets, ...o.hiddenSensors, ...gone.assets]) {
          expect(assets.text.includes(`"${id}"`), `${at}: asset list names hidden ${id}`).toBe(false);
          expect(sensors.text.includes(`"${id}"`), `${at}: sensor list names hidden ${id}`).toBe(false);
          expect(location.text.includes(`"${id}"`) || locations.text.includes(`"${id}"`), `${at}: the location names hidden ${id}`).toBe(false);
        }
      }
      expect(danglingReferences(assets.body!, all ? new Set(o.assets.map((a) => a.id)) : null), `${at}: ids named in the asset list`).toEqual([]);
      if (!all) {
        const buildings = (await read<{ buildings: string[] }>(who, restPaths.location(org, loc))).body!.buildings;
        const listed = new Set(assets.body!.map((a) => a.id));
        expect(buildings.filter((b) => !listed.has(b)), `${at}: the location's buildings`).toEqual([]);
      }
      for (const a of o.assets) {
        const one = await read<WireAsset>(who, restPaths.asset(org, loc, a.id));
        expect(one.status, `${at}: GET asset ${a.id} (${a.name})`).toBe(all || !o.hidden.assets.has(a.id) ? 200 : 404);
        if (!all && a.type === 'building' && one.body) expect(one.body.floors!.filter((f) => o.hidden.assets.has(f)), at).toEqual([]);
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

  /** a mirror caught up with its stream's position */
  async function catchUp(mirror: Mirror, step: string): Promise<LiveChange[]> {
    const heard: LiveChange[] = [];
    const name = mirror.scope.kind === 'location' && mirror.scope.audience ? mirror.scope.audience : 'public';
    const position = t.server.publisher.position(mirror.scope).stream_sequence;
    const { packets } = mirror;
    await until(() => packets.some((p) => p.sequence >= position) || position <= mirror.sequence, `${step}: the ${name} stream to reach ${position}`);
    for (const p of packets.splice(0).sort((a, b) => a.sequence - b.sequence)) {
      if (p.sequence <= mirror.sequence) continue;
      expect(p.sequence, `${step}: no gap in the ${name} stream`).toBe(mirror.sequence + 1);
      mirror.sequence = p.sequence;
      heard.push(...p.changes);
      for (const c of p.changes) {
        const into = c.collection === 'assets' ? mirror.assets : c.collection === 'sensors' ? mirror.sensors : null;
        if (!into) continue;
        if (c.kind === 'deleted') into.delete(c.id);
        else (into as Map<string, unknown>).set(c.id, c.data);
      }
    }
    return heard;
  }

  /** what the last check found hidden, and which assets there were */
  let previous: { assets: Set<string>; sensors: Set<string>; ids: Set<string> } | null = null;

  /**
   * The public stream, replayed over the first load, leads to what a regular
   * user's REST load says, naming no hidden id; the edit stream to the stored
   * assets as they are (parents included).
   */
  async function publicStreamAgrees(step: string, o: ReturnType<typeof oracle>) {
    const [mirror, edit] = mirrors as [Mirror, Mirror];
    const heard = JSON.stringify(await catchUp(mirror, step));
    // not even in passing: what was hidden before this step (or is new) and is hidden after it never went out on the public stream
    if (previous) {
      const was = previous;
      const never = [
        ...[...o.hidden.assets].filter((id) => was.assets.has(id) || !was.ids.has(id)),
        ...[...o.hiddenSensors].filter((id) => was.sensors.has(id)),
        ...gone.assets,
      ];
      for (const id of never) expect(heard.includes(`"${id}"`), `${step}: the public stream named hidden ${id} in passing`).toBe(false);
    }
    previous = { assets: new Set(o.hidden.assets), sensors: new Set(o.hiddenSensors), ids: new Set(o.assets.map((a) => a.id)) };
    const publicAssets = o.assets.filter((a) => !o.hidden.assets.has(a.id)).map((a) => a.id).sort();
    expect([...mirror.assets.keys()].sort(), `${step}: assets the public stream leaves a client with`).toEqual(publicAssets);
    const publicSensors = o.sensors.filter((x) => !o.hiddenSensors.has(x.id)).map((x) => x.id).sort();
    expect([...mirror.sensors.keys()].sort(), `${step}: sensors the public stream leaves a client with`).toEqual(publicSensors);
    expect(danglingReferences([...mirror.assets.values()], null), `${step}: ids named on the public stream`).toEqual([]);
    const text = JSON.stringify([...mirror.assets.values(), ...mirror.sensors.values()]);
    for (const id of [...o.hidden.assets, ...o.hiddenSensors, ...gone.assets]) expect(text.includes(`"${id}"`), `${step}: the public stream leaves hidden ${id} named`).toBe(false);
    await catchUp(edit, step);
    const stored = (a: WireAsset) => [a.id, a.parent_id ?? null, !!a.unpublished, !!a.hidden];
    expect([...edit.assets.values()].map(stored).sort(), `${step}: assets the edit stream leaves an editor with`).toEqual(o.assets.map(stored).sort());
  }

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
    for (const who of ['regular', 'edit'] as const) {
      const token = tokens[who];
      const mirror: Mirror = {
        scope: locationStreamScope(org, loc, who === 'edit' ? 'edit' : null),
        pusher: null, assets: new Map(), sensors: new Map(), sequence: 0, packets: [],
      };
      mirrors.push(mirror);
      const settings = (await (await t.api(`${t.url}/v2/settings`, { token })).json()) as Settings;
      const pc = settings.pusher_config!;
      const pusher = mirror.pusher = new Pusher(pc.app_key, {
        cluster: pc.cluster, wsHost: pc.ws_host, wsPort: pc.ws_port, forceTLS: false, enabledTransports: ['ws'],
        channelAuthorization: { endpoint: `${t.baseUrl}/pusher/auth`, transport: 'ajax', headers: { Authorization: `Bearer ${token}` } },
      });
      const channel = pusher.subscribe(pusherChannel(mirror.scope));
      channel.bind(PUSHER_EVENT, (payload: string) => {
        const packet = decodePacket(payload);
        expect(packet.frame, 'a change split into frames (this test replays whole packets)').toBeUndefined();
        mirror.packets.push({ sequence: packet.stream_sequence, changes: packet.changes });
      });
      await new Promise<void>((resolve, reject) => {
        channel.bind('pusher:subscription_succeeded', () => resolve());
        channel.bind('pusher:subscription_error', (e: { status: number }) => reject(new Error(`subscription refused: ${e.status}`)));
      });
      // the first load, and the stream position it reflects (docs/protocol.md §5)
      const assets = await t.api(restPaths.assets(org, loc), { token });
      const sensors = await t.api(restPaths.sensors(org, loc, { include_inactive: true }), { token });
      expect(assets.headers.get(STREAM_SEQUENCE_HEADER)).toBe(sensors.headers.get(STREAM_SEQUENCE_HEADER));
      mirror.sequence = Number(assets.headers.get(STREAM_SEQUENCE_HEADER));
      for (const a of (await assets.json()) as WireAsset[]) mirror.assets.set(a.id, a);
      for (const x of (await sensors.json()) as WireSensor[]) mirror.sensors.set(x.id, x);
    }
  });
  afterAll(async () => {
    for (const m of mirrors) m.pusher?.disconnect();
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
    await everyRoleSeesOnlyWhatItMay('move the desk out of the room, onto a public floor');
    await patchAsset(roomDesk.id, { parent_id: plantRoom.id });
    await everyRoleSeesOnlyWhatItMay('move the desk back into the room');
  });

  /** a regular user, the public's stand-in, meets none of `ids`; an edit user reads each */
  async function onlyEditorsSee(step: string, ids: string[]) {
    for (const id of ids) {
      expect((await read('regular', restPaths.asset(org, loc, id))).status, `${step}: a regular user reads ${id}`).toBe(404);
      expect((await read('edit', restPaths.asset(org, loc, id))).status, `${step}: an editor reads ${id}`).toBe(200);
    }
  }
  const stored = (id: string) => t.server.store.assets.get(id)!;

  it('unpublish a room or a building: what stands in it goes with it, and comes back with it', async () => {
    const room = await createAsset({ type: 'room', name: 'Project room', parent_id: visibleFloor().id, x: 5, y: 5 });
    const desk = await createDesk('Desk in the project room', room.id);
    await everyRoleSeesOnlyWhatItMay('a room with a desk on a public floor');
    await patchAsset(room.id, { unpublished: true });
    await everyRoleSeesOnlyWhatItMay('unpublish the room');
    await onlyEditorsSee('unpublish the room', [room.id, desk.id]);
    await patchAsset(room.id, { unpublished: false });
    await everyRoleSeesOnlyWhatItMay('publish the room');
    expect((await read('regular', restPaths.asset(org, loc, desk.id))).status, 'the desk is back').toBe(200);

    const building = stored(visibleFloor().parent_id!);
    await patchAsset(building.id, { unpublished: true });
    await everyRoleSeesOnlyWhatItMay('unpublish a building');
    await onlyEditorsSee('unpublish a building', [building.id, ...building.floors!, room.id, desk.id]);
    await patchAsset(building.id, { unpublished: false });
    await everyRoleSeesOnlyWhatItMay('publish the building');
  });

  it('a building made with floors, one hidden, and an unpublished building: in the lists as each role may see them', async () => {
    const annex = await createAsset({ type: 'building', name: 'Annex' });
    const ground = await createAsset({ type: 'floor', name: 'Annex 0', parent_id: annex.id, building_relative_index: 0 });
    const roof = await createAsset({ type: 'floor', name: 'Annex roof', parent_id: annex.id, building_relative_index: 1, hidden: true });
    const closed = await createAsset({ type: 'building', name: 'Closed annex', unpublished: true });
    const closedFloor = await createAsset({ type: 'floor', name: 'Closed annex 0', parent_id: closed.id });
    await everyRoleSeesOnlyWhatItMay('a building with a hidden floor, and an unpublished building, made');
    expect(t.server.store.locations.get(loc)!.buildings.slice(-2), 'both named in the location').toEqual([annex.id, closed.id]);
    expect([stored(annex.id).floors, stored(closed.id).floors], 'their floors named in them').toEqual([[ground.id, roof.id], [closedFloor.id]]);
    for (const id of [closedFloor.id, closed.id, roof.id, ground.id, annex.id]) await deleteAsset(id);
    await everyRoleSeesOnlyWhatItMay('the new buildings deleted');
  });

  it('nesting deep on the hidden floor stays hidden; a loop of parents is refused', async () => {
    let parent = hiddenFloor().id;
    const chain: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      parent = (await createAsset({ type: 'zone', name: `Nested zone ${i}`, parent_id: parent, x: 1, y: 1 })).id;
      chain.push(parent);
    }
    const deep = await createDesk('Deep desk', parent);
    await everyRoleSeesOnlyWhatItMay('twelve zones deep on the hidden floor');
    await onlyEditorsSee('twelve zones deep on the hidden floor', [chain[11]!, deep.id]);
    // the top zone under its own desk: the whole chain would stand on nothing
    const before = JSON.stringify(stored(chain[0]!));
    const res = await t.api(restPaths.asset(org, loc, chain[0]!), { method: 'PATCH', token: tokens.edit, json: { parent_id: deep.id } });
    expect(res.status, 'a loop of parents').toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('inside itself');
    expect(JSON.stringify(stored(chain[0]!)), 'nothing changed').toBe(before);
    for (const id of [deep.id, ...chain.reverse()]) await deleteAsset(id);
    await everyRoleSeesOnlyWhatItMay('the chain deleted');
  });

  it('delete a parent: what stood in it moves to its parent and is seen exactly as before', async () => {
    // the room on the hidden floor with its desk: the desk now stands on the hidden floor, still hidden
    expect(roomDesk.parent_id).toBe(plantRoom.id);
    await deleteAsset(plantRoom.id);
    await everyRoleSeesOnlyWhatItMay('delete a room on the hidden floor with a desk in it');
    await onlyEditorsSee('delete a room on the hidden floor with a desk in it', [roomDesk.id]);
    expect(stored(roomDesk.id).parent_id, 'the desk stands on the hidden floor').toBe(hiddenFloor().id);
    expect(stored(roomDesk.id).unpublished ?? false, 'hidden by its floor, not unpublished').toBe(false);

    // an unpublished room on a public floor: its desk stays hidden, unpublished now itself
    const room = await createAsset({ type: 'room', name: 'Closed room', parent_id: visibleFloor().id, x: 6, y: 6, unpublished: true });
    const desk = await createDesk('Desk in the closed room', room.id);
    const inner = await createAsset({ type: 'zone', name: 'Corner of the closed room', parent_id: room.id, x: 6, y: 6 });
    const lamp = await createDesk('Lamp in the corner', inner.id);
    await everyRoleSeesOnlyWhatItMay('an unpublished room with a desk and a zone');
    await deleteAsset(room.id);
    await everyRoleSeesOnlyWhatItMay('delete the unpublished room');
    await onlyEditorsSee('delete the unpublished room', [desk.id, inner.id, lamp.id]);
    expect([stored(desk.id).parent_id, stored(inner.id).parent_id], 'moved to the floor').toEqual([visibleFloor().id, visibleFloor().id]);
    expect([stored(desk.id).unpublished, stored(inner.id).unpublished], 'unpublished, as the room was').toEqual([true, true]);
    expect(stored(lamp.id).parent_id, 'what stood in the zone stays in it').toBe(inner.id);

    // a public room: its desk stays public, on the floor
    const open = await createAsset({ type: 'room', name: 'Open room', parent_id: visibleFloor().id, x: 7, y: 7 });
    const openDesk = await createDesk('Desk in the open room', open.id);
    await deleteAsset(open.id);
    await everyRoleSeesOnlyWhatItMay('delete a public room with a desk in it');
    expect((await read('regular', restPaths.asset(org, loc, openDesk.id))).status, 'the desk stays public').toBe(200);
    expect(stored(openDesk.id).parent_id).toBe(visibleFloor().id);
    for (const id of [lamp.id, inner.id, desk.id, openDesk.id]) await deleteAsset(id);
  });

  it('a sensor shared by a public and an unpublished desk is the public one’s, and hidden with the last public desk gone', async () => {
    const open = await createDesk('Shared desk', visibleFloor().id);
    const sensorId = open.data_providers[0]!;
    const closed = await createAsset({ type: 'shape', subtype: 'desk', name: 'Closed twin', parent_id: visibleFloor().id, x: 2, y: 2, unpublished: true, data_providers: [sensorId] });
    await everyRoleSeesOnlyWhatItMay('a public and an unpublished desk share a sensor');
    expect(oracle().hiddenSensors.has(sensorId), 'the shared sensor is public').toBe(false);
    await asEdit('PATCH', restPaths.sensor(org, loc, sensorId), { asset_id: closed.id });
    await everyRoleSeesOnlyWhatItMay('the shared sensor names the unpublished desk as its own');
    await deleteAsset(open.id);
    await everyRoleSeesOnlyWhatItMay('the public desk deleted');
    expect(oracle().hiddenSensors.has(sensorId), 'served by the unpublished desk only').toBe(true);
    await deleteAsset(closed.id);
    await everyRoleSeesOnlyWhatItMay('the unpublished desk deleted too');
  });

  it('delete: hidden and public desks, then an emptied hidden floor', async () => {
    await deleteAsset(secretDesk.id);
    await deleteAsset(plantDesk.id);
    await everyRoleSeesOnlyWhatItMay('delete desks');
    await deleteAsset(roomDesk.id);
    await everyRoleSeesOnlyWhatItMay('delete the desk of the deleted room');
    const plant = hiddenFloor();
    for (const a of [...t.server.store.assets.values()].filter((x) => x.parent_id === plant.id)) await deleteAsset(a.id);
    await deleteAsset(plant.id);
    // an unpublished desk keeps something hidden for the last check
    await createDesk('Last secret', visibleFloor().id, { unpublished: true });
    await everyRoleSeesOnlyWhatItMay('delete the hidden floor');
  });
});
