// Keyboard and layout items of the viewer as a person meets them in Chromium:
// the side panels' tabs as one tab stop moved by the arrow keys (WAI-ARIA
// tabs), on a desktop and on a phone's closed sheet. Screenshots in
// test-results/e2e/keys-*.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eRig, type E2eRig } from './rig.js';
import { shot, signIn } from './people.js';

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
const selectedTab = (page: Page) => page.locator('[role="tab"][aria-selected="true"]').textContent();
const panelOf = (page: Page) => page.getByRole('tabpanel').getAttribute('aria-labelledby');

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
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
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
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
    expect(await page.getByLabel('Message').inputValue()).toBe('Coffee machine leaks');
    // one tab stop whichever tab is selected
    expect(await page.locator('[role="tab"][tabindex="0"]').count()).toBe(1);
    expect(await page.locator('[role="tab"][tabindex="0"]').textContent()).toBe('Report an issue');
  });

  it('on a phone, move over a closed sheet without opening it; Enter opens the tab reached', async () => {
    const { page } = await rig.openPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, rig.server.accounts.regular, 'touch');
    expect(await page.getByRole('tabpanel').count()).toBe(0);
    await page.getByRole('tab', { name: 'People' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toMatchObject({ role: 'tab', text: 'Reports' });
    // the sheet stays closed: the map keeps the screen while the arrows pass
    expect(await page.getByRole('tabpanel').count()).toBe(0);
    expect(await page.locator('[role="tab"][tabindex="0"]').textContent()).toBe('Reports');
    await page.keyboard.press('Enter');
    expect(await panelOf(page)).toBe('tab-analytics');
    // open, the sheet's tabs select as the arrows move
    await page.keyboard.press('ArrowLeft');
    expect(await panelOf(page)).toBe('tab-rooms');
    await shot(page, 'keys-02-phone-sheet-by-keys');
  });
});
