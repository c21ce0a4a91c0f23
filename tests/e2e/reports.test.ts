// Reports in Chromium as a person uses them: open each report from the
// Reports tab, change the period, export the table as CSV and read the file,
// with a screenshot of each screen in test-results/e2e/.

import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDaysToKey, calendarDay, dateKeyOf } from '../../src/shared/reports/calendar.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ARTIFACTS_DIR, buildViewer, launchChromium, serveViewer, type ViewerServer } from './harness.js';

let server: TestServer;
let viewer: ViewerServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`) });
const done = () => page.getByTestId('report-done').waitFor({ timeout: 60_000 });

beforeAll(async () => {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  server = await startTestServer({ seed: { historyDays: 8 } });
  viewer = await serveViewer(await buildViewer(), server.url);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1500, height: 950 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await viewer?.close();
  await server?.close();
});

describe('reports in Chromium', () => {
  it('opens the desk report of the last 7 days from the Reports tab', async () => {
    await page.goto(`${viewer.url}/`);
    await page.getByLabel('Email').fill(server.accounts.regular.email);
    await page.getByLabel('Password').fill(server.accounts.regular.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor();
    await page.getByRole('tab', { name: 'Reports', exact: true }).click();
    await done();
    expect(await page.getByRole('button', { name: 'Desks' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('.report-table tbody tr').count()).toBeGreaterThan(5);
    expect(await page.getByRole('img', { name: /mean and peak by hour/ }).count()).toBe(1);
    const url = new URL(page.url());
    expect(url.searchParams.get('report[kind]')).toBe('desk');
    expect(url.searchParams.get('report[from]')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await shot('reports-01-desks');
  });

  it('changes the period and keeps it in the URL', async () => {
    const before = new URL(page.url()).searchParams.get('report[from]');
    await page.getByRole('button', { name: 'Yesterday' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('report[from]')).not.toBe(before);
    const url = new URL(page.url());
    expect(url.searchParams.get('report[from]')).toBe(url.searchParams.get('report[to]'));
    await done();
    await shot('reports-02-yesterday');
  });

  it('opens the room report and exports its table as CSV', async () => {
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.getByRole('button', { name: 'Rooms' }).click();
    await page.locator('th', { hasText: 'No-shows' }).waitFor({ timeout: 60_000 });
    await done();
    const rows = await page.locator('.report-table tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^storey-room-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('Room,Floor,Bookings,Booked h,In use h,Used while booked h,Use without booking h,No-shows,No-show rate %,Completed as planned,Ended early,Extended,Removed,Upcoming,Unknown,Busiest hour');
    expect(lines).toHaveLength(rows + 1);
    const firstRoom = await page.locator('.report-table tbody tr').first().locator('td').first().innerText();
    expect(lines.slice(1).some((l) => l.startsWith(`${firstRoom},`))).toBe(true);
    await shot('reports-03-rooms');
  });

  it('opens the environment and location reports', async () => {
    await page.getByRole('button', { name: 'Environment' }).click();
    await page.locator('th', { hasText: 'Outside band %' }).waitFor({ timeout: 60_000 });
    await done();
    expect(await page.locator('.small-multiples figure').count()).toBeGreaterThan(0);
    await shot('reports-04-environment');
    await page.getByRole('button', { name: 'Location' }).click();
    await page.locator('th', { hasText: 'Peak people' }).waitFor({ timeout: 60_000 });
    await done();
    expect(await page.locator('.report-table tbody tr').count()).toBeGreaterThan(0);
    await shot('reports-05-location');
  });

  it('colours desks by utilisation on the report layer, with a legend, and a click shows the desk\'s report line', async () => {
    await page.getByRole('button', { name: 'Desks' }).click();
    await done();
    await page.getByRole('checkbox', { name: 'Report', exact: true }).click();
    await page.locator('rect.report-mark').first().waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).searchParams.get('layers')).toContain('report');
    const legend = page.locator('.map-legends', { hasText: 'Desk utilisation (desk,' });
    await legend.waitFor();
    expect(await legend.innerText()).toMatch(/Under-used \(15–50 %\)/);
    const colours = new Set(await page.locator('rect.report-mark').evaluateAll((els) => els.map((e) => e.getAttribute('data-color'))));
    expect(colours.size).toBeGreaterThan(1);
    await page.locator('rect.report-mark').first().click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.locator('.report-line').innerText()).toMatch(/^Report: Utilisation (\d+ %|: no data)/);
    await shot('reports-06-layer');
    await dialog.getByRole('button', { name: 'Close details' }).click();
  });

  it('shows the recent bookings of a room with their history class in its popup', async () => {
    await page.locator('g.asset-room').first().click();
    const dialog = page.getByRole('dialog');
    const bookings = dialog.getByRole('region', { name: 'Recent bookings' });
    await bookings.locator('li').first().waitFor({ timeout: 30_000 });
    expect(await bookings.innerText()).toMatch(/Completed as planned|Ended early|Extended|Removed|Upcoming|Unknown/);
    await bookings.scrollIntoViewIfNeeded();
    await shot('reports-07-room-bookings');
    await dialog.getByRole('button', { name: 'Close details' }).click();
  });

  it('plays back a working day on the floor by mouse, then returns to the live floor', async () => {
    await page.getByRole('checkbox', { name: 'Report', exact: true }).click();
    const desks = page.locator('g.asset[aria-label^="Desk "]');
    const liveDesks = await desks.count();
    const tz = server.server.store.locations.get(server.server.seed.locationIds[0]!)!.timezone;
    let day = addDaysToKey(dateKeyOf(Date.now(), tz), -1);
    while (calendarDay(day, tz).weekday < 2 || calendarDay(day, tz).weekday > 4) day = addDaysToKey(day, -1);

    await page.getByRole('button', { name: 'Play back a day' }).click();
    const bar = page.getByRole('group', { name: 'Playback' });
    await bar.getByLabel('Day', { exact: true }).fill(day);
    const play = bar.getByRole('button', { name: 'Play', exact: true });
    await expect.poll(async () => `${await bar.getAttribute('data-day')} ${await bar.getAttribute('data-state')}`, { timeout: 60_000 }).toBe(`${day} done`);
    expect(await play.isEnabled()).toBe(true);
    const time = page.getByTestId('playback-time');
    const box = (await bar.getByLabel('Time of day').boundingBox())!;
    /** clicks the slider at an hour of the day and answers the hour the bar then shows */
    const seek = async (hour: number) => {
      const before = await time.innerText();
      await page.mouse.click(box.x + 8 + (box.width - 16) * (hour / 24), box.y + box.height / 2);
      await expect.poll(() => time.innerText()).not.toBe(before);
      return Number((await time.innerText()).slice(0, 2));
    };
    const statuses = async () => (await desks.evaluateAll((els) => els.map((e) => e.getAttribute('data-status') ?? ''))).join('|');
    expect(await seek(3)).toBeLessThan(6);
    await page.waitForTimeout(300);
    const night = await statuses();
    expect(night).not.toMatch(/occupied/);
    let changed = false;
    for (const hour of [10.5, 11.5, 14.5, 9.5]) {
      const shown = await seek(hour);
      expect(shown).toBeGreaterThanOrEqual(8);
      expect(shown).toBeLessThan(17);
      await page.waitForTimeout(300);
      if ((await statuses()) !== night) { changed = true; break; }
    }
    expect(changed).toBe(true);
    await shot('reports-08-playback');

    await bar.getByLabel('Speed').selectOption('3600');
    const before = await time.innerText();
    await play.click();
    await expect.poll(() => time.innerText(), { timeout: 5_000 }).not.toBe(before);
    await bar.getByRole('button', { name: 'Pause' }).click();
    const paused = await time.innerText();
    await bar.getByRole('button', { name: 'Step forward 15 minutes' }).click();
    await expect.poll(() => time.innerText()).not.toBe(paused);

    await bar.getByRole('button', { name: 'Back to live' }).click();
    await page.getByRole('button', { name: 'Play back a day' }).waitFor();
    await expect.poll(() => desks.count()).toBe(liveDesks);
    await shot('reports-09-back-to-live');
  });
});
