// "Show" a co-worker on a phone (Pixel 7 emulation, touch) in Chromium: the map
// centres them in the part of it nothing covers. The message "Show" brings
// ("… is on Floor 0, …") stands over the map's top and the legends' button over
// its foot; the centring counted only the foot, so the person stood ~55 px above
// the middle of what is seen, close under the message (docs/ui.md "Centred where
// nothing covers the map"). Screenshot test-results/e2e/phone-show-centred.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { phone, startE2eRigWithPage, type E2eRig } from './rig.js';
import { shot, showCoWorker, signIn } from './people.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;

beforeAll(async () => ({ rig, server, page } = await startE2eRigWithPage({ page: phone() })));
afterAll(() => rig?.close());

/** The highlighted person's marker and the middle of the map between the messages over its top and the legends. */
const placing = () => page.evaluate(() => {
  const map = document.querySelector('.floor-viewer')!.getBoundingClientRect();
  const notices = document.querySelector('.map-notices')!.getBoundingClientRect();
  const legends = document.querySelector('.map-legends')!.getBoundingClientRect();
  const marker = document.querySelector('g.asset.highlighted')!.getBoundingClientRect();
  const top = notices.height > 0 ? notices.bottom : map.top;
  return {
    marker: { x: (marker.left + marker.right) / 2, y: (marker.top + marker.bottom) / 2 },
    middle: { x: (map.left + map.right) / 2, y: (top + legends.top) / 2 },
    notices: notices.height,
  };
});

const offBy = async () => {
  const { marker, middle } = await placing();
  return Math.max(Math.abs(marker.x - middle.x), Math.abs(marker.y - middle.y));
};

describe('"Show" a co-worker on a phone', () => {
  it('centres them in the part of the map the message and the legends leave free, and again once the message is closed', async () => {
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, server.accounts.regular, 'touch');
    await showCoWorker(page, 'Emma Nieminen', 'touch');
    const message = page.locator('.map-notices').getByText('Emma Nieminen is on Floor 0');
    await message.waitFor();
    await page.locator('g.asset.highlighted').waitFor();
    // the message stands over the map's top: the middle of what is seen is well below the map's own middle
    expect((await placing()).notices).toBeGreaterThan(40);
    await expect.poll(offBy).toBeLessThanOrEqual(5);
    await shot(page, 'phone-show-centred');
    // the message closed by a tap: the map left where "Show" put it centres them in the taller free part
    await page.locator('.map-notices').getByRole('button', { name: /Close|Dismiss/ }).first().tap();
    await expect.poll(async () => (await placing()).notices).toBe(0);
    await expect.poll(offBy).toBeLessThanOrEqual(5);
  });
});
