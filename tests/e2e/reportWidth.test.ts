// The report tables on a laptop (1280×800) in Chromium, as a person reads them:
// the table scrolls in its own region of the report panel, never the page, and
// scrolled sideways (the location report's eight columns are wider than the
// panel) each row still says which floor of which building it is: the columns
// naming the row stay, and the header row stays when the rows scroll (docs/reports.md "The table").
// Screenshots test-results/e2e/report-table-location.png, report-table-desks.png.

import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';
import { shot, signIn } from './people.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;

beforeAll(async () => ({ rig, server, page } = await startE2eRigWithPage({ server: { seed: { historyDays: 8 } }, page: { viewport: { width: 1280, height: 800 } } })));
afterAll(() => rig?.close());

const region = () => page.locator('.report-table-wrap');

/** Whether the element is drawn whole inside the table's region and is what a person sees at its middle. */
async function shownInRegion(target: Locator): Promise<boolean> {
  const handle = await target.elementHandle();
  return region().evaluate((wrap, el) => {
    if (!el) return false;
    const r = el.getBoundingClientRect();
    const w = wrap.getBoundingClientRect();
    const inside = r.left >= w.left - 0.5 && r.right <= w.left + wrap.clientWidth + 0.5 && r.top >= w.top - 0.5 && r.bottom <= w.top + wrap.clientHeight + 0.5;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return inside && !!hit && (hit === el || el.contains(hit));
  }, handle);
}

const pageScrollsSideways = () => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('report tables on a laptop', () => {
  it('scrolls the location report\'s table sideways inside the panel, keeping each row\'s floor and building in view', async () => {
    await page.goto(`${rig.viewer.url}/`);
    await signIn(page, server.accounts.regular);
    await page.getByRole('tab', { name: 'Reports', exact: true }).click();
    await page.getByRole('button', { name: 'Location' }).click();
    await page.locator('th', { hasText: 'Peak people' }).waitFor({ timeout: 60_000 });
    await page.getByTestId('report-done').waitFor({ timeout: 60_000 });
    await region().scrollIntoViewIfNeeded();
    expect(await pageScrollsSideways()).toBe(false);
    // the region stays inside the report panel
    const [wrap, panel] = await Promise.all([region().boundingBox(), page.locator('aside.right').boundingBox()]);
    expect(wrap!.x + wrap!.width).toBeLessThanOrEqual(panel!.x + panel!.width + 0.5);
    const cells = page.locator('.report-table tbody tr').first().locator('td');
    const [building, floor] = [cells.nth(0), cells.nth(1)];
    const named = [await building.innerText(), await floor.innerText()];
    expect(named[0]).toMatch(/^Helsinki HQ /);
    expect(named[1]).toMatch(/^Floor \d/);
    // a person turns the wheel sideways over the table, to its last column
    const box = await region().boundingBox();
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    await page.mouse.wheel(2_000, 0);
    await expect.poll(() => shownInRegion(page.locator('th', { hasText: 'Peak hour' }))).toBe(true);
    expect(await region().evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // the row still says which floor of which building it is, and the page itself did not move sideways
    expect(await shownInRegion(building)).toBe(true);
    expect(await shownInRegion(floor)).toBe(true);
    expect([await building.innerText(), await floor.innerText()]).toEqual(named);
    expect(await pageScrollsSideways()).toBe(false);
    expect(await page.evaluate(() => window.scrollX)).toBe(0);
    await shot(page, 'report-table-location');
  });

  it('keeps the header row in view when the desk report\'s rows scroll', async () => {
    await page.getByRole('button', { name: 'Desks', exact: true }).click();
    await page.locator('th', { hasText: 'Utilisation %' }).waitFor({ timeout: 60_000 });
    await page.getByTestId('report-done').waitFor({ timeout: 60_000 });
    await region().scrollIntoViewIfNeeded();
    expect(await pageScrollsSideways()).toBe(false);
    // the seeded location has more desks than the region shows at once
    expect(await page.locator('.report-table tbody tr').count()).toBeGreaterThanOrEqual(20);
    expect(await region().evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(40);
    const box = await region().boundingBox();
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    await page.mouse.wheel(0, 400);
    await expect.poll(() => region().evaluate((el) => el.scrollTop)).toBeGreaterThan(40);
    expect(await shownInRegion(page.locator('th', { hasText: 'Desk' }).first())).toBe(true);
    expect(await shownInRegion(page.locator('th', { hasText: 'Utilisation %' }))).toBe(true);
    await shot(page, 'report-table-desks');
  });
});
