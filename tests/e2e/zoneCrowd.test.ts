// The seeded floor's zones in Chromium: five bands ~2.4 m wide side by side,
// whose names were 4–6 m long at the size of their area. One name was shown
// over three zones (it named none of them clearly) and the others never, at any
// zoom, since names grow with the map. A zone's name now fits its zone and
// shows from the zoom where it is readable (docs/ui.md "Zone names fit their
// zone"). With the Zones layer switched on by mouse and the map zoomed in with
// the wheel, every band is named inside itself and no two labels overlap.
// Screenshots test-results/e2e/zone-names-fitted.png, zone-names-zoomed.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';
import { overlappingLabels, shot, shownLabels, signIn, type ShownLabel } from './people.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;

beforeAll(async () => ({ rig, server, page } = await startE2eRigWithPage()));
afterAll(() => rig?.close());

const BANDS = ['generic zone', 'communication zone', 'collaboration zone', 'concentration zone', 'chilling zone'];

/** The zone bands' shown names, each with its zone's box on screen. */
async function bandNames(): Promise<Array<ShownLabel & { zone: { left: number; right: number } }>> {
  const shown = await shownLabels(page);
  const out = [];
  for (const label of shown.filter((l) => BANDS.includes(l.text))) {
    const zone = (await page.locator(`g[data-asset-id="${label.id}"] polygon`).boundingBox())!;
    out.push({ ...label, zone: { left: zone.x, right: zone.x + zone.width } });
  }
  return out;
}

describe("the seeded zones' names", () => {
  it('never run over a neighbouring zone, and none overlaps another label, as the floor is fitted', async () => {
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, server.accounts.regular);
    await page.getByRole('checkbox', { name: 'Zones' }).click();
    await page.locator('g[data-kind="zone"] polygon').first().waitFor();
    // the layout runs a moment after the layer is drawn
    await page.waitForTimeout(800);
    expect(overlappingLabels(await shownLabels(page))).toEqual([]);
    for (const name of await bandNames()) {
      expect(name.left, name.text).toBeGreaterThanOrEqual(name.zone.left - 1);
      expect(name.right, name.text).toBeLessThanOrEqual(name.zone.right + 1);
    }
    await shot(page, 'zone-names-fitted');
  });

  it('are all shown, each inside its own zone, once the person zooms in, still with no two labels overlapping', async () => {
    const id = await page.evaluate((name) => [...document.querySelectorAll('text[data-label-for]')].find((t) => t.textContent === name)?.getAttribute('data-label-for'), BANDS[2]);
    const box = (await page.locator(`g[data-asset-id="${id}"] polygon`).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let step = 0; step < 12 && (await bandNames()).length < BANDS.length; step++) {
      await page.mouse.wheel(0, -120);
      await page.waitForTimeout(600);
    }
    const names = await bandNames();
    expect(names.map((n) => n.text).sort()).toEqual([...BANDS].sort());
    for (const name of names) {
      expect(name.left, name.text).toBeGreaterThanOrEqual(name.zone.left - 1);
      expect(name.right, name.text).toBeLessThanOrEqual(name.zone.right + 1);
      // readable: at least the smallest size a zone's name is shown at
      expect(name.bottom - name.top, name.text).toBeGreaterThanOrEqual(9);
    }
    expect(overlappingLabels(await shownLabels(page))).toEqual([]);
    await shot(page, 'zone-names-zoomed');
  });
});
