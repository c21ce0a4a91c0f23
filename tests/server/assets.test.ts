import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_SEQUENCE_HEADER } from '../../src/shared/protocol.js';
import type { ImageResponse, TicketValue, VoteResponse, WireAsset } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { storeFingerprint } from '../integration/support/attack.js';

describe('server assets', () => {
  let t: TestServer;
  let tokens: Record<'admin' | 'edit' | 'service' | 'regular' | 'otherOrg', string>;
  let org: string;
  let loc: string;
  let base: string;
  let floorId: string;
  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
    base = `/organizations/${org}/locations/${loc}/assets`;
    floorId = [...t.server.store.assets.values()].find((a) => a.location_id === loc && a.type === 'floor' && !a.hidden)!.id;
  });
  afterAll(async () => { await t?.close(); });
  const list = async (token: string, query = '') => (await (await t.api(`${base}${query}`, { token })).json()) as WireAsset[];

  describe('GET .../assets', () => {
    it('answers buildings, floors and placed assets with the location stream position', async () => {
      const res = await t.api(base, { token: tokens.regular });
      expect(res.status).toBe(200);
      expect(res.headers.get(STREAM_SEQUENCE_HEADER)).toMatch(/^\d+$/);
      const types = new Set(((await res.json()) as WireAsset[]).map((a) => a.type));
      for (const type of ['building', 'floor', 'room', 'zone', 'zone_auto', 'floor_outline', 'floor_hole', 'portal', 'employee', 'auto_tag', 'ticket', 'voice', 'container', 'sensor', 'shape']) {
        expect(types).toContain(type);
      }
    });
    it('gives unpublished assets and hidden floors to the edit role only', async () => {
      const regular = await list(tokens.regular);
      const edit = await list(tokens.edit);
      expect(regular.some((a) => a.unpublished)).toBe(false);
      expect(regular.some((a) => a.type === 'floor' && a.hidden)).toBe(false);
      expect(edit.some((a) => a.unpublished)).toBe(true);
      expect(edit.some((a) => a.type === 'floor' && a.hidden)).toBe(true);
      expect(edit.length).toBeGreaterThan(regular.length);
    });
    it('filters by a comma-separated type list', async () => {
      const rooms = await list(tokens.regular, '?type=room,zone');
      expect(new Set(rooms.map((a) => a.type))).toEqual(new Set(['room', 'zone']));
      const zones = rooms.filter((a) => a.type === 'zone').map((a) => a.subtype);
      expect(zones).toEqual(expect.arrayContaining(['generic', 'communication', 'collaboration', 'concentration', 'chilling', 'privacy']));
    });
    it('drops expired tickets and voices with filter_expired=true', async () => {
      const all = await list(tokens.regular, '?type=voice');
      const fresh = await list(tokens.regular, '?type=voice&filter_expired=true');
      expect(all.length).toBeGreaterThan(fresh.length);
      expect(fresh.every((a) => (a.value as TicketValue).valid_to > Date.now())).toBe(true);
    });
    it('refuses another organization with 403 and an unknown location with 404', async () => {
      expect((await t.api(base, { token: tokens.otherOrg })).status).toBe(403);
      expect((await t.api(`/organizations/${org}/locations/999999/assets`, { token: tokens.edit })).status).toBe(404);
      expect((await t.api(`${base}?filter_expired=maybe`, { token: tokens.edit })).status).toBe(400);
    });
  });

  describe('POST, PATCH, DELETE .../assets', () => {
    it('lets the edit role create, update and delete a desk', async () => {
      const created = await t.api(base, { method: 'POST', token: tokens.edit, json: { type: 'shape', subtype: 'desk', name: 'Test desk', parent_id: floorId, x: 1, y: 2 } });
      expect(created.status).toBe(201);
      const desk = (await created.json()) as WireAsset;
      expect(desk).toMatchObject({ width: 1.5, height: 1.5, depth: 1.5, popup_width: 300, popup_height: 250, version: 1 });
      const patched = await t.api(`${base}/${desk.id}`, { method: 'PATCH', token: tokens.edit, json: { name: 'Renamed desk', x: 5 } });
      expect(patched.status).toBe(200);
      expect((await patched.json()) as WireAsset).toMatchObject({ name: 'Renamed desk', x: 5, version: 2 });
      expect((await t.api(`${base}/${desk.id}`, { token: tokens.regular })).status).toBe(200);
      expect((await t.api(`${base}/${desk.id}`, { method: 'DELETE', token: tokens.edit })).status).toBe(204);
      expect((await t.api(`${base}/${desk.id}`, { token: tokens.edit })).status).toBe(404);
    });
    it('refuses the regular and service roles changing desks with 403', async () => {
      const desk = (await list(tokens.regular, '?type=shape'))[0]!;
      expect((await t.api(base, { method: 'POST', token: tokens.regular, json: { type: 'shape', name: 'x', parent_id: floorId } })).status).toBe(403);
      expect((await t.api(`${base}/${desk.id}`, { method: 'PATCH', token: tokens.service, json: { name: 'x' } })).status).toBe(403);
      expect((await t.api(`${base}/${desk.id}`, { method: 'DELETE', token: tokens.regular })).status).toBe(403);
    });
    it('refuses updates carrying read-only fields with 400 naming them, and changes nothing', async () => {
      const desk = (await list(tokens.edit, '?type=shape'))[0]!;
      const before = JSON.stringify(t.server.store.assets.get(desk.id));
      for (const field of ['version', 'creation_timestamp', 'update_timestamp', 'owner_id', 'id', 'uuid']) {
        const res = await t.api(`${base}/${desk.id}`, { method: 'PATCH', token: tokens.edit, json: { name: 'x', [field]: 1 } });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { message: string }).message).toContain(field);
      }
      for (const bad of [{ x: 'left' }, { angles: [1, 2] }, { shade: 'red' }, { type: 'room' }, { parent_id: '999999' }, { data_providers: ['999999'] }]) {
        expect((await t.api(`${base}/${desk.id}`, { method: 'PATCH', token: tokens.edit, json: bad })).status).toBe(400);
      }
      expect(JSON.stringify(t.server.store.assets.get(desk.id))).toBe(before);
    });
    it('takes a deleted building out of its location’s list, so a hidden one is never named once gone', async () => {
      const store = t.server.store;
      const building = store.createAsset(loc, { type: 'building', name: 'Annex', unpublished: true }, null);
      store.updateLocation(loc, { buildings: [...store.locations.get(loc)!.buildings, building.id] });
      const listed = async (token: string) => ((await (await t.api(`/organizations/${org}/locations/${loc}`, { token })).json()) as { buildings: string[] }).buildings;
      expect(await listed(tokens.edit)).toContain(building.id);
      expect(await listed(tokens.regular)).not.toContain(building.id);
      expect((await t.api(`${base}/${building.id}`, { method: 'DELETE', token: tokens.edit })).status).toBe(204);
      expect(await listed(tokens.edit)).not.toContain(building.id);
      expect(await listed(tokens.regular)).not.toContain(building.id);
    });
    it('answers 404 for an unknown or unpublished asset the caller may not see', async () => {
      const hidden = (await list(tokens.edit)).find((a) => a.unpublished)!;
      expect((await t.api(`${base}/${hidden.id}`, { token: tokens.regular })).status).toBe(404);
      expect((await t.api(`${base}/999999`, { token: tokens.edit })).status).toBe(404);
    });
  });

  describe('buildings and floors made and removed through the API', () => {
    const locationPath = () => `/organizations/${org}/locations/${loc}`;
    const buildingsOf = async (token: string) => {
      const res = await t.api(locationPath(), { token });
      expect(res.status).toBe(200);
      return ((await res.json()) as { buildings: string[] }).buildings;
    };
    const get = async (token: string, id: string) => (await (await t.api(`${base}/${id}`, { token })).json()) as WireAsset;
    const create = async (body: Partial<WireAsset>) => {
      const res = await t.api(base, { method: 'POST', token: tokens.edit, json: body });
      expect(res.status).toBe(201);
      return (await res.json()) as WireAsset;
    };
    const remove = async (id: string) => expect((await t.api(`${base}/${id}`, { method: 'DELETE', token: tokens.edit })).status).toBe(204);
    const floor = (parentId: string, name: string, index: number, extra: Partial<WireAsset> = {}) =>
      create({ type: 'floor', name, parent_id: parentId, building_relative_index: index, ...extra });

    it('names a new building in its location and a new floor in its building, in floor order, for every role', async () => {
      const before = await buildingsOf(tokens.regular);
      const building = await create({ type: 'building', name: 'Annex' });
      expect(await buildingsOf(tokens.regular)).toEqual([...before, building.id]);
      expect(await buildingsOf(tokens.edit)).toEqual([...before, building.id]);
      const upper = await floor(building.id, 'Annex 1', 1);
      const ground = await floor(building.id, 'Annex 0', 0);
      const roof = await floor(building.id, 'Annex roof', 2, { hidden: true });
      expect((await get(tokens.edit, building.id)).floors).toEqual([ground.id, upper.id, roof.id]);
      // the hidden floor is the edit role's only
      expect((await get(tokens.regular, building.id)).floors).toEqual([ground.id, upper.id]);

      // a floor moved to another building leaves the first one's list for the other's
      const other = await create({ type: 'building', name: 'Annex B' });
      expect((await t.api(`${base}/${upper.id}`, { method: 'PATCH', token: tokens.edit, json: { parent_id: other.id } })).status).toBe(200);
      expect([(await get(tokens.edit, building.id)).floors, (await get(tokens.edit, other.id)).floors]).toEqual([[ground.id, roof.id], [upper.id]]);

      // deleted: out of the lists again, the default floor kept on the same floor
      expect((await t.api(`${base}/${building.id}`, { method: 'PATCH', token: tokens.edit, json: { default_floor: 1 } })).status).toBe(200);
      await remove(ground.id);
      expect(await get(tokens.edit, building.id)).toMatchObject({ floors: [roof.id], default_floor: 0 });
      for (const id of [roof.id, upper.id, building.id, other.id]) await remove(id);
      expect(await buildingsOf(tokens.edit)).toEqual(before);
    });

    it('refuses floors a building does not hold: none for a new one, a reordering after, a default among them; nothing stored changes', async () => {
      const message = async (res: Response) => ((await res.json()) as { message: string }).message;
      const send = (method: 'POST' | 'PATCH', path: string, json: unknown) => t.api(path, { method, token: tokens.edit, json });
      const stored = (id: string) => t.server.store.assets.get(id)!;
      const someFloor = [...t.server.store.assets.values()].find((a) => a.location_id === loc && a.type === 'floor')!;
      const buildingsBefore = await buildingsOf(tokens.edit);
      const before = storeFingerprint(t);
      // a floor of another building, an id that is nothing, a default with no floors, a desk with floors
      for (const [body, text] of [
        [{ type: 'building', name: 'Thief', floors: [someFloor.id] }, 'body/floors must be empty for a new building'],
        [{ type: 'building', name: 'Ghost', floors: ['999999'] }, 'body/floors must be empty for a new building'],
        [{ type: 'building', name: 'Far default', default_floor: 3 }, 'body/default_floor must index the building\'s floors (0 to 0)'],
        [{ type: 'shape', subtype: 'desk', name: 'Desk with floors', parent_id: someFloor.id, floors: [someFloor.id] }, 'body/floors is a building\'s field'],
      ] as const) {
        const res = await send('POST', base, body);
        expect(res.status, body.name).toBe(400);
        expect(await message(res)).toContain(text);
      }
      expect(storeFingerprint(t), 'nothing created').toBe(before);
      expect(await buildingsOf(tokens.edit)).toEqual(buildingsBefore);

      const building = await create({ type: 'building', name: 'Annex C', floors: [] });
      const ground = await floor(building.id, 'C 0', 0);
      const upper = await floor(building.id, 'C 1', 1);
      const kept = storeFingerprint(t);
      for (const [json, text] of [
        [{ floors: [ground.id, ground.id] }, 'reordering'],
        [{ floors: [ground.id] }, 'reordering'],
        [{ floors: [ground.id, upper.id, someFloor.id] }, 'reordering'],
        [{ floors: [ground.id, '999999'] }, 'reordering'],
        [{ default_floor: 2 }, '(0 to 1)'],
        [{ default_floor: -1 }, '(0 to 1)'],
      ] as const) {
        const res = await send('PATCH', `${base}/${building.id}`, json);
        expect(res.status, JSON.stringify(json)).toBe(400);
        expect(await message(res)).toContain(text);
      }
      const desk = [...t.server.store.assets.values()].find((a) => a.location_id === loc && a.subtype === 'desk' && !a.unpublished)!;
      expect((await send('PATCH', `${base}/${desk.id}`, { default_floor: 0 })).status, 'default_floor on a desk').toBe(400);
      expect(storeFingerprint(t), 'nothing changed').toBe(kept);

      // a reordering is taken, the default floor stays the same floor
      expect((await send('PATCH', `${base}/${building.id}`, { floors: [upper.id, ground.id] })).status).toBe(200);
      expect(await get(tokens.regular, building.id)).toMatchObject({ floors: [upper.id, ground.id], default_floor: 1 });
      // every floor of the location stands in exactly one list: its parent's
      const assets = [...t.server.store.assets.values()].filter((a) => a.location_id === loc);
      for (const f of assets.filter((a) => a.type === 'floor')) {
        expect(assets.filter((a) => a.floors?.includes(f.id)).map((a) => a.id), f.name).toEqual([f.parent_id]);
      }
      expect(stored(building.id).floors).toEqual([upper.id, ground.id]);

      // a location's buildings likewise: a building named twice would crowd another out of every list
      const res = await t.api(locationPath(), { method: 'PATCH', token: tokens.edit, json: { buildings: buildingsBefore.map(() => building.id).concat(building.id) } });
      expect(res.status).toBe(400);
      expect(await buildingsOf(tokens.edit)).toEqual([...buildingsBefore, building.id]);
      for (const id of [ground.id, upper.id, building.id]) await remove(id);
    });

    it('names an unpublished building to the edit role only', async () => {
      const before = await buildingsOf(tokens.regular);
      const building = await create({ type: 'building', name: 'Secret annex', unpublished: true });
      expect(await buildingsOf(tokens.edit)).toEqual([...before, building.id]);
      expect(await buildingsOf(tokens.regular)).toEqual(before);
      const listed = await (await t.api(`/organizations/${org}/locations`, { token: tokens.regular })).text();
      expect(listed.includes(`"${building.id}"`), 'the unpublished building in the locations list').toBe(false);
      expect((await t.api(`${base}/${building.id}`, { method: 'PATCH', token: tokens.edit, json: { unpublished: false } })).status).toBe(200);
      expect(await buildingsOf(tokens.regular)).toEqual([...before, building.id]);
      await remove(building.id);
      expect(await buildingsOf(tokens.regular)).toEqual(before);
    });
  });

  describe('tickets and voices', () => {
    it('lets the regular role open a ticket and the service role move it, nobody else', async () => {
      const created = await t.api(base, {
        method: 'POST', token: tokens.regular, json: { type: 'ticket', subtype: 'cleaning', name: 'Spill', parent_id: floorId, x: 3, y: 9, value: { text: 'Coffee on the floor' } },
      });
      expect(created.status).toBe(201);
      const ticket = (await created.json()) as WireAsset;
      expect(ticket.value).toMatchObject({ text: 'Coffee on the floor', label: 'cleaning', status: 'open' });
      expect(ticket.owner_id).toBe(t.accounts.regular.userId);
      expect((await t.api(`${base}/${ticket.id}`, { method: 'PATCH', token: tokens.regular, json: { value: { status: 'closed' } } })).status).toBe(403);
      expect((await t.api(`${base}/${ticket.id}`, { method: 'PATCH', token: tokens.service, json: { name: 'x' } })).status).toBe(400);
      const moved = await t.api(`${base}/${ticket.id}`, { method: 'PATCH', token: tokens.service, json: { value: { status: 'in_progress' } } });
      expect(moved.status).toBe(200);
      expect(((await moved.json()) as WireAsset).value).toMatchObject({ status: 'in_progress', text: 'Coffee on the floor' });
    });
    it('ends a ticket\'s validity when it is closed, so clients stop drawing it, and starts it again when it is opened again', async () => {
      const created = await t.api(base, {
        method: 'POST', token: tokens.regular, json: { type: 'ticket', subtype: 'it', name: 'Printer', parent_id: floorId, x: 4, y: 4, value: { text: 'Printer jammed' } },
      });
      const ticket = (await created.json()) as WireAsset;
      const open = ticket.value as TicketValue;
      expect(open.valid_to).toBeGreaterThan(Date.now() + 86_400_000);
      const status = async (token: string, value: Record<string, unknown>) => {
        const r = await t.api(`${base}/${ticket.id}`, { method: 'PATCH', token, json: { value } });
        expect(r.status).toBe(200);
        return ((await r.json()) as WireAsset).value as TicketValue;
      };
      const before = Date.now();
      const closed = await status(tokens.service, { status: 'closed' });
      expect(closed).toMatchObject({ status: 'closed', text: 'Printer jammed', time: open.time });
      expect(closed.valid_to).toBeGreaterThanOrEqual(before);
      expect(closed.valid_to).toBeLessThanOrEqual(Date.now());
      expect(closed.valid_for).toBe(closed.valid_to - open.time);
      // gone from a listing of what is still valid, as a timed-out ticket is
      const valid = (await list(tokens.regular, '?type=ticket&filter_expired=true')).map((a) => a.id);
      expect(valid).not.toContain(ticket.id);
      // closing it again moves nothing; opened again, it is valid for a ticket's time from now
      expect((await status(tokens.service, { status: 'closed' })).valid_to).toBe(closed.valid_to);
      const reopened = await status(tokens.service, { status: 'open' });
      expect(reopened.valid_to).toBeGreaterThan(Date.now() + 86_400_000);
      // the edit role closes it through its own path the same way
      const byEdit = await status(tokens.edit, { ...reopened, status: 'closed' });
      expect(byEdit.valid_to).toBeLessThanOrEqual(Date.now());
    });
    it('refuses a ticket label outside it, cleaning, maintenance, facility and a voice without text with 400', async () => {
      expect((await t.api(base, { method: 'POST', token: tokens.regular, json: { type: 'ticket', subtype: 'plumbing', name: 'x', parent_id: floorId, value: { text: 'x' } } })).status).toBe(400);
      expect((await t.api(base, { method: 'POST', token: tokens.regular, json: { type: 'voice', subtype: 'culture', name: 'x', parent_id: floorId, value: {} } })).status).toBe(400);
      const ok = await t.api(base, { method: 'POST', token: tokens.regular, json: { type: 'voice', subtype: 'culture', name: 'x', parent_id: floorId, value: { text: 'Nice!' } } });
      expect(ok.status).toBe(201);
    });
    it('counts one vote per user and takes it back on DELETE', async () => {
      const voice = (await list(tokens.regular, '?type=voice'))[0]!;
      const path = `${base}/${voice.id}/vote`;
      const start = voice.votes!;
      const up = (await (await t.api(path, { method: 'PUT', token: tokens.regular, json: { direction: 1 } })).json()) as VoteResponse;
      const again = (await (await t.api(path, { method: 'PUT', token: tokens.regular, json: { direction: 1 } })).json()) as VoteResponse;
      expect(again).toEqual(up);
      expect(up.mine).toBe(1);
      const down = (await (await t.api(path, { method: 'PUT', token: tokens.edit, json: { direction: -1 } })).json()) as VoteResponse;
      expect(down.down).toBe(up.down + 1);
      const removed = (await (await t.api(path, { method: 'DELETE', token: tokens.regular })).json()) as VoteResponse;
      expect(removed.mine).toBe(0);
      expect(removed.up).toBe(up.up - 1);
      expect(start).toBeDefined();
      expect((await t.api(path, { method: 'PUT', token: tokens.regular, json: { direction: 2 } })).status).toBe(400);
      const desk = (await list(tokens.regular, '?type=shape'))[0]!;
      expect((await t.api(`${base}/${desk.id}/vote`, { method: 'PUT', token: tokens.regular, json: { direction: 1 } })).status).toBe(400);
      expect((await t.api(path, { method: 'PUT', json: { direction: 1 } })).status).toBe(401);
      expect((await t.api(`${base}/999999/vote`, { method: 'PUT', token: tokens.regular, json: { direction: 1 } })).status).toBe(404);
    });
    it('seeds vote totals that are the individual votes, so a first vote adds one and never lowers a count', async () => {
      for (const item of [...(await list(tokens.service, '?type=ticket')), ...(await list(tokens.service, '?type=voice'))]) {
        const seeded = item.votes!;
        const path = `${base}/${item.id}/vote`;
        const up = (await (await t.api(path, { method: 'PUT', token: tokens.service, json: { direction: 1 } })).json()) as VoteResponse;
        expect(up).toEqual({ up: seeded.up + 1, down: seeded.down, mine: 1 });
        const back = (await (await t.api(path, { method: 'DELETE', token: tokens.service })).json()) as VoteResponse;
        expect(back).toEqual({ up: seeded.up, down: seeded.down, mine: 0 });
      }
    });
  });

  describe('PUT .../assets/{id}/images/{name}', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const put = (id: string, name: string, token: string, body: Buffer, type = 'image/png') =>
      fetch(`${t.baseUrl}${base}/${id}/images/${name}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: new Uint8Array(body) });

    it('stores the blob and serves it under cdn_base_url', async () => {
      const room = (await list(tokens.edit, '?type=room'))[0]!;
      const res = await put(room.id, 'texture', tokens.edit, png);
      expect(res.status).toBe(200);
      const image = (await res.json()) as ImageResponse;
      expect(image).toMatchObject({ name: 'texture', content_type: 'image/png', size: png.length });
      const served = await fetch(`${t.url}/v1/files/${image.path}`);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
      expect(t.server.store.assets.get(room.id)!.texture_path).toBe(image.path);
    });
    it('refuses the regular role with 403, a non-image with 400 and an unknown asset with 404', async () => {
      const room = (await list(tokens.edit, '?type=room'))[0]!;
      expect((await put(room.id, 'photo', tokens.regular, png)).status).toBe(403);
      expect((await put(room.id, 'photo', tokens.edit, Buffer.from('{}'), 'application/json')).status).toBe(400);
      expect((await put('999999', 'photo', tokens.edit, png)).status).toBe(404);
      expect((await put(room.id, 'photo', '', png)).status).toBe(401);
    });
    it('serves the generated SVG floor plans of every floor', async () => {
      const floors = (await list(tokens.regular, '?type=floor'));
      for (const f of floors) {
        const res = await fetch(`${t.url}/v1/files/${f.floor_plan_img_path}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('image/svg+xml');
        expect(await res.text()).toMatch(/^<svg /);
      }
      expect((await fetch(`${t.url}/v1/files/floorplans/nope.svg`)).status).toBe(404);
    });
  });
});
