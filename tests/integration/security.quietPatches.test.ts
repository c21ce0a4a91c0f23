// PATCHes of public assets whose public form does not change — the same
// values again, a hidden portal added to public stairs' targets, a hidden
// floor moved within a public building's `floors` — played as an edit user's
// requests against the real reference server over its own Pusher endpoint
// (pusher-js) and the real Mosquitto (mqtt.js). A regular user listening to
// everything its account may join, and revalidating its REST loads, learns
// nothing of them: no change, no new version, no new ETag
// (docs/server.md "Versions per audience"). The edit user hears each change
// that changed something, always under a new version of its own.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveChange } from '../../src/shared/protocol.js';
import { restPaths, type WireAsset } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from './support/attack.js';
import { listenAsRegularAndEditor, settle, type Ear } from './support/listen.js';

describe.each(['pusher', 'mqtt'] as const)('security: PATCHes the public cannot see over %s', (transport) => {
  let t: TestServer;
  let tokens: Awaited<ReturnType<TestServer['signInAll']>>;
  let org: string;
  let loc: string;
  let attacker: Ear;
  let editor: Ear;

  const stored = () => [...t.server.store.assets.values()].filter((a) => a.location_id === loc);
  const as = async (token: string, method: string, path: string, json?: unknown) => {
    const res = await t.api(path, { method, token, json });
    expect(res.status, `${method} ${path} ${JSON.stringify(json)}`).toBe(method === 'POST' ? 201 : 200);
    return { body: (await res.json()) as WireAsset, etag: res.headers.get('etag')! };
  };
  const create = async (body: Partial<WireAsset>) => (await as(tokens.edit, 'POST', restPaths.assets(org, loc), body)).body;
  const patch = async (id: string, body: Partial<WireAsset>) => (await as(tokens.edit, 'PATCH', restPaths.asset(org, loc, id), body)).body;
  /** the asset as a regular user / the edit user loads it now, with the answer's ETag */
  const publicly = (id: string) => as(tokens.regular, 'GET', restPaths.asset(org, loc, id));
  const editorially = (id: string) => as(tokens.edit, 'GET', restPaths.asset(org, loc, id));
  const heardOf = (e: Ear, id: string, from: number) => e.changes().slice(from).filter((c) => c.collection === 'assets' && c.id === id);

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

  it('the public hears nothing, keeps its version and revalidates to 304; the editor hears every real change under a new version', async () => {
    const hiddenFloor = stored().find((a) => a.type === 'floor' && a.hidden)!;
    const building = t.server.store.assets.get(hiddenFloor.parent_id!)!;
    const publicFloor = stored().find((a) => a.type === 'floor' && a.parent_id === building.id && t.server.store.isAssetPublic(a))!;
    const desk = stored().find((a) => a.subtype === 'desk' && t.server.store.isAssetPublic(a))!;
    const hiddenPortal = await create({ type: 'portal', name: 'Stairs to the plant room', parent_id: hiddenFloor.id, x: 1, y: 1 });
    const stairs = await create({ type: 'portal', name: 'Stairs down', parent_id: publicFloor.id, x: 1, y: 1 });
    const before = { desk: await publicly(desk.id), stairs: await publicly(stairs.id), building: await publicly(building.id) };
    const editBefore = { desk: await editorially(desk.id), stairs: await editorially(stairs.id), building: await editorially(building.id) };
    const list = (await t.api(restPaths.assets(org, loc), { token: tokens.regular })).headers.get('etag')!;
    await settle();
    const heardBefore = attacker.changes().length;
    const editorHeardBefore = editor.changes().length;

    // the same values again: nothing changed, for anyone
    const same = await patch(desk.id, { name: desk.name, x: desk.x, y: desk.y });
    expect(same.version, 'the desk PATCHed with its own values').toBe(editBefore.desk.body.version);
    // a hidden portal joins the public stairs' targets
    const linked = await patch(stairs.id, { targets: [hiddenPortal.id] });
    // the hidden floor moves to the other end of its building's floors; the public floors keep their order
    const others = building.floors!.filter((f) => f !== hiddenFloor.id);
    const order = building.floors![0] === hiddenFloor.id ? [...others, hiddenFloor.id] : [hiddenFloor.id, ...others];
    const reordered = await patch(building.id, { floors: order });

    // the editor hears both real changes, each under a version past the one it knew
    await until(() => heardOf(editor, stairs.id, editorHeardBefore).length > 0 && heardOf(editor, building.id, editorHeardBefore).length > 0, 'the editor to hear the stairs and the building');
    const editorStairs = heardOf(editor, stairs.id, editorHeardBefore).at(-1)!.data as WireAsset;
    const editorBuilding = heardOf(editor, building.id, editorHeardBefore).at(-1)!.data as WireAsset;
    expect(editorStairs.targets).toEqual([hiddenPortal.id]);
    expect(editorStairs.version).toBe(editBefore.stairs.body.version + 1);
    expect(linked.version).toBe(editorStairs.version);
    expect(editorBuilding.floors).toEqual(order);
    expect(editorBuilding.version).toBe(editBefore.building.body.version + 1);
    expect(reordered.version).toBe(editorBuilding.version);
    expect(heardOf(editor, desk.id, editorHeardBefore), 'what the editor heard of the desk PATCHed with its own values').toEqual([]);
    // and its own loads answer the new versions, under new ETags
    const editAfter = { stairs: await editorially(stairs.id), building: await editorially(building.id) };
    expect(editAfter.stairs.body.version).toBe(editorStairs.version);
    expect(editAfter.building.body.version).toBe(editorBuilding.version);
    expect(editAfter.building.etag).not.toBe(editBefore.building.etag);

    // the public's loads are as they were: the same bodies, versions and update times, so 304 for their tags
    for (const [what, a] of [['desk', desk], ['stairs', stairs], ['building', building]] as const) {
      const res = await t.api(restPaths.asset(org, loc, a.id), { token: tokens.regular, headers: { 'if-none-match': before[what].etag } });
      expect.soft(res.status, `the regular user's ${what} revalidated`).toBe(304);
      const now = await publicly(a.id);
      expect.soft(now.body, `the regular user's ${what}`).toEqual(before[what].body);
    }
    const listNow = await t.api(restPaths.assets(org, loc), { token: tokens.regular, headers: { 'if-none-match': list } });
    expect(listNow.status, "the regular user's asset list revalidated").toBe(304);

    // a public change of the building marks where the quiet PATCHes ended: nothing came before it, and the
    // public's version moves by one from the one it knew, the editor's by one from its own
    await patch(building.id, { name: `${building.name} (renamed)` });
    await until(() => heardOf(attacker, building.id, heardBefore).length > 0, 'the public to hear the marker');
    const heard: LiveChange[] = attacker.changes().slice(heardBefore);
    expect(heard.filter((c) => !(c.collection === 'assets' && c.id === building.id)), 'what the public heard of the quiet PATCHes').toEqual([]);
    const renamed = heard.find((c) => c.id === building.id)!.data as WireAsset;
    expect(renamed.floors, 'the public floors in their order, the hidden one left out').toEqual(before.building.body.floors);
    expect(renamed.version).toBe(before.building.body.version + 1);
    expect(renamed.update_timestamp).toBeGreaterThanOrEqual(before.building.body.update_timestamp);
    await until(() => heardOf(editor, building.id, editorHeardBefore).length > 1, 'the editor to hear the marker');
    expect((heardOf(editor, building.id, editorHeardBefore).at(-1)!.data as WireAsset).version).toBe(editorBuilding.version + 1);
    expect((await publicly(building.id)).body.version).toBe(renamed.version);
  });
});
