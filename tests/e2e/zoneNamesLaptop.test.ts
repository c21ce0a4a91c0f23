// The seeded floor fitted on a laptop (1366 × 768 and 1280 × 800): its five
// zone bands are 2.4 m wide and 6 m deep, and across a band a name fitting it
// was 5–8 px, too small to read, so with the Zones layer on no band was named
// until the person zoomed in. A narrow zone's name now reads bottom to top
// along its band (docs/ui.md "Zone names along a narrow zone"): at the fitted
// view every band is named inside itself, at least 9 px, no two labels
// overlapping; zoomed in with the wheel, still. The meeting wing's name, which
// lay among its rooms and gave way to their names at every zoom, moves clear of
// them. In Chromium, by mouse. Screenshots test-results/e2e/zone-names-laptop-1366.png,
// zone-names-laptop-1280.png, zone-names-laptop-zoomed.png, zone-names-wing.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { type E2eRig, seededFirstFloor, startE2eRig } from './rig.js';
import { overlappingLabels, shot, shownLabels, signIn, worldTransform } from './people.js';

let rig: E2eRig;
let server: TestServer;

beforeAll(async () => {
  rig = await startE2eRig({
    prepare: (s) => {
      // the floor's devices carried to its bottom corridor: where one stands on a band its name keeps clear of it,
      // smaller or from a closer zoom (tests/e2e/deviceLabels.test.ts, tests/ui/labels.test.ts), and where they stand
      // of an hour depends on the seeded history
      const { store, location, floorId } = seededFirstFloor(s.server);
      const outline = [...store.assets.values()].find((a) => a.type === 'floor_outline' && a.parent_id === floorId)!.outline!;
      const depth = Math.max(...outline.map((p) => p[1]!));
      const devices = [...store.assets.values()].filter((a) => a.type === 'auto_tag' && a.location_id === location.id);
      devices.forEach((device, i) => {
        device.parent_id = floorId;
        store.addMeasurement(device.data_provider_refs!.location!, { x: 8 + i * 4, y: depth - 1.5, floor_id: floorId, floor: 0, zones: [], time: Date.now(), valid_for: 86_400_000 });
      });
    },
  });
  server = rig.server;
});
afterAll(() => rig?.close());

const BANDS = ['generic zone', 'communication zone', 'collaboration zone', 'concentration zone', 'chilling zone'];

/** What a person reads of the bands: each shown name, how big on screen, whether it reads along its band and stays inside it. */
async function bandsRead(page: Page): Promise<string[]> {
  const { k } = await worldTransform(page);
  const out: string[] = [];
  for (const label of (await shownLabels(page)).filter((l) => BANDS.includes(l.text))) {
    const zone = (await page.locator(`g[data-asset-id="${label.id}"] polygon`).boundingBox())!;
    const inside = label.left >= zone.x - 1 && label.right <= zone.x + zone.width + 1 && label.top >= zone.y - 1 && label.bottom <= zone.y + zone.height + 1;
    const along = label.bottom - label.top > label.right - label.left;
    out.push(`${label.text}: ${inside ? 'inside' : 'over its edge'}, ${along ? 'along' : 'across'}, ${label.fontSize * k >= 9 ? 'readable' : 'too small'}`);
  }
  return out.sort();
}

const READ = [...BANDS].sort().map((b) => `${b}: inside, along, readable`);

describe("the seeded zones' names on a laptop", () => {
  for (const [width, height] of [[1366, 768], [1280, 800]] as const) {
    it(`names every band at the fitted view on ${width} × ${height}, inside its band, readable, no two labels overlapping`, async () => {
      const { page } = await rig.openPage({ viewport: { width, height } });
      await page.goto(`${rig.viewer.url}/`);
      await signIn(page, server.accounts.regular);
      await page.getByRole('checkbox', { name: 'Zones' }).click();
      await page.locator('g[data-kind="zone"] polygon').first().waitFor();
      // the layout measures labels in short tasks, then lays them out
      await expect.poll(async () => [...await bandsRead(page), ...overlappingLabels(await shownLabels(page), 1)], { timeout: 10_000 }).toEqual(READ);
      await shot(page, `zone-names-laptop-${width}`);
      if (width !== 1366) return;
      // the person zooms in on the middle band with the wheel: every band in view still named along it
      const id = (await shownLabels(page)).find((l) => l.text === BANDS[2])!.id;
      const band = (await page.locator(`g[data-asset-id="${id}"] polygon`).boundingBox())!;
      await page.mouse.move(band.x + band.width / 2, band.y + band.height / 2);
      const before = (await worldTransform(page)).k;
      for (let step = 0; step < 3; step++) {
        await page.mouse.wheel(0, -120);
        await page.waitForTimeout(150);
      }
      await expect.poll(async () => (await worldTransform(page)).k, { timeout: 5_000 }).toBeGreaterThan(before * 1.3);
      await expect.poll(async () => {
        const read = await bandsRead(page);
        return [read.some((r) => r.startsWith(BANDS[2]!)), ...read.filter((r) => !r.endsWith(': inside, along, readable')), ...overlappingLabels(await shownLabels(page), 1)];
      }, { timeout: 10_000 }).toEqual([true]);
      await shot(page, 'zone-names-laptop-zoomed');
    });
  }

  it("names the meeting wing clear of its rooms, drawn over it, where it gave way to their names at every zoom", async () => {
    const { page } = await rig.openPage({ viewport: { width: 1366, height: 768 } });
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, server.accounts.regular);
    await page.getByRole('checkbox', { name: 'Zones' }).click();
    const wing = page.locator('text[data-label-for]', { hasText: 'Meeting wing' });
    await wing.waitFor({ state: 'attached' });
    const wingId = (await wing.getAttribute('data-label-for'))!;
    const read = async () => {
      const shown = await shownLabels(page);
      const name = shown.find((l) => l.id === wingId);
      if (!name) return 'hidden';
      const area = (await page.locator(`g[data-asset-id="${wingId}"] polygon`).boundingBox())!;
      if (name.left < area.x - 1 || name.right > area.x + area.width + 1 || name.top < area.y - 1 || name.bottom > area.y + area.height + 1) return 'over its edge';
      const over = overlappingLabels(shown, 1).filter((pair) => pair.includes('Meeting wing'));
      // the rooms are drawn over the wing: its name clear of them
      for (const walls of await page.locator('g[data-kind="room"] polygon').all()) {
        const r = (await walls.boundingBox())!;
        if (name.left < r.x + r.width && r.x < name.right && name.top < r.y + r.height && r.y < name.bottom) over.push('under a room');
      }
      return over.length > 0 ? over.join(', ') : 'read';
    };
    await expect.poll(read, { timeout: 10_000 }).toBe('read');
    await shot(page, 'zone-names-wing');
  });
});
