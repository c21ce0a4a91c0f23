// A desk's popup opens beside the desk, not over it (docs/ui.md "Where a popup
// opens"), in Chromium as a person opens it: a mouse click on a laptop-sized
// window and a tap on a phone (Pixel 7 emulation). Before, the popup went 12 px
// right of the desk's centre and slid left to stay inside the map: near the
// map's right edge, and on every desk of a phone's 412 px map, it lay over the
// desk the person had just pressed. Screenshots test-results/e2e/popup-*.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { popup, shot, signIn } from './people.js';
import { phone, startE2eRig, type E2eRig } from './rig.js';

let rig: E2eRig;

beforeAll(async () => {
  rig = await startE2eRig();
});
afterAll(() => rig?.close());

interface Box { x: number; y: number; width: number; height: number }

/** The desks a person can press now (nothing drawn over their centre), with their boxes, left to right. */
const pressableDesks = (page: Page) => page.evaluate(() => {
  const out: Array<{ id: string; box: { x: number; y: number; width: number; height: number } }> = [];
  for (const el of document.querySelectorAll('[data-asset-id][aria-label^="Desk "]')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (hit?.closest('[data-asset-id]') === el) out.push({ id: el.getAttribute('data-asset-id')!, box: { x: r.left, y: r.top, width: r.width, height: r.height } });
  }
  return out.sort((a, b) => a.box.x - b.box.x);
});

/** The asset a press at (x, y) lands on: the open one is drawn raised above the others as a copy naming it. */
const hitAssetAt = (page: Page, x: number, y: number) => page.evaluate(([px, py]) => {
  const el = document.elementFromPoint(px!, py!)?.closest('[data-asset-id], [data-raised-for]');
  return el?.getAttribute('data-asset-id') ?? el?.getAttribute('data-raised-for') ?? null;
}, [x, y]);

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const centre = (b: Box) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });

/** Presses the desk, waits for its popup, and gives the popup's box and the desk's as drawn then. */
async function open(page: Page, desk: { id: string; box: Box }, how: 'mouse' | 'touch'): Promise<{ dialog: Box; desk: Box; side: string | null }> {
  const { x, y } = centre(desk.box);
  if (how === 'touch') await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
  await popup(page).waitFor();
  await expect.poll(async () => (await popup(page).getByRole('heading', { level: 2 }).textContent()) ?? '').toMatch(/Desk/);
  const drawn = (await page.locator(`[data-asset-id="${desk.id}"][role="button"]`).boundingBox())!;
  return { dialog: (await popup(page).boundingBox())!, desk: drawn, side: await popup(page).getAttribute('data-side') };
}

describe('a desk\'s popup opens beside the desk', () => {
  it('on a laptop, right of a desk, and left of the rightmost desk instead of over it (mouse)', async () => {
    const { page } = await rig.openPage({ viewport: { width: 1366, height: 768 } });
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, rig.server.accounts.regular);
    await expect.poll(async () => (await pressableDesks(page)).length, { timeout: 15_000 }).toBeGreaterThan(3);
    const desks = await pressableDesks(page);
    const map = (await page.locator('.floor-viewer').boundingBox())!;

    const first = await open(page, desks[0]!, 'mouse');
    expect(overlaps(first.dialog, first.desk)).toBe(false);
    expect(first.side).toBe('right');
    expect(first.dialog.x).toBeGreaterThan(first.desk.x + first.desk.width);
    await page.keyboard.press('Escape');
    await popup(page).waitFor({ state: 'hidden' });

    // the floor dragged right with the mouse until its rightmost desk is too near the map's edge for 300 px beside
    // it: the popup flips to the desk's left
    const before = desks.at(-1)!;
    const from = { x: map.x + 40, y: map.y + map.height - 60 };
    const by = map.x + map.width - 150 - (before.box.x + before.box.width);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + (by * i) / 10, from.y);
    await page.mouse.up();
    await expect.poll(async () => {
      const now = (await pressableDesks(page)).find((d) => d.id === before.id);
      return now ? map.x + map.width - (now.box.x + now.box.width) : Infinity;
    }).toBeLessThan(300);
    const last = (await pressableDesks(page)).find((d) => d.id === before.id)!;
    const right = await open(page, last, 'mouse');
    expect(overlaps(right.dialog, right.desk)).toBe(false);
    expect(right.side).toBe('left');
    expect(right.dialog.x + right.dialog.width).toBeLessThan(right.desk.x);
    expect(right.dialog.x).toBeGreaterThanOrEqual(map.x);
    await shot(page, 'popup-laptop-left');
    await page.context().close();
  });

  it('on a phone, below or above the tapped desk, inside the map, the desk still in sight (touch)', async () => {
    const { page } = await rig.openPage(phone());
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, rig.server.accounts.regular, 'touch');
    await expect.poll(async () => (await pressableDesks(page)).length, { timeout: 15_000 }).toBeGreaterThan(3);
    const desks = await pressableDesks(page);
    const map = (await page.locator('.floor-viewer').boundingBox())!;
    for (const desk of [desks[0]!, desks[Math.floor(desks.length / 2)]!]) {
      const opened = await open(page, desk, 'touch');
      expect(overlaps(opened.dialog, opened.desk)).toBe(false);
      expect(['below', 'above']).toContain(opened.side);
      // the tapped desk stays where it was, uncovered: what the person pressed is what they read about
      const { x, y } = centre(opened.desk);
      expect(await hitAssetAt(page, x, y)).toBe(desk.id);
      expect(opened.dialog.x).toBeGreaterThanOrEqual(map.x);
      expect(opened.dialog.x + opened.dialog.width).toBeLessThanOrEqual(map.x + map.width);
      expect(opened.dialog.y).toBeGreaterThanOrEqual(map.y);
      expect(opened.dialog.y + opened.dialog.height).toBeLessThanOrEqual(map.y + map.height);
      await shot(page, `popup-phone-${opened.side}`);
      await popup(page).getByRole('button', { name: 'Close details' }).tap();
      await popup(page).waitFor({ state: 'hidden' });
    }
    await page.context().close();
  });
});
