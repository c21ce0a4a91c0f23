// Keyboard and layout items of the viewer as a person meets them in Chromium:
// the side panels' tabs as one tab stop moved by the arrow keys (WAI-ARIA
// tabs), on a desktop and on a phone's closed sheet; a place on the floor
// picked with the keyboard's marker, at any zoom and pan. Screenshots in
// test-results/e2e/keys-*.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phone, startE2eRig, type E2eRig } from './rig.js';
import { shot, signIn, worldTransform } from './people.js';

let rig: E2eRig;

beforeAll(async () => {
  rig = await startE2eRig();
});

afterAll(async () => {
  await rig?.close();
});

const focused = (page: Page) => page.evaluate(() => {
  const el = document.activeElement;
  return { role: el?.getAttribute('role') ?? null, text: el?.textContent ?? '', tag: el?.tagName.toLowerCase() ?? '' };
});
// the side panels' (a narrow map's legends are tabs too)
const selectedTab = (page: Page) => page.locator('#panels [role="tab"][aria-selected="true"]').textContent();
const panelOf = (page: Page) => page.locator('#panels').getByRole('tabpanel').getAttribute('aria-labelledby');
const panelCount = (page: Page) => page.locator('#panels').getByRole('tabpanel').count();
const tabStops = (page: Page) => page.locator('#panels [role="tab"][tabindex="0"]');

/** Each side-panel tab as laid out: its words, box, and whether its words fit on one line. */
const tabBoxes = (page: Page) => page.locator('#panels [role="tab"]').evaluateAll((els) => els.map((el) => {
  const r = el.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.3;
  const range = document.createRange();
  range.selectNodeContents(el);
  return { text: el.textContent ?? '', top: Math.round(r.top), left: r.left, right: r.right, oneLine: range.getClientRects().length === 1 && range.getBoundingClientRect().height < line * 1.5 };
}));

describe('side panel tabs as laid out', () => {
  for (const [width, height] of [[1024, 768], [1280, 800], [1920, 1080]] as const) {
    it(`are two full rows at ${width}×${height}: what one looks up over what one tells, every tab in sight on one line`, async () => {
      const { page } = await rig.openPage({ viewport: { width, height } });
      await page.goto(`${rig.viewer.url}/`);
      await signIn(page, rig.server.accounts.regular);
      const boxes = await tabBoxes(page);
      const rows = [...new Set(boxes.map((b) => b.top))].sort((a, b) => a - b);
      expect(rows).toHaveLength(2);
      expect(boxes.filter((b) => b.top === rows[0]).map((b) => b.text)).toEqual(['People', 'Rooms', 'Reports', 'Notifications']);
      expect(boxes.filter((b) => b.top === rows[1]).map((b) => b.text)).toEqual(['Report an issue', 'My location']);
      expect(boxes.every((b) => b.oneLine)).toBe(true);
      // both rows span the panel's width, no tab outside it
      const panel = (await page.locator('#panels').evaluate((el) => {
        const r = el.getBoundingClientRect();
        const pad = parseFloat(getComputedStyle(el).paddingLeft);
        return { left: r.left + el.clientLeft + pad, right: r.left + el.clientLeft + el.clientWidth - pad };
      }));
      for (const row of rows) {
        const inRow = boxes.filter((b) => b.top === row);
        expect(inRow[0]!.left).toBeCloseTo(panel.left, 0);
        expect(inRow.at(-1)!.right).toBeCloseTo(panel.right, 0);
      }
      await shot(page, `keys-00-tabs-${width}x${height}`);
    });
  }

  it('are one row filling the width where the panels go under the map (a tablet upright, 768×1024)', async () => {
    const { page } = await rig.openPage({ viewport: { width: 768, height: 1024 } });
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, rig.server.accounts.regular);
    const boxes = await tabBoxes(page);
    expect(new Set(boxes.map((b) => b.top)).size).toBe(1);
    expect(boxes.map((b) => b.text)).toEqual(['People', 'Rooms', 'Reports', 'Notifications', 'Report an issue', 'My location']);
    expect(boxes.every((b) => b.oneLine)).toBe(true);
    expect(boxes.at(-1)!.right).toBeLessThanOrEqual(768);
    await shot(page, 'keys-00-tabs-768x1024');
  });

  it('on a phone stay one row under the map that scrolls sideways to the last tab', async () => {
    const { page } = await rig.openPage(phone({ width: 390, height: 844 }));
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, rig.server.accounts.regular, 'touch');
    const boxes = await tabBoxes(page);
    expect(new Set(boxes.map((b) => b.top)).size).toBe(1);
    expect(boxes.map((b) => b.text)).toEqual(['People', 'Rooms', 'Reports', 'Notifications', 'Report an issue', 'My location']);
    const last = page.getByRole('tab', { name: 'My location' });
    await last.scrollIntoViewIfNeeded();
    const box = (await last.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await last.tap();
    await page.getByRole('heading', { name: 'My location' }).waitFor();
    await shot(page, 'keys-00-tabs-phone');
  });
});

describe('side panel tabs by keyboard', () => {
  it('are one tab stop that the arrow keys, Home and End move through, each panel shown as it is reached', async () => {
    const { page } = await rig.openPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, rig.server.accounts.regular);
    // from the skip link past the map, Tab reaches the selected tab, and the next Tab leaves the list
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toBe('Skip past the map');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ role: 'tab', text: 'People' });
    await page.keyboard.press('Tab');
    expect((await focused(page)).role).not.toBe('tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[role="tabpanel"]')?.id)).toBe('panel-people');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toMatchObject({ role: 'tab', text: 'People' });
    // the arrows move along the list and show each panel as they reach it
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toMatchObject({ role: 'tab', text: 'Rooms' });
    expect(await selectedTab(page)).toBe('Rooms');
    expect(await panelOf(page)).toBe('tab-rooms');
    await page.getByRole('heading', { name: 'Rooms' }).waitFor();
    // past the end of the first row (Notifications) to the start of the second
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toMatchObject({ role: 'tab', text: 'Report an issue' });
    await page.getByLabel('Message').waitFor();
    await shot(page, 'keys-01-tabs-arrowed-to-report');
    // what was typed in it stays while the arrows pass the other panels
    const tabTo = async (key: 'Tab' | 'Shift+Tab', until: (f: Awaited<ReturnType<typeof focused>>) => boolean) => {
      for (let i = 0; i < 8 && !until(await focused(page)); i += 1) await page.keyboard.press(key);
      expect(until(await focused(page))).toBe(true);
    };
    await tabTo('Tab', (f) => f.tag === 'textarea');
    await page.keyboard.type('Coffee machine leaks');
    await tabTo('Shift+Tab', (f) => f.role === 'tab');
    expect((await focused(page)).text).toBe('Report an issue');
    await page.keyboard.press('End');
    expect(await focused(page)).toMatchObject({ role: 'tab', text: 'My location' });
    expect(await panelOf(page)).toBe('tab-me');
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toMatchObject({ role: 'tab', text: 'People' });
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Home');
    expect(await selectedTab(page)).toBe('People');
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
    expect(await page.getByLabel('Message').inputValue()).toBe('Coffee machine leaks');
    // one tab stop whichever tab is selected
    expect(await tabStops(page).count()).toBe(1);
    expect(await tabStops(page).textContent()).toBe('Report an issue');
  });

  it('on a phone, move over a closed sheet without opening it; Enter opens the tab reached', async () => {
    const { page } = await rig.openPage(phone({ width: 390, height: 844 }));
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, rig.server.accounts.regular, 'touch');
    expect(await panelCount(page)).toBe(0);
    await page.getByRole('tab', { name: 'People' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toMatchObject({ role: 'tab', text: 'Reports' });
    // the sheet stays closed: the map keeps the screen while the arrows pass
    expect(await panelCount(page)).toBe(0);
    expect(await tabStops(page).textContent()).toBe('Reports');
    await page.keyboard.press('Enter');
    expect(await panelOf(page)).toBe('tab-analytics');
    // open, the sheet's tabs select as the arrows move
    await page.keyboard.press('ArrowLeft');
    expect(await panelOf(page)).toBe('tab-rooms');
    await shot(page, 'keys-02-phone-sheet-by-keys');
  });
});

/** The keyboard marker's centre on the page. */
async function markerAt(page: Page): Promise<{ x: number; y: number }> {
  const b = (await page.locator('.pick-marker .pick-marker-dot').boundingBox())!;
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** Moves the marker by arrow presses (Shift for 50 px steps, then 10 px) to within 10 px of a page point. */
async function steerTo(page: Page, target: { x: number; y: number }): Promise<void> {
  for (const [axis, minus, plus] of [['x', 'ArrowLeft', 'ArrowRight'], ['y', 'ArrowUp', 'ArrowDown']] as const) {
    const d = target[axis] - (await markerAt(page))[axis];
    const key = d < 0 ? minus : plus;
    for (let i = 0; i < Math.floor(Math.abs(d) / 50); i += 1) await page.keyboard.press(`Shift+${key}`);
    const left = target[axis] - (await markerAt(page))[axis];
    for (let i = 0; i < Math.round(Math.abs(left) / 10); i += 1) await page.keyboard.press(left < 0 ? minus : plus);
  }
}

describe('picking a place by keyboard', () => {
  it('moves a marker with the arrow keys, says where it is, places it with Enter and cancels with Escape', async () => {
    const { page } = await rig.openPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, rig.server.accounts.regular);
    // to the "Report an issue" panel and its pick button, by keys only
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toMatchObject({ role: 'tab', text: 'Report an issue' });
    for (let i = 0; i < 10 && (await focused(page)).tag !== 'textarea'; i += 1) await page.keyboard.press('Tab');
    await page.keyboard.type('Window does not close');
    for (let i = 0; i < 3 && (await focused(page)).text !== 'Pick a place on the floor'; i += 1) await page.keyboard.press('Tab');
    expect((await focused(page)).text).toBe('Pick a place on the floor');
    await page.keyboard.press('Enter');

    // the map has the focus and a marker; the hint says how and where
    expect((await focused(page)).role).toBe('application');
    const marker = page.locator('.pick-marker');
    await marker.waitFor();
    const hint = page.getByTestId('pick-hint');
    expect(await hint.getAttribute('role')).toBe('status');
    await expect.poll(() => hint.locator('.pick-where').count()).toBe(1);
    // 10 px a press, 50 with Shift, at the zoom the map is at
    const start = await markerAt(page);
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    const moved = await markerAt(page);
    expect(moved.x - start.x).toBeCloseTo(30, 0);
    expect(moved.y - start.y).toBeCloseTo(50, 0);
    // into room F0-R1: the live region names it
    const room = (await page.locator('[data-asset-id][role="button"][aria-label^="Room F0-R1"]').first().boundingBox())!;
    await steerTo(page, { x: room.x + room.width / 2, y: room.y + room.height * 0.75 });
    await expect.poll(() => hint.locator('.pick-where').textContent()).toBe(' Marker in room F0-R1.');
    await shot(page, 'keys-03-pick-marker-in-room');
    const placed = { x: Number(await marker.getAttribute('data-x')), y: Number(await marker.getAttribute('data-y')) };
    await page.keyboard.press('Enter');
    // placed there: the pin and the form's words, the marker gone, the focus back on the button
    await expect.poll(() => marker.count()).toBe(0);
    expect(await hint.count()).toBe(0);
    expect((await focused(page)).text).toBe('Pick a place on the floor');
    const pin = page.locator('.place-pin');
    expect(Number(await pin.getAttribute('data-x'))).toBeCloseTo(placed.x, 5);
    expect(Number(await pin.getAttribute('data-y'))).toBeCloseTo(placed.y, 5);
    expect(await page.getByText(/Placed at the red pin on the map/).textContent()).toContain(`(${placed.x.toFixed(1)}, ${placed.y.toFixed(1)})`);

    // again, zoomed in: the marker starts at the place picked, keeps its size, and the map pans to keep it in sight
    await page.keyboard.press('Enter');
    await marker.waitFor();
    expect(Number(await marker.getAttribute('data-x'))).toBeCloseTo(placed.x, 5);
    const size = (await page.locator('.pick-marker-line circle').boundingBox())!.width;
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('+');
    const before = await worldTransform(page);
    // its size on screen comes back once the zoom settles
    await expect.poll(async () => Math.round((await page.locator('.pick-marker-line circle').boundingBox())!.width)).toBe(Math.round(size));
    const map = (await page.locator('main.center').boundingBox())!;
    for (let i = 0; i < 30; i += 1) await page.keyboard.press('Shift+ArrowLeft');
    const after = await worldTransform(page);
    expect(after.x).toBeGreaterThan(before.x + 500);
    const seen = await markerAt(page);
    expect(seen.x).toBeGreaterThan(map.x);
    expect(seen.x).toBeLessThan(map.x + map.width);
    await shot(page, 'keys-04-pick-marker-panned');
    // Escape cancels: the place stays the one picked before, the focus goes back
    await page.keyboard.press('Escape');
    await expect.poll(() => marker.count()).toBe(0);
    expect(Number(await pin.getAttribute('data-x'))).toBeCloseTo(placed.x, 5);
    expect((await focused(page)).text).toBe('Pick a place on the floor');
    // and it is sent from there
    for (let i = 0; i < 3 && (await focused(page)).text !== 'Send ticket'; i += 1) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('Thanks! Your ticket is on the floor.').waitFor();
    const ticket = [...rig.server.server.store.assets.values()].find((a) => a.type === 'ticket' && a.speech_bubble === 'Window does not close');
    expect(ticket?.x).toBeCloseTo(placed.x, 5);
    expect(ticket?.y).toBeCloseTo(placed.y, 5);
  });
});
