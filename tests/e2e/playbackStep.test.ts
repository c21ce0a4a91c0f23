// A replay's step as a person sees it (docs/reports.md "A step on the screen"):
// in Chromium on a floor of 2,000 desks, a click on the time slider jumps
// from 07:30 to 16:30 of the last working day (yesterday, or the Friday before
// a weekend: the seed's weekends are nearly empty; the day the bar opens), which changes the look of hundreds of
// desks, more than the page applies in one slice. Every frame the browser
// drew meanwhile is recorded (requestAnimationFrame: the DOM as that frame
// paints it): each shows the bar's time and the desks of one instant, never
// the new desks beside the old time, nor the new time over the old desks.
// Screenshots in test-results/e2e/playback-step-*.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastWorkingDayBefore } from '../../src/shared/reports/calendar.js';
import type { TestServer } from '../helpers/server.js';
import { shot, signIn } from './people.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;

// three days back reach a Friday from a Monday: the weekend before it is nearly empty in the seed's history
beforeAll(async () => ({ rig, server, page } = await startE2eRigWithPage({ server: { seed: { desks: 2_000, buildings: 1, floorsPerBuilding: 1, historyDays: 3 } } })));
afterAll(() => rig?.close());

/** Records, at each frame, the bar's time and every desk's status as the frame paints them. */
const RECORD_FRAMES = () => {
  const frames: Array<{ time: string; desks: string }> = [];
  const w = window as unknown as { __frames: typeof frames; __recording: boolean };
  w.__frames = frames;
  w.__recording = true;
  const tick = () => {
    if (!w.__recording) return;
    const desks = [...document.querySelectorAll('.floor-svg g.asset-desk[data-asset-id]')]
      .map((n) => `${n.getAttribute('data-asset-id')}=${n.getAttribute('data-status')}`).sort().join(' ');
    frames.push({ time: document.querySelector('[data-testid="playback-time"]')?.textContent ?? '', desks });
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

async function clickSliderAt(hour: number): Promise<void> {
  const box = (await page.getByRole('group', { name: 'Playback' }).getByLabel('Time of day').boundingBox())!;
  // the thumb's centre runs from 8 px in from either end of the track
  await page.mouse.click(box.x + 8 + (box.width - 16) * (hour / 24), box.y + box.height / 2);
}

const hourShown = async () => Number((await page.getByTestId('playback-time').innerText()).slice(0, 2));

describe('a replay step in Chromium', () => {
  it('shows the bar\'s time and the map of one instant in every frame of a jump across the day', async () => {
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, server.accounts.regular);
    await page.locator('.floor-svg g.asset-desk').first().waitFor();

    await page.getByRole('button', { name: 'Play back a day' }).click();
    const bar = page.getByRole('group', { name: 'Playback' });
    await expect.poll(() => bar.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    // it opens the location's last working day: on a Sunday or a Monday the Friday, not a weekend day when hardly a desk changes
    const { store, seed } = server.server;
    const tz = store.locations.get(seed.locationIds[0]!)!.timezone;
    expect(await bar.getAttribute('data-day')).toBe(lastWorkingDayBefore(Date.now(), tz));
    expect(await bar.getByLabel('Day', { exact: true }).inputValue()).toBe(lastWorkingDayBefore(Date.now(), tz));
    // an early hour, then a late one: each click lands hours away from the slider's thumb (a click on the thumb moves nothing)
    const [from, to] = Math.abs((await hourShown()) - 7.5) >= 2 ? [7.5, 16.5] : [12.5, 7.5];
    await clickSliderAt(from);
    await expect.poll(hourShown, { timeout: 15_000 }).toBe(Math.floor(from));
    await page.waitForTimeout(1_500);
    await shot(page, 'playback-step-00-before');

    await page.evaluate(RECORD_FRAMES);
    await clickSliderAt(to);
    await expect.poll(hourShown, { timeout: 15_000 }).toBe(Math.floor(to));
    await page.waitForTimeout(1_500);
    const frames = await page.evaluate(() => {
      const w = window as unknown as { __frames: Array<{ time: string; desks: string }>; __recording: boolean };
      w.__recording = false;
      return w.__frames;
    });
    await shot(page, 'playback-step-01-after');

    const before = frames[0]!;
    const after = frames.at(-1)!;
    expect(Number(before.time.slice(0, 2))).toBe(Math.floor(from));
    expect(Number(after.time.slice(0, 2))).toBe(Math.floor(to));
    const changed = (a: string, b: string) => { const x = a.split(' '); const y = new Set(b.split(' ')); return x.filter((d) => !y.has(d)).length; };
    // the jump changes more desks than one slice applies (200 at first)
    expect(changed(before.desks, after.desks), 'desks the jump changed').toBeGreaterThan(300);
    // every frame drawn shows one instant: the time of 08:30 with its desks, or the time of 16:30 with its desks
    const mixed = frames.filter((f) => (f.time === before.time ? f.desks !== before.desks : f.time === after.time ? f.desks !== after.desks : true));
    expect(mixed.map((f) => `${f.time}: ${changed(f.desks, f.time === before.time ? before.desks : after.desks)} desks of another instant`)).toEqual([]);
    expect(frames.length, 'frames drawn over the jump').toBeGreaterThan(10);
  });
});
