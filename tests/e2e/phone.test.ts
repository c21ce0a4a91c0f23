// The viewer on a phone-size screen (390×844, touch) in Chromium: the top bar
// is one row (a menu named by the floor, and the finder), the map has the
// screen, and every control is still reached by a finger and by the keyboard:
// the menu's choosers, layers and sign-out, the finder, the panels' sheet.
// Screenshots in test-results/e2e/phone-*.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import type { ViewerServer } from './harness.js';
import { phone, startE2eRigWithPage, type E2eRig } from './rig.js';
import { dayInWords, popup, shot, signIn, waitForHitPoint, worldTransform } from './people.js';

let rig: E2eRig;
let server: TestServer;
let viewer: ViewerServer;
let page: Page;

const VIEWPORT = { width: 390, height: 844 };

beforeAll(async () => ({ rig, server, viewer, page } = await startE2eRigWithPage({ page: phone(VIEWPORT) })));
afterAll(() => rig?.close());

const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
const menuButton = () => page.getByRole('button', { name: /^Menu/ });
const menu = () => page.getByRole('group', { name: 'Menu' });
const selected = (label: string) => menu().getByLabel(label, { exact: true }).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]!.textContent!);

describe('phone-size screen in Chromium', () => {
  it('keeps the top bar to one row and gives the map the screen', async () => {
    await page.goto(`${viewer.url}/`);
    await signIn(page, server.accounts.regular, 'touch');
    const bar = await box('header.top-bar');
    const map = await box('main.center');
    // one row of touch-sized controls (it was ~250 px: location, building, floor, finder and user stacked)
    expect(bar.height).toBeLessThanOrEqual(64);
    expect(map.height).toBeGreaterThan(VIEWPORT.height * 0.75);
    expect(map.width).toBe(VIEWPORT.width);
    // the menu button and the finder sit side by side in that row, each big enough for a finger
    const toggle = (await menuButton().boundingBox())!;
    const finder = (await page.getByRole('combobox', { name: 'Find desks, rooms, people and more' }).boundingBox())!;
    expect(Math.abs(toggle.y - finder.y)).toBeLessThan(8);
    for (const b of [toggle, finder]) expect(b.height).toBeGreaterThanOrEqual(44);
    // a finger has no `/` to press: the box does not offer it (a desktop's does, tests/e2e/finder.test.ts)
    expect(await page.getByRole('combobox', { name: 'Find desks, rooms, people and more' }).getAttribute('placeholder')).toBe('Find…');
    expect(await menuButton().innerText()).toMatch(/Floor/);
    expect(await menu().isHidden()).toBe(true);
    // the legends start folded (unfolded they covered a third of the map), a tap away
    const legends = page.getByRole('region', { name: 'Legends' });
    const unfold = legends.getByRole('button', { name: /^Show legends \(\d+\)$/ });
    expect(await legends.getByRole('figure').count()).toBe(0);
    await shot(page, 'phone-01-compact');
    await unfold.tap();
    // unfolded, one compact card: a tab per legend (docs/ui.md "Legends on narrow maps")
    await legends.getByRole('tab', { name: 'Desk usage' }).tap();
    await legends.getByRole('figure', { name: 'Legend: Desk usage' }).waitFor();
    await legends.getByRole('button', { name: 'Hide legends' }).tap();
    await expect.poll(() => legends.getByRole('figure').count()).toBe(0);
  });

  it('reaches the choosers, the layers and sign-out by touch in the menu, which closes when a floor is chosen', async () => {
    await menuButton().tap();
    await menu().waitFor();
    expect(await menuButton().getAttribute('aria-expanded')).toBe('true');
    expect(await selected('Location')).not.toBe('');
    expect(await selected('Building')).not.toBe('');
    await menu().getByRole('button', { name: 'Sign out' }).waitFor();
    // a layer switched by a tap
    const desks = menu().getByRole('checkbox', { name: 'Desks', exact: true });
    expect(await desks.isChecked()).toBe(false);
    await desks.tap();
    await expect.poll(() => desks.isChecked()).toBe(true);
    await expect.poll(() => new URL(page.url()).searchParams.get('layers')).toContain('desks');
    await shot(page, 'phone-02-menu');
    // another floor: the menu closes and the map shows it
    const floorBefore = new URL(page.url()).searchParams.get('floor');
    const floor = menu().getByLabel('Floor', { exact: true });
    await floor.tap();
    const other = await floor.evaluate((el) => [...(el as HTMLSelectElement).options].find((o) => !o.selected && o.value)!.value);
    await floor.selectOption(other);
    await expect.poll(() => new URL(page.url()).searchParams.get('floor')).toBe(other);
    expect(other).not.toBe(floorBefore);
    await menu().waitFor({ state: 'hidden' });
    expect(await menuButton().getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor();
    // a tap on the map below an open menu closes it too
    await menuButton().tap();
    await menu().waitFor();
    const open = (await menu().boundingBox())!;
    expect(open.y + open.height).toBeLessThan(VIEWPORT.height * 0.8);
    await page.touchscreen.tap(VIEWPORT.width / 2, (open.y + open.height + VIEWPORT.height) / 2);
    await menu().waitFor({ state: 'hidden' });
  });

  it('opens a popup by a tap on the map, and the panels as a sheet from their tabs', async () => {
    const mapBefore = await box('main.center');
    const room = await waitForHitPoint(page, '[data-asset-id][aria-label^="Room "]');
    expect(room).not.toBeNull();
    await page.touchscreen.tap(room!.x, room!.y);
    await popup(page).waitFor();
    const dialog = (await popup(page).boundingBox())!;
    expect(dialog.x).toBeGreaterThanOrEqual(0);
    expect(dialog.x + dialog.width).toBeLessThanOrEqual(VIEWPORT.width);
    await popup(page).getByRole('button', { name: 'Close details' }).tap();
    // the sheet: a tab opens it under the map, "Hide panel" gives the map back
    await page.getByRole('tab', { name: 'Rooms' }).tap();
    const rooms = page.getByRole('tabpanel');
    await rooms.getByRole('region', { name: 'Room finder' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Rooms' }).getAttribute('aria-selected')).toBe('true');
    const withSheet = await box('main.center');
    expect(withSheet.height).toBeLessThan(mapBefore.height);
    expect(withSheet.height).toBeGreaterThan(VIEWPORT.height * 0.4);
    await shot(page, 'phone-03-sheet');
    // the tabs run past the screen in one row: none lies under the sheet's button, and the row's edge fades where
    // more tabs lie beyond it; the last tab reached by the keyboard scrolls into sight, and the other edge fades
    const tablist = page.getByRole('tablist', { name: 'Panels' });
    const hide = page.getByRole('button', { name: 'Hide panel' });
    const row = (await tablist.boundingBox())!;
    expect(row.x + row.width).toBeLessThanOrEqual((await hide.boundingBox())!.x);
    expect(await tablist.getAttribute('data-more-right')).not.toBeNull();
    expect(await tablist.getAttribute('data-more-left')).toBeNull();
    await page.keyboard.press('End');
    const last = page.getByRole('tab').last();
    await expect.poll(async () => { const b = (await last.boundingBox())!; return b.x + b.width <= row.x + row.width + 1; }).toBe(true);
    await expect.poll(() => tablist.getAttribute('data-more-right')).toBeNull();
    expect(await tablist.getAttribute('data-more-left')).not.toBeNull();
    await shot(page, 'phone-03b-sheet-tabs-scrolled');
    await hide.tap();
    await expect.poll(() => page.getByRole('tabpanel').count()).toBe(0);
    await expect.poll(async () => (await box('main.center')).height).toBe(mapBefore.height);
  });

  it('keeps a popup below the message an action brings, under Play back a day, when the sheet leaves the map short', async () => {
    // a ticket or a voice: each takes a vote, which says "Vote saved." Found once the map stands still: the sheet the
    // last test hid gives the map its height back, and the floor is fitted again a few frames later
    const still = async () => { const a = await worldTransform(page); await page.waitForTimeout(300); const b = await worldTransform(page); return a.x === b.x && a.y === b.y && a.k === b.k; };
    await expect.poll(still, { timeout: 5_000 }).toBe(true);
    const said = await waitForHitPoint(page, '[data-asset-id][aria-label^="Voice "], [data-asset-id][aria-label^="Ticket "]');
    expect(said, 'a ticket or voice can be tapped').not.toBeNull();
    await page.touchscreen.tap(said!.x, said!.y);
    const dialog = popup(page);
    await dialog.waitFor();
    try {
      // the sheet leaves the map short: the popup moves up to the top of the map
      await page.getByRole('tab', { name: 'People' }).tap();
      await page.getByRole('tabpanel').waitFor();
      const agree = dialog.getByRole('button', { name: /Agree/ });
      await agree.waitFor();
      // the map is fitted again to its new size and the popup follows its ticket: tap once it stands still
      const where = async () => { const b = (await agree.boundingBox())!; await page.waitForTimeout(250); const c = (await agree.boundingBox())!; return b.y === c.y && b.x === c.x; };
      await expect.poll(where, { timeout: 5_000 }).toBe(true);
      const at = (await agree.boundingBox())!;
      await page.touchscreen.tap(at.x + at.width / 2, at.y + at.height / 2);
      const saved = page.locator('.map-notices').getByText('Vote saved.');
      await saved.waitFor();
      // the message stands under "Play back a day" on a phone: the popup keeps below its foot, not below its height
      const notice = (await saved.boundingBox())!;
      await expect.poll(async () => (await dialog.boundingBox())!.y, { timeout: 5_000 }).toBeGreaterThanOrEqual(notice.y + notice.height);
      await shot(page, 'phone-03c-popup-below-message');
    } finally {
      if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Close details' }).tap();
      if (await page.getByRole('button', { name: 'Hide panel' }).isVisible()) await page.getByRole('button', { name: 'Hide panel' }).tap();
    }
  });

  it('keeps the compact bar when the phone is turned to landscape, and the map most of its height', async () => {
    await page.setViewportSize({ width: VIEWPORT.height, height: VIEWPORT.width });
    await expect.poll(async () => (await box('header.top-bar')).height).toBeLessThanOrEqual(64);
    await expect.poll(async () => (await box('main.center')).height).toBeGreaterThan(VIEWPORT.width * 0.6);
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'phone-05-landscape');
    await page.setViewportSize(VIEWPORT);
    await expect.poll(async () => (await box('main.center')).width).toBe(VIEWPORT.width);
  });

  it('reaches every control of the bar by keyboard: the menu opens and closes, focus stays with it', async () => {
    // from the top of the page: the skip links, then the menu button
    await page.locator('.skip-links a').first().focus();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
    expect(await focused()).toBe('Skip to the map');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Skip past the map');
    await page.keyboard.press('Tab');
    expect(await focused()).toMatch(/^Menu, Floor/);
    await page.keyboard.press('Enter');
    await menu().waitFor();
    // the menu comes next in the tab order: its first chooser
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[role="group"]')?.getAttribute('aria-label'))).toBe('Menu');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).id && document.querySelector(`label[for="${document.activeElement!.id}"]`)?.textContent)).toBe('Location');
    await page.keyboard.press('Escape');
    await menu().waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Menu/);
    // closed, the menu is out of the tab order: next is the finder
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    await page.keyboard.type('room');
    const results = page.getByRole('listbox', { name: 'Results' });
    await results.getByRole('option').first().waitFor({ timeout: 15_000 });
    const list = (await results.boundingBox())!;
    expect(list.x).toBeGreaterThanOrEqual(0);
    expect(list.x + list.width).toBeLessThanOrEqual(VIEWPORT.width);
    await shot(page, 'phone-04-finder');
    await page.keyboard.press('Enter');
    await page.locator('g.asset.highlighted').waitFor({ timeout: 10_000 });
    // and sign-out, from the menu by keyboard
    await menuButton().focus();
    await page.keyboard.press('Enter');
    await menu().getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  });

  it('plays back a day with every control of the bar on the screen, tapped, and taps back to live', async () => {
    await signIn(page, server.accounts.regular, 'touch');
    await page.getByRole('button', { name: 'Play back a day' }).tap();
    const bar = page.getByRole('group', { name: 'Playback' });
    await expect.poll(() => bar.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    // every control inside the screen (one row ran past it: Speed and Back to live were out of reach)
    const controls = bar.locator('button, select, input');
    expect(await controls.count()).toBeGreaterThanOrEqual(7);
    for (const b of await controls.evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); return { name: e.getAttribute('aria-label') ?? e.textContent ?? e.id, left: r.left, right: r.right, bottom: r.bottom }; }))) {
      expect(b.left, b.name).toBeGreaterThanOrEqual(0);
      expect(b.right, b.name).toBeLessThanOrEqual(VIEWPORT.width);
    }
    // the map stops above the bar, and the notice that this is the past spans the map's width, not half of it
    const [map, barBox] = [await box('.floor-viewer'), (await bar.boundingBox())!];
    expect(map.y + map.height).toBeLessThanOrEqual(barBox.y + 1);
    // the folded legends sit at the map's foot, just above the bar, as they do live; they floated a bar's height
    // higher (lifted twice: the map already ends above the bar), over the floor in the middle of the map
    const legends = await box('.map-legends');
    expect(map.y + map.height - (legends.y + legends.height)).toBeLessThan(16);
    const notice = (await page.getByTestId('playback-indicator').boundingBox())!;
    expect(notice.width).toBeGreaterThan(VIEWPORT.width * 0.6);
    expect(notice.height).toBeLessThan(60);
    // the day in the popups' words ("Nov 23"), not its key
    const day = (await bar.getAttribute('data-day'))!;
    expect(await page.getByTestId('playback-indicator').innerText()).toMatch(new RegExp(`^Replay of ${await dayInWords(page, day)} at \\d\\d:\\d\\d(?: \\S+)?, not live\\.$`));
    const time = page.getByTestId('playback-time');
    const before = await time.innerText();
    await bar.getByRole('button', { name: 'Step forward 15 minutes' }).tap();
    await expect.poll(() => time.innerText()).not.toBe(before);
    await bar.getByLabel('Speed').selectOption('3600');
    expect(await bar.getByLabel('Speed').inputValue()).toBe('3600');
    await shot(page, 'phone-06-replay');
    await bar.getByRole('button', { name: 'Back to live' }).tap();
    await bar.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Play back a day' }).waitFor();
  });
});
