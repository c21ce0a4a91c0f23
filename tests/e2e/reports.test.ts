// Reports in Chromium as a person uses them: open each report from the
// Reports tab, watch it page and cancel it, meet a failing server and an
// empty period, change the period, export the table as CSV and read the
// file, colour the floor, and play a day back by mouse and by keyboard, with
// a screenshot of each screen in test-results/e2e/. The API is reached
// through a proxy that can slow down or refuse the measurements.

import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDaysToKey, calendarDay, dateKeyOf } from '../../src/shared/reports/calendar.js';
import type { TestServer } from '../helpers/server.js';
import type { ApiProxy } from './apiProxy.js';
import { dayInWords, shot } from './people.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';

let rig: E2eRig;
let server: TestServer;
let proxy: ApiProxy;
let page: Page;

const done = () => page.getByTestId('report-done').waitFor({ timeout: 60_000 });
const MEASUREMENTS = /\/measurements\//;

/** Clicks Export CSV and answers the file's name and its lines, parsed. */
async function exportCsv(): Promise<{ name: string; lines: string[][] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const bytes = readFileSync((await download.path())!);
  // UTF-8 with its byte-order mark, so a spreadsheet app reads "CO₂" and "°C" as written
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString('utf8');
  const parsed = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return { name: download.suggestedFilename(), lines: parsed.data };
}

/** The words a KPI of the report says, by its label ("Peak day" → "Nov 23"). */
const kpi = (label: string) => page.locator('.report-totals > div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd').innerText();

/** The days of a period (keys, both included) in the page's date words, and back: words → key. */
async function periodDays(from: string, to: string): Promise<Map<string, string>> {
  const days = new Map<string, string>();
  for (let day = from; day <= to; day = addDaysToKey(day, 1)) days.set(await dayInWords(page, day), day);
  return days;
}

/** The report table's cells as text, with the table's '—' for no value as the file's empty field. */
const tableCells = () => page.locator('.report-table tbody tr').evaluateAll((trs) =>
  trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent === '—' ? '' : td.textContent ?? ''))));

beforeAll(async () => {
  ({ rig, server, page } = await startE2eRigWithPage({ server: { seed: { historyDays: 8 } }, proxy: true, page: { viewport: { width: 1500, height: 950 }, acceptDownloads: true } }));
  proxy = rig.proxy!;
});

afterAll(() => rig?.close());

describe('reports in Chromium', () => {
  it('opens the desk report of the last 7 days from the Reports tab', async () => {
    await page.goto(`${rig.viewer.url}/`);
    await page.getByLabel('Email').fill(server.accounts.regular.email);
    await page.getByLabel('Password').fill(server.accounts.regular.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor();
    await page.getByRole('tab', { name: 'Reports', exact: true }).click();
    await done();
    expect(await page.getByRole('button', { name: 'Desks' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('.report-table tbody tr').count()).toBeGreaterThan(5);
    expect(await page.getByRole('img', { name: /mean and peak by hour/ }).count()).toBe(1);
    const legends = await page.locator('section.reports').getByRole('list', { name: 'Legend' }).allInnerTexts();
    expect(legends[0]).toMatch(/Mean\s+Peak \(highest ten minutes\)/);
    // the hour bars keep to the working hours (7–18), and draw an hour outside them only out to one that had use
    const bars = await page.getByRole('img', { name: /mean and peak by hour/ }).locator('g[data-hour]')
      .evaluateAll((gs) => gs.map((g) => ({ hour: Number(g.getAttribute('data-hour')), peak: g.querySelector('rect.peak title')!.textContent! })));
    const hours = bars.map((b) => b.hour);
    expect(hours.slice(hours.indexOf(7), hours.indexOf(17) + 1)).toEqual([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    const outside = bars.filter((b) => b.hour < 7 || b.hour >= 18);
    for (const edge of [bars[0]!, bars.at(-1)!].filter((b) => outside.includes(b))) expect(edge.peak).toMatch(/peak (< 1|[1-9]\d*) %, outside working hours$/);
    expect(legends[0]).toMatch(outside.length ? /Working hours 7–18\s+In use outside them too \(paler\): \d/ : /Working hours 7–18\s+No use outside them$/);
    expect(legends[1]).toMatch(/^0 %\s+\d+ %\s+No data$/);
    const url = new URL(page.url());
    expect(url.searchParams.get('report[kind]')).toBe('desk');
    expect(url.searchParams.get('report[from]')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // the busiest day in the app's date words ("Nov 23"), one of the period's days
    const days = await periodDays(url.searchParams.get('report[from]')!, url.searchParams.get('report[to]')!);
    expect(days.has(await kpi('Busiest day'))).toBe(true);
    await shot(page, 'reports-01-desks');
  });

  it('shows its progress while it pages, cancels, and runs again', async () => {
    // two pages of the network go through, the next ones wait: the report is caught half way
    let through = 2;
    proxy.hold((path, method) => method !== 'OPTIONS' && MEASUREMENTS.test(path) && through-- <= 0);
    try {
      await page.getByRole('button', { name: 'Last 14 days' }).click();
      const bar = page.getByRole('progressbar', { name: 'Report progress' });
      await bar.waitFor({ timeout: 30_000 });
      await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 30_000 }).toBe(2);
      expect(Number(await bar.getAttribute('max'))).toBeGreaterThanOrEqual(14);
      expect(await page.getByTestId('report-loading').innerText()).toMatch(/^Loading 2 of about \d+ pages, [\d,]+ readings · \d+ s\s*Cancel$/);
      await shot(page, 'reports-02-progress');
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    } finally {
      proxy.release();
    }
    const cancelled = page.getByTestId('report-cancelled');
    await cancelled.waitFor({ timeout: 30_000 });
    expect(await cancelled.innerText()).toMatch(/^Report cancelled after \d+ of about \d+ pages\.\s*Run again$/);
    expect(await page.locator('.report-table').count()).toBe(0);
    await shot(page, 'reports-03-cancelled');
    await page.getByRole('button', { name: 'Run again' }).click();
    await done();
    expect(await page.getByTestId('report-done').innerText()).toMatch(/saved on this device/);
  });

  it('says when the server refuses the measurements, and tries again', async () => {
    proxy.fail(MEASUREMENTS, 503);
    const error = page.getByTestId('report-error');
    try {
      await page.getByRole('button', { name: 'Environment' }).click();
      await error.waitFor({ timeout: 30_000 });
      expect(await error.innerText()).toMatch(/^The report could not be computed: The server answered 503\.\s*Try again$/);
      await shot(page, 'reports-04-error');
    } finally {
      proxy.fail(null);
    }
    await error.getByRole('button', { name: 'Try again' }).click();
    await done();
    expect(await page.locator('.small-multiples figure').count()).toBeGreaterThan(0);
    expect(await page.locator('section.reports').getByRole('list', { name: 'Legend' }).innerText()).toMatch(/Comfort band/);
    await page.getByRole('button', { name: 'Desks' }).click();
    await done();
  });

  it('opens a shared link to a period before any history and says nothing was measured', async () => {
    const tz = server.server.store.locations.get(server.server.seed.locationIds[0]!)!.timezone;
    const today = dateKeyOf(Date.now(), tz);
    const link = new URL(page.url());
    link.searchParams.set('report[from]', addDaysToKey(today, -60));
    link.searchParams.set('report[to]', addDaysToKey(today, -54));
    await page.goto(link.toString());
    const empty = page.getByTestId('report-empty');
    await empty.waitFor({ timeout: 60_000 });
    // the period's days in the app's date words ("Sep 26"), as the popups and the playback write a day
    const [from, to] = [await dayInWords(page, addDaysToKey(today, -60)), await dayInWords(page, addDaysToKey(today, -54))];
    expect(await empty.innerText()).toBe(`No readings from ${from} to ${to} in the whole location: the sensors sent nothing in this period. Choose another period.`);
    expect(await page.locator('.report-table').count()).toBe(0);
    await shot(page, 'reports-05-empty');
  });

  it('changes the period by a preset and by typed dates, and keeps it in the URL', async () => {
    const before = new URL(page.url()).searchParams.get('report[from]');
    await page.getByRole('button', { name: 'Yesterday' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('report[from]')).not.toBe(before);
    const url = new URL(page.url());
    expect(url.searchParams.get('report[from]')).toBe(url.searchParams.get('report[to]'));
    await done();
    await shot(page, 'reports-06-yesterday');

    // typed as a person types into date fields (month, day, year), applied with Enter
    const tz = server.server.store.locations.get(server.server.seed.locationIds[0]!)!.timezone;
    const today = dateKeyOf(Date.now(), tz);
    const [from, to] = [addDaysToKey(today, -5), addDaysToKey(today, -3)];
    const typed = (key: string) => `${key.slice(5, 7)}${key.slice(8, 10)}${key.slice(0, 4)}`;
    const fromBox = (await page.getByLabel('From', { exact: true }).boundingBox())!;
    await page.mouse.click(fromBox.x + 12, fromBox.y + fromBox.height / 2);
    await page.keyboard.type(typed(from));
    const toBox = (await page.getByLabel('To', { exact: true }).boundingBox())!;
    await page.mouse.click(toBox.x + 12, toBox.y + toBox.height / 2);
    await page.keyboard.type(typed(addDaysToKey(from, -1)));
    expect(await page.getByText('The period ends before it starts.').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
    // still yesterday's report: nothing half-typed was run
    expect(new URL(page.url()).searchParams.get('report[to]')).toBe(url.searchParams.get('report[to]'));
    await page.mouse.click(toBox.x + 12, toBox.y + toBox.height / 2);
    await page.keyboard.type(typed(to));
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('report[to]')).toBe(to);
    expect(new URL(page.url()).searchParams.get('report[from]')).toBe(from);
    await done();
    await shot(page, 'reports-06b-typed-period');
  });

  it('opens the room report and exports its table as CSV', async () => {
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.getByRole('button', { name: 'Rooms' }).click();
    await page.locator('th', { hasText: 'No-shows' }).waitFor({ timeout: 60_000 });
    await done();
    const rows = await page.locator('.report-table tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    const { name, lines } = await exportCsv();
    expect(name).toMatch(/^storey-room-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(lines[0]).toEqual(['Room', 'Floor', 'Bookings', 'Booked h', 'In use h', 'Used while booked h', 'Use without booking h', 'No-shows', 'No-show rate %', 'Completed as planned', 'Ended early', 'Extended', 'Removed', 'Upcoming', 'Unknown', 'Busiest hour']);
    expect(lines).toHaveLength(rows + 1);
    // the file holds what the table shows, cell by cell
    expect(lines.slice(1)).toEqual(await tableCells());
    expect(lines.slice(1).reduce((n, l) => n + Number(l[2]), 0)).toBeGreaterThan(0);
    await shot(page, 'reports-07-rooms');
  });

  it('opens the environment and location reports', async () => {
    await page.getByRole('button', { name: 'Environment' }).click();
    await page.locator('th', { hasText: 'Outside band %' }).waitFor({ timeout: 60_000 });
    await done();
    expect(await page.locator('.small-multiples figure').count()).toBeGreaterThan(0);
    const env = await exportCsv();
    expect(env.name).toMatch(/^storey-environment-report-.*\.csv$/);
    expect(env.lines[0]).toEqual(['Type', 'Place', 'Floor', 'Mean', 'Min', 'Max', 'Unit', 'Comfort band', 'Outside band h', 'Outside band %']);
    expect(env.lines.slice(1, 1 + (await tableCells()).length)).toEqual(await tableCells());
    // the sensor types in the words of the map's layers and legends (docs/reports.md), in the file as on screen
    expect(env.lines.find((l) => l[0] === 'CO₂')?.[7]).toBe('0–800');
    expect(env.lines.some((l) => l[0] === 'co2')).toBe(false);
    expect(await page.locator('.report-totals dt').first().innerText()).toMatch(/^(CO₂|Temperature|Humidity|TVOC|Illuminance|Pressure|Loudness) outside /);
    // the worst rooms are told apart where two buildings have a room of one name
    const named = await page.locator('.report-totals dt').allInnerTexts();
    expect(named.some((t) => t.startsWith('Worst '))).toBe(true);
    expect(new Set(named).size).toBe(named.length);
    // each building has its F0-R1: a worst room says its floor even when the other building's is not among the worst
    expect(named.filter((t) => t.startsWith('Worst ')).filter((t) => !/ \(Floor \d+, .+\)$/.test(t))).toEqual([]);
    await page.locator('.report-totals').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'reports-08-environment');
    await page.getByRole('button', { name: 'Location' }).click();
    await page.locator('th', { hasText: 'Peak people' }).waitFor({ timeout: 60_000 });
    await done();
    expect(await page.locator('.report-table tbody tr').count()).toBeGreaterThan(0);
    // its peak day in the app's date words, one of the period's days, in the KPI and the table; the CSV keeps the ISO date
    const url = new URL(page.url());
    const days = await periodDays(url.searchParams.get('report[from]')!, url.searchParams.get('report[to]')!);
    expect(days.has(await kpi('Peak day'))).toBe(true);
    const loc = await exportCsv();
    const column = loc.lines[0]!.indexOf('Peak day');
    const onScreen = (await tableCells()).map((cells) => cells[column]);
    expect(onScreen.filter((d) => d).length).toBeGreaterThan(0);
    expect(onScreen.every((d) => !d || days.has(d!))).toBe(true);
    const inWords = new Map([...days].map(([words, key]) => [key, words]));
    expect(loc.lines.slice(1).map((l) => (l[column] ? inWords.get(l[column]!) ?? l[column] : ''))).toEqual(onScreen);
    await page.locator('.report-totals').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'reports-09-location');
  });

  it('colours desks by utilisation on the report layer, with a legend, and a click shows the desk\'s report line', async () => {
    await page.getByRole('button', { name: 'Desks' }).click();
    await done();
    await page.getByRole('checkbox', { name: 'Report', exact: true }).click();
    await page.locator('rect.report-mark').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => new URL(page.url()).searchParams.get('layers')).toContain('report');
    const legend = page.locator('.map-legends', { hasText: 'Desk utilisation (desk,' });
    await legend.waitFor();
    expect(await legend.innerText()).toMatch(/Under-used \(15–50 %\)/);
    const colours = new Set(await page.locator('rect.report-mark').evaluateAll((els) => els.map((e) => e.getAttribute('data-color'))));
    expect(colours.size).toBeGreaterThan(1);
    await page.locator('rect.report-mark').first().click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.locator('.report-line').innerText()).toMatch(/^Report: Utilisation (\d+ %|: no data)/);
    await shot(page, 'reports-10-layer');
    await dialog.getByRole('button', { name: 'Close details' }).click();

    // the rooms report colours the rooms by their no-show rate; a click shows the room's line
    await page.getByRole('button', { name: 'Rooms' }).click();
    await done();
    const roomMark = page.locator('polygon.report-mark').first();
    await roomMark.waitFor({ timeout: 30_000 });
    await page.locator('.map-legends', { hasText: 'No-show rate (room,' }).waitFor();
    const roomId = (await roomMark.getAttribute('data-asset-id'))!;
    expect(server.server.store.assets.get(roomId)?.type).toBe('room');
    await roomMark.click();
    await expect.poll(() => dialog.locator('.report-line').innerText()).toMatch(/^Report: (No-shows \d+ of \d+ bookings \(\d+ %\); [\d.]+ h booked, [\d.]+ h in use|\d+ bookings, [\d.]+ h booked.*)$/);
    await shot(page, 'reports-10b-layer-rooms');
    await dialog.getByRole('button', { name: 'Close details' }).click();
    await page.getByRole('button', { name: 'Desks' }).click();
    await done();
  });

  it('shows the recent bookings of a room with their history class in its popup', async () => {
    await page.locator('g.asset-room').first().click();
    const dialog = page.getByRole('dialog');
    const bookings = dialog.getByRole('region', { name: 'Recent bookings' });
    await bookings.locator('li').first().waitFor({ timeout: 30_000 });
    expect(await bookings.innerText()).toMatch(/Completed as planned|Ended early|Extended|Removed|Upcoming|Unknown/);
    await bookings.scrollIntoViewIfNeeded();
    await shot(page, 'reports-11-room-bookings');
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
    expect(await page.getByTestId('playback-indicator').innerText()).toMatch(new RegExp(`^Replay of ${await dayInWords(page, day)} at \\d\\d:\\d\\d(?: \\S+)?, not live\\.$`));
    await shot(page, 'reports-12-playback');

    await bar.getByLabel('Speed').selectOption('3600');
    const before = await time.innerText();
    await play.click();
    await expect.poll(() => time.innerText(), { timeout: 5_000 }).not.toBe(before);
    await bar.getByRole('button', { name: 'Pause' }).click();
    const paused = await time.innerText();
    await bar.getByRole('button', { name: 'Step forward 15 minutes' }).click();
    await expect.poll(() => time.innerText()).not.toBe(paused);


    // the keyboard: Tab from the step button over speed and "Back to live" to the slider
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-keyshortcuts'))).toBe('Space PageUp PageDown Home End');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-valuetext'))).toMatch(/^\d\d:\d\d(?: \S+)?$/);
    await page.keyboard.press('Home');
    await expect.poll(() => time.innerText()).toBe('00:00');
    await page.keyboard.press('PageUp');
    await expect.poll(() => time.innerText()).toBe('00:15');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => time.innerText()).toBe('00:16');
    await page.keyboard.press('End');
    await expect.poll(() => time.innerText()).toBe('23:59');
    await page.keyboard.press('PageDown');
    await page.keyboard.press('PageDown');
    await expect.poll(() => time.innerText()).toBe('23:29');
    /** the label of the focused control */
    const focused = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? document.activeElement?.textContent ?? '');
    // back over "Back to live" to the speed, two steps slower (3600× → 60×), and forward to the slider again
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Speed');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await bar.getByLabel('Speed').inputValue()).toBe('60');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Time of day');
    await page.keyboard.press('Space');
    await expect.poll(() => bar.getByRole('button', { name: 'Pause' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => time.innerText(), { timeout: 5_000 }).not.toBe('23:29');
    await page.keyboard.press('Space');
    await bar.getByRole('button', { name: 'Play', exact: true }).waitFor();
    await shot(page, 'reports-13-playback-keys');

    // a desk changes live while the replay is drawn: the replay keeps showing that day, and
    // back on the live floor the change is there at once, from the subscription kept open
    const { store } = server.server;
    const liveBusy = (id: string) => {
      const m = store.sensors.get(store.assets.get(id)!.data_provider_refs.occupancy!)?.last_measurement;
      return !!m && Number(m.value) > 0 && (m.valid_to ?? m.time + (m.valid_for ?? 0)) > Date.now();
    };
    // a desk free both in the replay and live, so each side shows something the other does not
    const notBusy = await page.locator('g.asset[aria-label^="Desk "]:not([data-status-kind="busy"])').evaluateAll((els) => els.map((e) => e.getAttribute('data-asset-id')!));
    const deskId = notBusy.find((id) => !liveBusy(id))!;
    expect(deskId).toBeTruthy();
    const replayed = await page.locator(`g.asset[data-asset-id="${deskId}"]`).getAttribute('data-status-kind');
    const sensorId = store.assets.get(deskId)!.data_provider_refs.occupancy!;
    const res = await server.api(`${server.url}/v2/measurements`, {
      method: 'POST', token: await server.signIn('edit'),
      json: { measurements: [{ sensor_id: sensorId, value: { time: Date.now(), valid_for: 3_600_000, value: 1 } }] },
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    await page.waitForTimeout(1_000);
    expect(await page.locator(`g.asset[data-asset-id="${deskId}"]`).getAttribute('data-status-kind')).toBe(replayed);

    await bar.getByRole('button', { name: 'Back to live' }).click();
    await page.getByRole('button', { name: 'Play back a day' }).waitFor();
    await expect.poll(() => desks.count()).toBe(liveDesks);
    expect(await page.getByTestId('playback-indicator').count()).toBe(0);
    await expect.poll(() => page.locator(`g.asset[data-asset-id="${deskId}"]`).getAttribute('data-status-kind')).toBe('busy');
    await shot(page, 'reports-14-back-to-live');
  });
});
