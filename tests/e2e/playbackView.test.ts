// The map's pan and zoom across the live floor and its replay (docs/ui.md "The view across live and replay"):
// a person zooms in on their part of the floor with the wheel and drags it into view, opens "Play back a day",
// picks another day and goes back to live — the map stays where they put it each time; a fitted floor is fitted
// again. Screenshots in test-results/e2e/playback-view-*.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDaysToKey } from '../../src/shared/reports/calendar.js';
import type { TestServer } from '../helpers/server.js';
import { shot, signIn, worldTransform } from './people.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;

beforeAll(async () => ({ rig, server, page } = await startE2eRigWithPage({ server: { seed: { historyDays: 3 } } })));
afterAll(() => rig?.close());

const bar = () => page.getByRole('group', { name: 'Playback' });
/** until the replay of the bar's day is loaded (its slider usable) */
const replayLoaded = () =>
  expect.poll(async () => (await bar().getAttribute('data-state')) === 'done' && (await bar().getByLabel('Time of day').isEnabled()), { timeout: 60_000 }).toBe(true);
/** the map's transform once drawn and still, rounded past the camera's float noise */
async function view(): Promise<{ x: number; y: number; k: number }> {
  const t = await worldTransform(page);
  return { x: Math.round(t.x), y: Math.round(t.y), k: Math.round(t.k * 1000) / 1000 };
}

describe('the map keeps its view across live and replay', () => {
  it('keeps a zoomed and dragged view when the replay opens, when its day changes and back to live', async () => {
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, server.accounts.regular);
    const svg = page.locator('svg.floor-svg');
    const box = (await svg.boundingBox())!;
    const fitted = await view();

    // zoom in with the wheel at a point right of the centre, then drag that part towards the middle
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.6);
    await page.mouse.wheel(0, -360);
    await expect.poll(async () => (await worldTransform(page)).k).toBeGreaterThan(fitted.k * 1.5);
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.6);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.5, { steps: 8 });
    await page.mouse.up();
    await page.waitForTimeout(400);
    const mine = await view();
    expect(mine.k).toBeGreaterThan(fitted.k * 1.5);
    await shot(page, 'playback-view-01-live-zoomed');

    await page.getByRole('button', { name: 'Play back a day' }).click();
    await replayLoaded();
    await page.locator('g.asset[data-asset-id]').first().waitFor();
    expect(await view()).toEqual(mine);
    await shot(page, 'playback-view-02-replay-same-view');

    // another day in the bar's Day field: a new replay, the same view
    const day = (await bar().getAttribute('data-day'))!;
    await bar().getByLabel('Day', { exact: true }).fill(addDaysToKey(day, -1));
    await expect.poll(() => bar().getAttribute('data-day')).toBe(addDaysToKey(day, -1));
    await replayLoaded();
    expect(await view()).toEqual(mine);

    await page.getByRole('button', { name: 'Back to live' }).click();
    await expect.poll(() => bar().count()).toBe(0);
    await page.locator('g.asset[data-asset-id]').first().waitFor();
    expect(await view()).toEqual(mine);
    await shot(page, 'playback-view-03-live-again');
  });

  it('shows the whole floor in the replay when the live floor was fitted', async () => {
    await page.getByRole('button', { name: 'Fit to floor' }).click();
    await page.waitForTimeout(400);
    await page.getByRole('button', { name: 'Play back a day' }).click();
    await replayLoaded();
    await worldTransform(page);
    // the floor's outline is all on the map, and fills most of it one way: a fit, not the kept zoom of before
    const map = (await page.locator('svg.floor-svg').boundingBox())!;
    const floor = (await page.locator('polygon.floor-outline').first().boundingBox())!;
    expect(floor.x).toBeGreaterThanOrEqual(map.x);
    expect(floor.y).toBeGreaterThanOrEqual(map.y);
    expect(floor.x + floor.width).toBeLessThanOrEqual(map.x + map.width);
    expect(floor.y + floor.height).toBeLessThanOrEqual(map.y + map.height);
    expect(Math.max(floor.width / map.width, floor.height / map.height)).toBeGreaterThan(0.5);
    await shot(page, 'playback-view-04-replay-fitted');
    await page.getByRole('button', { name: 'Back to live' }).click();
  });

  it('keeps the view the person panned to after showing a co-worker: the replay does not centre on them again', async () => {
    await page.getByRole('tab', { name: 'People' }).click();
    const item = page.locator('.people-finder li').filter({ has: page.getByRole('button', { name: /^Show / }) }).first();
    const name = (await item.locator('.person-name').textContent())!;
    await item.getByRole('button', { name: `Show ${name} on the floor` }).click();
    await expect.poll(() => page.locator('g.asset.highlighted[aria-label^="Co-worker "]').getAttribute('aria-label'), { timeout: 10_000 }).toContain(name);
    const box = (await page.locator('svg.floor-svg').boundingBox())!;
    await page.waitForTimeout(400);
    // a drag away from them
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 180, box.y + box.height / 2 + 90, { steps: 8 });
    await page.mouse.up();
    await page.waitForTimeout(400);
    const mine = await view();
    await page.getByRole('button', { name: 'Play back a day' }).click();
    await replayLoaded();
    await page.waitForTimeout(400);
    expect(await view()).toEqual(mine);
    await page.getByRole('button', { name: 'Back to live' }).click();
    await expect.poll(() => bar().count()).toBe(0);
    await page.waitForTimeout(400);
    expect(await view()).toEqual(mine);
  });
});
