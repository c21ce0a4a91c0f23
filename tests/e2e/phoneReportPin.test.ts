// The report form's red pin on a phone (Pixel 7 emulation, touch) in Chromium:
// a ticket or voice not yet given a place goes to "the centre of the view", and
// that is the middle of the part of the map nothing covers, as "Show" centres
// (docs/ui.md "Centred where nothing covers the map"). It was the map's own
// middle, which the message over the map's top and the legends over its foot
// push off: the pin stood ~35 px above the middle of what is seen, and with the
// legends unfolded it can be under them. Screenshot
// test-results/e2e/phone-report-pin.png.

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

interface Rect { left: number; top: number; right: number; bottom: number }

/** The pin's tip, the middle of the map between the messages over its top and the legends, and what covers the map. */
const placing = () => page.evaluate(() => {
  const rect = (el: Element | null) => {
    const r = el?.getBoundingClientRect();
    return r && r.height > 0 ? { left: r.left, top: r.top, right: r.right, bottom: r.bottom } : null;
  };
  const map = rect(document.querySelector('.floor-viewer'))!;
  const notices = rect(document.querySelector('.map-notices'));
  const legends = rect(document.querySelector('.map-legends'));
  const pin = rect(document.querySelector('.place-pin'));
  const top = notices ? notices.bottom : map.top;
  const foot = legends ? legends.top : map.bottom;
  return {
    map, notices, legends, pin,
    // the pin's point is its tip, the foot of its drawing
    tip: pin ? { x: (pin.left + pin.right) / 2, y: pin.bottom } : null,
    middle: { x: (map.left + map.right) / 2, y: (top + foot) / 2 },
  };
});

const offBy = async () => {
  const { tip, middle } = await placing();
  return tip ? Math.max(Math.abs(tip.x - middle.x), Math.abs(tip.y - middle.y)) : Infinity;
};

const overlaps = (a: Rect, b: Rect | null) => !!b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The whole pin on the map, under no message and no legend. */
const pinSeen = async () => {
  const { pin, map, notices, legends } = await placing();
  return !!pin && pin.top >= map.top && pin.bottom <= map.bottom && !overlaps(pin, notices) && !overlaps(pin, legends);
};

describe('the report form\'s pin on a phone', () => {
  it('stands in the middle of what the message and the legends leave free, and follows when they change', async () => {
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, server.accounts.regular, 'touch');
    // "Show" a co-worker: a message comes over the map's top
    await showCoWorker(page, 'Emma Nieminen', 'touch');
    await page.locator('.map-notices').getByText('Emma Nieminen is on Floor 0').waitFor();
    await page.getByRole('tab', { name: 'Report an issue' }).tap();
    await page.getByText(/Placed at the red pin on the map/).waitFor();
    await page.locator('.place-pin').waitFor();
    expect((await placing()).notices).not.toBeNull();
    await expect.poll(offBy).toBeLessThanOrEqual(5);
    expect(await pinSeen()).toBe(true);
    await shot(page, 'phone-report-pin');

    // the legends unfolded take a third of the map's foot: the pin moves up, clear of them
    const legends = page.getByRole('region', { name: 'Legends' });
    await legends.getByRole('button', { name: /^Show legends \(\d+\)$/ }).tap();
    await legends.getByRole('figure').first().waitFor();
    await expect.poll(offBy).toBeLessThanOrEqual(5);
    expect(await pinSeen()).toBe(true);
    await shot(page, 'phone-report-pin-legends');
    await legends.getByRole('button', { name: 'Hide legends' }).tap();

    // the message closed by a tap: the pin goes to the middle of the taller free part
    await page.locator('.map-notices').getByRole('button', { name: /Close|Dismiss/ }).first().tap();
    await expect.poll(async () => (await placing()).notices).toBeNull();
    await expect.poll(offBy).toBeLessThanOrEqual(5);
    expect(await pinSeen()).toBe(true);
  });
});
