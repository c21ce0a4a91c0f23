// An editor in real Chromium unpublishes a room by mouse: the desk standing in
// that room, published itself, is hidden with it from everyone without the edit
// role, and the editor's map marks it as it marks unpublished assets (a dashed
// outline, "hidden" in its name); its popup says why. Published again, the mark
// goes. (docs/ui.md "Unpublished assets")

import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { popup, shot, signIn, waitForHitPoint } from './people.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;
let roomId = '';
let roomName = '';
let deskId = '';

beforeAll(async () => {
  ({ rig, server, page } = await startE2eRigWithPage({
    prepare: (s) => {
      const { store } = s.server;
      const locationId = s.server.seed.locationIds[0]!;
      const location = store.locations.get(locationId)!;
      const building = store.assets.get(location.buildings[0]!)!;
      const floorId = (building as unknown as { floors: string[] }).floors?.[0] ?? [...store.assets.values()].find((a) => a.type === 'floor' && a.parent_id === building.id)!.id;
      const room = [...store.assets.values()].find((a) => a.type === 'room' && a.parent_id === floorId && !a.unpublished)!;
      const desk = [...store.assets.values()].find((a) => a.subtype === 'desk' && a.parent_id === floorId && !a.unpublished)!;
      const xs = room.outline!.map((p) => p[0]!);
      const ys = room.outline!.map((p) => p[1]!);
      // the desk moves into a corner of the room (away from the room's name in its middle)
      store.updateAsset(desk.id, { parent_id: room.id, x: Math.min(...xs) + 1.2, y: Math.max(...ys) - 0.8 });
      roomId = room.id;
      roomName = room.name;
      deskId = desk.id;
    },
    page: { locale: 'en-GB' },
  }));
  await page.goto(`${rig.viewer.url}/`);
  await signIn(page, server.accounts.edit);
});

afterAll(() => rig?.close());

const deskNode = () => page.locator(`g.asset[data-asset-id="${deskId}"]`);
const classOf = async () => (await deskNode().getAttribute('class')) ?? '';

async function clickAsset(id: string): Promise<void> {
  const at = await waitForHitPoint(page, `g.asset[data-asset-id="${id}"]`);
  expect(at, `asset ${id} can be clicked`).not.toBeNull();
  await page.mouse.click(at!.x, at!.y);
  await popup(page).waitFor();
}

/**
 * Where the button is once the popup has settled: the same box twice, 150 ms apart. A person reads the popup
 * before clicking; a box read while its actions still arrive (the booking controls and their cancel buttons
 * come with the room's live reservations) once sent the click onto "Cancel booking" under a loaded CI run.
 */
async function settledBox(button: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  let last = await button.boundingBox();
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(150);
    const now = await button.boundingBox();
    if (now && last && now.x === last.x && now.y === last.y && now.width === last.width && now.height === last.height) return now;
    last = now;
  }
  throw new Error('the button did not settle in 6 s');
}

async function publishRoom(button: 'Publish' | 'Unpublish', said: RegExp): Promise<void> {
  await clickAsset(roomId);
  const dialog = popup(page);
  const box = await settledBox(dialog.getByRole('button', { name: button, exact: true }));
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect.poll(() => page.locator('.live-region').innerText(), { timeout: 10_000 }).toMatch(said);
  await dialog.getByRole('button', { name: 'Close details' }).click();
}

describe('a desk in an unpublished room, for an editor in Chromium', () => {
  it('is marked hidden on the map once the room is unpublished by mouse, says why in its popup, and is unmarked when the room is published', async () => {
    await deskNode().waitFor();
    expect(await classOf()).not.toMatch(/\bunpublished\b/);
    expect(await deskNode().getAttribute('aria-label')).not.toMatch(/hidden/);

    await publishRoom('Unpublish', /Unpublished: only editors see it now\./);
    // the desk's own record did not change: it is marked as the room's, with the editor's mark for hidden things
    await expect.poll(classOf, { timeout: 10_000 }).toMatch(/\bunpublished\b/);
    expect(await deskNode().getAttribute('aria-label')).toContain(`hidden: in unpublished room ${roomName}`);
    expect(await deskNode().locator('rect').first().evaluate((el) => getComputedStyle(el).strokeDasharray)).not.toBe('none');
    await shot(page, 'hidden-by-room-00-desk-marked-with-its-room');
    // nobody without the edit role gets it: the server hides what stands in an unpublished room
    expect(server.server.store.isAssetPublic(server.server.store.assets.get(deskId)!)).toBe(false);

    await clickAsset(deskId);
    const dialog = popup(page);
    expect(await dialog.locator('.unpublished-badge').innerText()).toBe('Hidden');
    expect(await dialog.getByTestId('hidden-by').innerText()).toBe(`Only editors see it: it is in room ${roomName}, which is unpublished.`);
    // its own flag is published: the button offers to unpublish it, not to publish it
    expect(await dialog.getByRole('button', { name: 'Unpublish', exact: true }).isVisible()).toBe(true);
    await shot(page, 'hidden-by-room-01-desk-popup');
    await dialog.getByRole('button', { name: 'Close details' }).click();

    await publishRoom('Publish', /Published: everyone sees it now\./);
    await expect.poll(classOf, { timeout: 10_000 }).not.toMatch(/\bunpublished\b/);
    expect(await deskNode().getAttribute('aria-label')).not.toMatch(/hidden/);
    await shot(page, 'hidden-by-room-02-published-again');
  });
});
