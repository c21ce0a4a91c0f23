// An edit user's work on what only editors see — a hidden floor made, renamed,
// moved and deleted, an unpublished building with a floor, an unpublished
// room on a public floor, a hidden portal deleted — played against the real
// reference server over its own Pusher endpoint (pusher-js) and the real
// Mosquitto (mqtt.js). A regular user listening to everything its account
// may join, and revalidating its REST loads, learns nothing of it: no change
// on the public streams (the building or location they sit in included), no
// new version, no new ETag. The edit user's own streams carry all of it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveChange } from '../../src/shared/protocol.js';
import { restPaths, type WireAsset, type WireLocation } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from './support/attack.js';
import { listenAsRegularAndEditor, settle, type Ear } from './support/listen.js';

describe.each(['pusher', 'mqtt'] as const)('security: edits of hidden things over %s', (transport) => {
  let t: TestServer;
  let tokens: Awaited<ReturnType<TestServer['signInAll']>>;
  let org: string;
  let loc: string;
  let attacker: Ear;
  let editor: Ear;

  const stored = () => [...t.server.store.assets.values()].filter((a) => a.location_id === loc);
  const publicFloors = () => stored().filter((a) => a.type === 'floor' && t.server.store.isAssetPublic(a));
  const as = async (method: string, path: string, json?: unknown, expected = method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200) => {
    const res = await t.api(path, { method, token: tokens.edit, json });
    expect(res.status, `${method} ${path} ${JSON.stringify(json)}`).toBe(expected);
    return expected === 204 ? null : (await res.json()) as WireAsset;
  };
  const create = async (body: Partial<WireAsset>) => (await as('POST', restPaths.assets(org, loc), body))!;
  const patch = (id: string, body: Partial<WireAsset>) => as('PATCH', restPaths.asset(org, loc, id), body);
  const remove = (id: string) => as('DELETE', restPaths.asset(org, loc, id));
  /** the ETag of a regular user's answer now */
  const tagOf = async (path: string) => {
    const res = await t.api(path, { token: tokens.regular });
    expect(res.status).toBe(200);
    return res.headers.get('etag')!;
  };
  const lastOf = (e: Ear, collection: string, id: string) => e.changes().filter((c) => c.collection === collection && c.id === id).at(-1);

  beforeAll(async () => {
    t = await startTestServer({ transport });
    tokens = await t.signInAll();
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
    ({ attacker, editor } = await listenAsRegularAndEditor(t, tokens, transport, org, loc));
  }, 30_000);
  afterAll(async () => {
    await attacker?.close();
    await editor?.close();
    await t?.close();
  });

  it('the public hears nothing and revalidates to 304 while an editor works on hidden floors, buildings, rooms and portals', async () => {
    const [floorA, floorB] = [publicFloors()[0]!, publicFloors().find((f) => f.parent_id !== publicFloors()[0]!.parent_id)!];
    const buildingA = floorA.parent_id!;
    const buildingB = floorB.parent_id!;
    // stairs only editors see (on the hidden floor), named in the targets of public stairs
    const seededHiddenFloor = stored().find((a) => a.type === 'floor' && a.hidden)!;
    const hiddenPortal = await create({ type: 'portal', name: 'Stairs to the plant room', parent_id: seededHiddenFloor.id, x: 1, y: 1 });
    const stairs = await create({ type: 'portal', name: 'Stairs down', parent_id: floorA.id, x: 1, y: 1, targets: [hiddenPortal.id] });
    const tags = {
      assets: await tagOf(restPaths.assets(org, loc)),
      location: await tagOf(restPaths.location(org, loc)),
      locations: await tagOf(restPaths.locations(org)),
    };
    await settle();
    const heardBefore = attacker.changes().length;

    // a hidden floor made in a public building, renamed, moved to the other public building, deleted
    const hiddenFloor = await create({ type: 'floor', name: 'Server room', parent_id: buildingA, building_relative_index: 5, hidden: true });
    await until(() => (lastOf(editor, 'assets', buildingA)?.data as WireAsset | undefined)?.floors?.includes(hiddenFloor.id), 'the editor to hear the building name the hidden floor');
    await patch(hiddenFloor.id, { name: 'Server room 2' });
    await patch(hiddenFloor.id, { parent_id: buildingB });
    await until(() => (lastOf(editor, 'assets', buildingB)?.data as WireAsset | undefined)?.floors?.includes(hiddenFloor.id), 'the editor to hear the hidden floor move');
    expect((lastOf(editor, 'assets', buildingA)!.data as WireAsset).floors).not.toContain(hiddenFloor.id);
    await remove(hiddenFloor.id);
    await until(() => !(lastOf(editor, 'assets', buildingB)!.data as WireAsset).floors!.includes(hiddenFloor.id), 'the editor to hear the hidden floor go');

    // an unpublished building with a floor, made and taken down again
    const closed = await create({ type: 'building', name: 'Closed annex', unpublished: true });
    await until(() => (lastOf(editor, 'locations', loc)?.data as WireLocation | undefined)?.buildings.includes(closed.id), 'the editor to hear the location name the building');
    const closedFloor = await create({ type: 'floor', name: 'Closed annex 0', parent_id: closed.id });
    await patch(closedFloor.id, { name: 'Closed annex ground' });
    await remove(closedFloor.id);
    await remove(closed.id);
    await until(() => !(lastOf(editor, 'locations', loc)!.data as WireLocation).buildings.includes(closed.id), 'the editor to hear the building go');

    // an unpublished room on a public floor, renamed, deleted; then the hidden portal deleted
    const room = await create({ type: 'room', name: 'Quiet room', parent_id: floorA.id, x: 3, y: 3, unpublished: true });
    await patch(room.id, { name: 'Very quiet room' });
    await remove(room.id);
    await remove(hiddenPortal.id);
    await until(() => editor.changes().some((c) => c.kind === 'deleted' && c.id === hiddenPortal.id), 'the editor to hear the portal go');
    expect((lastOf(editor, 'assets', stairs.id)!.data as WireAsset).targets, 'the editor hears the stairs lose it').toEqual([]);

    // the public's loads are as they were: the same bodies, so 304 for their tags
    for (const [what, path] of [['assets', restPaths.assets(org, loc)], ['location', restPaths.location(org, loc)], ['locations', restPaths.locations(org)]] as const) {
      const res = await t.api(path, { token: tokens.regular, headers: { 'if-none-match': tags[what] } });
      expect.soft(res.status, `the regular user's ${what} revalidated`).toBe(304);
    }

    // a public change on each stream marks where the hidden work ended: nothing came before it
    const desk = stored().find((a) => a.subtype === 'desk' && t.server.store.isAssetPublic(a))!;
    await patch(desk.id, { name: 'Marker desk' });
    const res = await t.api(restPaths.location(org, loc), { method: 'PATCH', token: tokens.edit, json: { name: 'Marker location' } });
    expect(res.status).toBe(200);
    await until(() => lastOf(attacker, 'assets', desk.id) && lastOf(attacker, 'locations', loc), 'the public to hear the markers');
    const heard: LiveChange[] = attacker.changes().slice(heardBefore);
    const markers = heard.filter((c) => (c.collection === 'assets' && c.id === desk.id) || c.collection === 'locations' || c.collection === 'organizations');
    expect(heard.filter((c) => !markers.includes(c)), 'what the public heard of the hidden work').toEqual([]);
  });
});
