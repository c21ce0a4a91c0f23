// A zone's name under a ticket's bubble (bubbles are drawn over rooms and
// zones) was unreadable. The name moves to the nearest clear place inside its
// zone (docs/ui.md "Names clear of bubbles"). In Chromium: a ticket reported
// at the middle of a zone, the Zones layer switched on by mouse, the zone's
// name is shown, it and the bubble do not overlap on screen, and the name
// stays inside the zone (zoomed in with the wheel to where the name, sized to
// fit its narrow zone, is shown). Screenshot test-results/e2e/zone-label-clear.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireAsset } from '../../src/shared/rest.js';
import type { TestServer } from '../helpers/server.js';
import { type E2eRig, seededFirstFloor, startE2eRig } from './rig.js';
import { shot, signIn, worldTransform } from './people.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;
let zone: WireAsset;
let ticketId = '';

beforeAll(async () => {
  rig = await startE2eRig({
    prepare: (s) => {
      const { store, location, floorId } = seededFirstFloor(s.server);
      zone = [...store.assets.values()].find((a) => a.type === 'zone' && a.subtype !== 'privacy' && a.parent_id === floorId)!;
      const xs = zone.outline!.map((p) => p[0]!);
      const ys = zone.outline!.map((p) => p[1]!);
      // the zone is a rectangle: its name is at its middle; the ticket's bubble stands over that point
      const [x, y] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2 + 1];
      const now = Date.now();
      const ticket = store.createAsset(location.id, {
        type: 'ticket', name: 'Radiator is cold', subtype: 'facility', parent_id: floorId, x, y, speech_bubble: 'Radiator is cold',
        value: { text: 'Radiator is cold', label: 'facility', status: 'open', time: now, valid_for: 86_400_000, valid_to: now + 86_400_000 },
      }, null);
      ticketId = ticket.id;
    },
  });
  server = rig.server;
  ({ page } = await rig.openPage());
  await page.goto(`${rig.viewer.url}/`);
  await signIn(page, server.accounts.regular);
});

afterAll(() => rig?.close());

describe("a zone's name and a ticket's bubble", () => {
  it('are both readable: the name moves clear of the bubble, inside its zone', async () => {
    await page.getByRole('checkbox', { name: 'Zones' }).click();
    const name = page.locator(`text[data-label-for="${zone.id}"]`);
    // a zone's name fits its narrow zone and shows from the zoom where it is readable (docs/ui.md "Zone names fit
    // their zone"): zoomed in with the wheel over the zone until it shows
    const area = (await page.locator(`g[data-asset-id="${zone.id}"] polygon`).boundingBox())!;
    // first the layout has run on the zones (it moves the name off the bubble, at any zoom): before it a name too
    // small to read at the fitted zoom is not hidden yet, and the loop below stopped before zooming in at all
    await expect.poll(() => name.getAttribute('transform'), { timeout: 5_000 }).toMatch(/^translate\(/);
    await page.mouse.move(area.x + area.width / 2, area.y + area.height * 0.8);
    for (let step = 0; step < 12 && !(await name.isVisible()); step++) {
      await page.mouse.wheel(0, -120);
      await page.waitForTimeout(600);
    }
    // one step more: at the very zoom it first shows, the settled map's zoom can fall a hair under the name's and
    // hide it again (failed once in the merge queue: no box for the name after the layout)
    await page.mouse.wheel(0, -120);
    await page.waitForTimeout(600);
    await name.waitFor();
    const bubble = page.locator(`g[data-asset-id="${ticketId}"] path`).first();
    await bubble.waitFor();
    await worldTransform(page);
    // the layout runs a moment after the layer is drawn
    await expect.poll(() => name.getAttribute('transform'), { timeout: 5_000 }).toMatch(/^translate\(/);
    const [n, b, z] = [(await name.boundingBox())!, (await bubble.boundingBox())!, (await page.locator(`g[data-asset-id="${zone.id}"] polygon`).boundingBox())!];
    const apart = n.x + n.width <= b.x || b.x + b.width <= n.x || n.y + n.height <= b.y || b.y + b.height <= n.y;
    expect(apart, JSON.stringify({ name: n, bubble: b })).toBe(true);
    // inside its zone: a name wider than the narrow zone overflows it sideways, as at its own place
    expect(n.x + n.width / 2).toBeGreaterThanOrEqual(z.x);
    expect(n.x + n.width / 2).toBeLessThanOrEqual(z.x + z.width);
    expect(n.y).toBeGreaterThanOrEqual(z.y);
    expect(n.y + n.height).toBeLessThanOrEqual(z.y + z.height);
    expect(await name.getAttribute('data-collide')).toBeNull();
    await shot(page, 'zone-label-clear');
  });
});
