// One clock across the viewer, in Chromium with a US English browser (whose
// own clock has 12 hours): a room's popup, the playback bar, the replay
// notice and the replayed popup all say times on the same 24-hour clock in
// the location's zone (src/ui/lib/timeFormat.ts). The popups used to say
// "1:00 – 2:00 PM" while the bar said "13:00". Screenshots in
// test-results/e2e/times-*.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';
import { popup, shot, signIn, waitForHitPoint } from './people.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;

beforeAll(async () => ({ rig, server, page } = await startE2eRigWithPage({ page: { locale: 'en-US' } })));
afterAll(() => rig?.close());

/** Every clock time in a text ("9:30", "16:05"), and whether any says AM or PM. */
function clockTimes(text: string): { times: string[]; twelveHour: boolean } {
  return { times: text.match(/\b\d{1,2}[:.]\d\d\b/g) ?? [], twelveHour: /\b(AM|PM|am|pm)\b/.test(text) };
}

describe('times in Chromium', () => {
  it('says every time on one 24-hour clock: a room popup, the playback bar and the replayed popup', async () => {
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, server.accounts.regular);

    // a room's popup, clicked with the mouse: its bookings of the last days, morning and afternoon
    const room = await waitForHitPoint(page, '[data-asset-id][aria-label^="Room "]');
    expect(room).not.toBeNull();
    await page.mouse.click(room!.x, room!.y);
    const dialog = popup(page);
    const bookings = dialog.getByRole('region', { name: 'Recent bookings' });
    await expect.poll(() => bookings.innerText(), { timeout: 30_000 }).toMatch(/\d\d:\d\d/);
    const live = clockTimes(await dialog.innerText());
    expect(live.twelveHour).toBe(false);
    expect(live.times.length).toBeGreaterThan(0);
    expect(live.times.every((t) => /^\d\d:\d\d$/.test(t))).toBe(true);
    await shot(page, 'times-01-room-popup');
    await dialog.getByRole('button', { name: 'Close details' }).click();

    // the playback bar, moved by keyboard to the day's last minute: a 12-hour clock would say 11:59 PM
    await page.getByRole('button', { name: 'Play back a day' }).click();
    const bar = page.getByRole('group', { name: 'Playback' });
    await expect.poll(() => bar.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    const slider = bar.getByLabel('Time of day');
    await slider.focus();
    await page.keyboard.press('End');
    const time = page.getByTestId('playback-time');
    await expect.poll(() => time.innerText()).toBe('23:59');
    expect(await slider.getAttribute('aria-valuetext')).toMatch(/^23:59(?: \S+)?$/);
    await expect.poll(() => page.getByTestId('playback-indicator').innerText()).toMatch(/ at 23:59(?: \S+)?, not live\.$/);
    await page.keyboard.press('Home');
    await expect.poll(() => time.innerText()).toBe('00:00');
    await page.keyboard.press('PageUp');
    await page.keyboard.press('End');
    await expect.poll(() => time.innerText()).toBe('23:59');

    // the same room on the replayed map: its popup says the bar's instant on the same clock
    const replayed = await waitForHitPoint(page, `[data-asset-id="${room!.id}"]`);
    expect(replayed).not.toBeNull();
    await page.mouse.click(replayed!.x, replayed!.y);
    const note = popup(page).getByTestId('popup-replay');
    await expect.poll(() => note.innerText(), { timeout: 15_000 }).toMatch(/^As at .*\b23:59\b.* \(replay\)$/);
    const replay = clockTimes(await popup(page).innerText());
    expect(replay.twelveHour).toBe(false);
    expect(replay.times.every((t) => /^\d\d:\d\d$/.test(t))).toBe(true);
    await shot(page, 'times-02-playback-and-replayed-popup');
  });
});
