// The map's legends at the screen sizes people use, in Chromium: on a narrow
// map (1024×768, 1280×800, a phone) one compact card with a tab per legend,
// which leaves the fitted floor clear and the map usable; on a wide desktop
// the strip of every legend side by side. Every colour scale keeps its legend,
// reached by mouse, keyboard or touch. Screenshots: test-results/e2e/legends-*.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phone, startE2eRig, type E2eRig } from './rig.js';
import { shot, signIn } from './people.js';

let rig: E2eRig;

beforeAll(async () => {
  rig = await startE2eRig();
});

afterAll(async () => {
  await rig?.close();
});

const LAYERS = 'floorplan,info,desk_usage,room_reservation,co-workers,temperature';
const TITLES = ['Room status', 'Desk usage', 'Temperature'];

async function open(size: { width: number; height: number }, onPhone = false): Promise<Page> {
  const { page } = await rig.openPage(onPhone ? phone(size) : { viewport: size });
  await page.goto(`${rig.viewer.url}/?layers=${LAYERS}`);
  await signIn(page, rig.server.accounts.regular, onPhone ? 'touch' : 'mouse');
  return page;
}

const legends = (page: Page) => page.getByRole('region', { name: 'Legends' });
const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

/** The fitted floor (its outline as drawn) ends above the legends. */
async function floorClearOfLegends(page: Page): Promise<void> {
  await expect.poll(async () => {
    const floor = await page.locator('[data-asset-id] polygon').evaluateAll((els) => Math.max(...els.map((e) => e.getBoundingClientRect().bottom)));
    const strip = (await legends(page).boundingBox())!;
    return floor <= strip.y + 1;
  }).toBe(true);
}

describe('map legends by screen size', () => {
  for (const size of [{ width: 1024, height: 768 }, { width: 1280, height: 800 }]) {
    it(`at ${size.width}×${size.height} are one compact card with a tab per legend, clear of the floor`, async () => {
      const page = await open(size);
      const region = legends(page);
      const tabs = region.getByRole('tab');
      await expect.poll(() => tabs.allTextContents()).toEqual(['Room status', 'Desk usage', 'Temperature (°C)']);
      // one legend at a time, its words beside its colours
      expect(await region.getByRole('figure').count()).toBe(1);
      expect(await region.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('legend-room_reservation-tab');
      expect(await region.getByRole('figure', { name: 'Legend: Room status' }).innerText()).toMatch(/free[\s\S]*reserved[\s\S]*occupied/);
      // a small part of the map, not a third of it
      const map = await box(page, 'main.center');
      const strip = (await region.boundingBox())!;
      expect(strip.height).toBeLessThan(map.height * 0.2);
      await floorClearOfLegends(page);
      await shot(page, `legends-${size.width}x${size.height}`);
      // by mouse: each colour scale's legend is a click away
      await tabs.filter({ hasText: 'Temperature' }).click();
      expect(await region.getByRole('figure', { name: 'Legend: Temperature' }).innerText()).toMatch(/°C/);
      // by keyboard: one tab stop, the arrows go through them
      await tabs.filter({ hasText: 'Temperature' }).focus();
      await page.keyboard.press('ArrowLeft');
      const desk = region.getByRole('figure', { name: 'Legend: Desk usage' });
      expect(await desk.innerText()).toMatch(/Occupied[\s\S]*No data/);
      expect(await region.locator('[role="tab"][tabindex="0"]').textContent()).toBe('Desk usage');
      await shot(page, `legends-${size.width}x${size.height}-desk-usage`);
      // a layer switched on brings its legend to the front
      await page.getByRole('checkbox', { name: 'CO₂', exact: true }).click();
      await region.getByRole('figure', { name: /Legend: CO₂/ }).waitFor();
      expect(await tabs.count()).toBe(4);
      // folded to one button and back
      await region.getByRole('button', { name: 'Hide legends' }).click();
      expect(await region.getByRole('figure').count()).toBe(0);
      await region.getByRole('button', { name: 'Show legends (4)' }).click();
      expect(await region.getByRole('figure').count()).toBe(1);
    });
  }

  it('on a phone start folded and unfold into the same card, by touch', async () => {
    const page = await open({ width: 390, height: 844 }, true);
    const region = legends(page);
    await region.getByRole('button', { name: /^Show legends \(3\)$/ }).tap();
    await region.getByRole('tab', { name: 'Desk usage' }).tap();
    expect(await region.getByRole('figure', { name: 'Legend: Desk usage' }).innerText()).toMatch(/Free[\s\S]*Occupied/);
    const map = await box(page, 'main.center');
    expect((await region.boundingBox())!.height).toBeLessThan(map.height * 0.25);
    await shot(page, 'legends-390x844');
  });

  it('on a wide desktop show every legend side by side', async () => {
    const page = await open({ width: 1920, height: 1080 });
    const region = legends(page);
    for (const title of TITLES) await region.getByRole('figure', { name: `Legend: ${title}` }).waitFor();
    expect(await region.getByRole('tab').count()).toBe(0);
    const tops = await region.getByRole('figure').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().bottom)));
    // one row
    expect(new Set(tops).size).toBe(1);
    await floorClearOfLegends(page);
    await shot(page, 'legends-1920x1080');
  });
});
