// "Play back a day" stands over the map's top-right corner. A floor fitted to
// the map's height (deeper than the seed's) reached under it, and the desk in
// the floor's top-right corner could not be clicked: the button took the
// click. The fit keeps the floor clear of the button (docs/ui.md "Fit"). At
// desktop size by mouse and at Pixel 7 size by touch, right after load, a
// person clicks the asset nearest the map's top-right corner at its point
// nearest that corner, and its popup opens. Screenshots in
// test-results/e2e/map-corner-*.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireAsset } from '../../src/shared/rest.js';
import type { TestServer } from '../helpers/server.js';
import { phone, startE2eRig, type E2eRig } from './rig.js';
import { popup, shot, signIn, worldTransform } from './people.js';

let rig: E2eRig;
let server: TestServer;

beforeAll(async () => {
  rig = await startE2eRig();
  ({ server } = rig);
});

afterAll(async () => {
  await rig?.close();
});

/**
 * Makes the first building's first floor `depthPerWidth` times as deep as it is wide (a floor the map
 * fits to its height), with one of its desks in its top-right corner; answers the desk.
 */
function deepFloorWithCornerDesk(depthPerWidth: number): WireAsset {
  const { store, seed } = server.server;
  const location = store.locations.get(seed.locationIds[0]!)!;
  const building = store.assets.get(location.buildings[0]!)! as WireAsset & { floors: string[] };
  const floor = store.assets.get(building.floors[0]!)!;
  const xs = floor.outline!.map((p) => p[0]!);
  const width = Math.max(...xs) - Math.min(...xs);
  const [left, top] = [Math.min(...xs), Math.min(...floor.outline!.map((p) => p[1]!))];
  const depth = width * depthPerWidth;
  store.updateAsset(floor.id, { outline: [[left, top], [left + width, top], [left + width, top + depth], [left, top + depth]] });
  const desk = [...store.assets.values()].find((a) => a.subtype === 'desk' && a.parent_id === floor.id && !a.unpublished)!;
  // the screen's top is the floor's smallest y (lib/viewport.ts Y_SIGN)
  store.updateAsset(desk.id, { x: left + width - 1, y: top + 0.6 });
  return store.assets.get(desk.id)!;
}

interface Aim { id: string; x: number; y: number }

/**
 * The drawn asset nearest the map's top-right corner, and its point nearest that corner (its box's
 * top-right, 3 px inside): where a person aims to reach what stands in the corner.
 */
function nearestTopRight(page: Page): Promise<Aim> {
  return page.evaluate(() => {
    const map = document.querySelector('main.center')!.getBoundingClientRect();
    let best: (Aim & { d: number }) | null = null;
    for (const el of document.querySelectorAll('[data-asset-id][role="button"]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right < map.left || r.left > map.right || r.bottom < map.top || r.top > map.bottom) continue;
      const x = Math.min(r.right, map.right) - Math.min(3, r.width / 2);
      const y = Math.max(r.top, map.top) + Math.min(3, r.height / 2);
      const d = Math.hypot(map.right - x, y - map.top);
      if (!best || d < best.d) best = { id: el.getAttribute('data-asset-id')!, x, y, d };
    }
    return { id: best!.id, x: best!.x, y: best!.y };
  });
}

describe('the floor fitted beside "Play back a day"', () => {
  for (const [size, options, how, depthPerWidth] of [
    // deep enough that each screen fits the floor to its height, wide enough that its corner is at the button
    ['desktop', { viewport: { width: 1400, height: 900 } }, 'mouse', 1],
    ['phone', phone(), 'touch', 2],
  ] as const) {
    it(`opens the asset nearest the map's top-right corner by ${how} at ${size} size, right after load`, async () => {
      const desk = deepFloorWithCornerDesk(depthPerWidth);
      const { page } = await rig.openPage(options);
      await page.goto(`${rig.viewer.url}/`);
      await signIn(page, server.accounts.regular, how);
      const button = page.getByRole('button', { name: 'Play back a day' });
      await button.waitFor();
      await page.locator(`[data-asset-id="${desk.id}"]`).waitFor();
      await worldTransform(page);
      const aim = await nearestTopRight(page);
      expect(aim.id).toBe(desk.id);
      await shot(page, `map-corner-${size}`);
      // the floor fits to the height: it is as tall as the map leaves it, less the fit's margin
      const world = (await page.locator('g.world').boundingBox())!;
      const map = (await page.locator('main.center').boundingBox())!;
      expect(world.height).toBeGreaterThan(map.height * 0.6);
      if (how === 'touch') await page.touchscreen.tap(aim.x, aim.y);
      else await page.mouse.click(aim.x, aim.y);
      await expect.poll(() => popup(page).getByRole('heading', { level: 2 }).innerText(), { timeout: 10_000 }).toBe(desk.name);
      // the click reached the desk, not the button under the same point
      expect(await page.getByRole('group', { name: 'Playback' }).count()).toBe(0);
      await shot(page, `map-corner-${size}-popup`);
      await page.context().close();
    });
  }
});
