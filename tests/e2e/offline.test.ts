// The offline app shell (issue 10 §2) in real Chromium: the viewer is served
// through a service worker, so after the browser is closed and the servers
// are gone, reopening it still starts the app and draws the saved floor with
// its names and floor-plan image; when the servers return, live data
// replaces the saved data. A persistent profile stands for the user's browser.

import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createApiProxy, type ApiProxy } from './apiProxy.js';
import { ARTIFACTS_DIR, buildViewer, launchPersistentChromium, serveViewer, type ViewerServer } from './harness.js';
import { BOOKINGS_OFFLINE } from '../../src/ui/components/reports/ReportDetails.js';
import { NEEDS_SERVER } from '../../src/ui/hooks/useServerReach.js';
import type { ReservationEvent } from '../../src/shared/types.js';
import { popup, shot, signIn, waitForHitPoint } from './people.js';

let server: TestServer;
let proxy: ApiProxy;
let viewer: ViewerServer;
let dist: string;
let profile: string;
let context: BrowserContext;
let page: Page;

/**
 * The seed books rooms through local working hours: cancel, as facility staff
 * would, the first location's bookings that run now or start within two hours,
 * so whichever room the test clicks offers "Book now" whatever the hour.
 */
async function freeRoomsForNow(): Promise<void> {
  const token = await server.signIn('edit');
  const { store, seed } = server.server;
  const now = Date.now();
  for (const booking of [...store.bookings.values()]) {
    if (store.sensors.get(booking.sensorId)?.location_id !== seed.locationIds[0]) continue;
    const events = (store.sensors.get(booking.sensorId)?.last_measurement?.events ?? []) as ReservationEvent[];
    const event = events.find((e) => e.booking_ref === booking.bookingRef);
    if (!event || event.end <= now || event.start >= now + 2 * 3_600_000) continue;
    const query = new URLSearchParams({ room_id: booking.roomId, booking_ref: booking.bookingRef });
    const res = await server.api(`/booking?${query}`, { method: 'DELETE', token });
    expect(res.status).toBe(204);
  }
}

async function open(): Promise<void> {
  context = await launchPersistentChromium(profile);
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  profile = mkdtempSync(join(tmpdir(), 'storey-profile-'));
  server = await startTestServer();
  await freeRoomsForNow();
  proxy = await createApiProxy(server.url);
  dist = await buildViewer();
  viewer = await serveViewer(dist, proxy.url);
  await open();
});

afterAll(async () => {
  await context?.close();
  await viewer?.close();
  await proxy?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe('offline app shell', () => {
  let building = '';
  let floorName = '';
  let user = '';
  let locationName = '';

  it('installs the service worker and keeps the floor and its image after a sign-in', async () => {
    await page.goto(`${viewer.url}/`);
    await signIn(page, server.accounts.regular);
    await page.locator('image.floor-plan').waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 10_000 }).toBe(true);
    const href = (await page.locator('image.floor-plan').getAttribute('href'))!;
    await expect
      .poll(() => page.evaluate(async (url) => !!(await caches.match(url)), href), { timeout: 10_000 })
      .toBe(true);
    // every script of the build is precached, the chunks loaded on first use too (search, directions)
    const scripts = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js')).map((f) => `${viewer.url}/assets/${f}`);
    expect(scripts.length).toBeGreaterThan(4);
    const missing = await page.evaluate(async (urls) => {
      const out: string[] = [];
      for (const url of urls) if (!(await caches.match(url))) out.push(url);
      return out;
    }, scripts);
    expect(missing).toEqual([]);
    building = await page.getByLabel('Building', { exact: true }).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]!.textContent!);
    floorName = await page.getByLabel('Floor', { exact: true }).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]!.textContent!);
    locationName = await page.getByLabel('Location', { exact: true }).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]!.textContent!);
    user = (await page.locator('.user > span').first().textContent())!;
    expect(building).not.toBe('');
    expect(locationName).not.toBe('');
    expect(user).not.toBe('');
    // the throttled IndexedDB writer saves the location
    await page.waitForTimeout(2500);
  });

  it('reopens with no server and no network: the saved floor with names and image', async () => {
    await context.close();
    await viewer.stop();
    await proxy.stop();
    await open();
    await context.setOffline(true);
    await page.goto(`${viewer.url}/`);
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 15_000 });
    await page.locator('[data-asset-id][aria-label^="Room "]').first().waitFor();
    // the saved location, buildings and floors by name, and who is signed in
    expect(await page.getByLabel('Location', { exact: true }).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]!.textContent)).toBe(locationName);
    expect(await page.locator('.user > span').first().textContent()).toBe(user);
    expect(await page.getByLabel('Building', { exact: true }).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]!.textContent)).toBe(building);
    expect(await page.getByLabel('Floor', { exact: true }).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]!.textContent)).toBe(floorName);
    await page.locator('[data-asset-id][aria-label^="Room "]', { hasText: /\S/ }).first().waitFor();
    const image = page.locator('image.floor-plan');
    await image.waitFor();
    // drawn from the service worker's cache: the network is off
    const href = (await image.getAttribute('href'))!;
    expect(await page.evaluate(async (url) => !!(await caches.match(url)), href)).toBe(true);
    expect(await page.getByTestId('from-cache').isVisible()).toBe(true);
    const banner = page.getByTestId('connection-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/Offline/);
    // people and the legends of the saved layers, under the saved-data notice
    expect(await page.locator('g.asset-employee').count()).toBeGreaterThan(0);
    expect(await page.getByRole('region', { name: 'Legends' }).getByRole('figure', { name: 'Legend: Desk usage' }).count()).toBe(1);
    await shot(page, '20-offline-reopen');
    // the finder's code was never loaded online in this browser: its first search offline loads it from the precache
    const finder = page.getByRole('combobox', { name: 'Find desks, rooms, people and more' });
    await finder.click();
    await page.keyboard.type('room');
    await page.getByRole('listbox', { name: 'Results' }).getByRole('option').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.finder-status').innerText()).toMatch(/\d found$/);
    await shot(page, '20b-offline-first-search');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    // a room clicked with the mouse (partly under the offline notices: the press must not move the map
    // away from under the pointer): its popup says its bookings need the server, not "Loading…" for ever
    const room = await waitForHitPoint(page, '[data-asset-id][aria-label^="Room "]');
    expect(room).not.toBeNull();
    const world = await page.locator('g.world').getAttribute('transform');
    await page.mouse.click(room!.x, room!.y);
    await popup(page).waitFor();
    expect(await page.locator('g.world').getAttribute('transform')).toBe(world);
    const bookings = popup(page).getByRole('region', { name: 'Recent bookings' });
    await expect.poll(() => bookings.innerText(), { timeout: 15_000 }).toContain(BOOKINGS_OFFLINE);
    expect(BOOKINGS_OFFLINE).toBe('Bookings need the connection to the server: they load once it is back.');
    expect(await bookings.innerText()).not.toContain('Loading bookings');
    await bookings.locator('p').scrollIntoViewIfNeeded();
    await shot(page, '20c-offline-room-bookings');

    // what cannot reach the server is not offered as if it could: "Book now" is in sight, disabled,
    // with the reason beside it (it used to be offered, and failed once pressed)
    const book = popup(page).getByRole('button', { name: 'Book now' });
    await book.waitFor();
    expect(await book.isDisabled()).toBe(true);
    expect(await popup(page).getByRole('note').innerText()).toBe(NEEDS_SERVER);
    expect(await book.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby')!)?.textContent)).toBe(NEEDS_SERVER);
    // a person's click on it sends nothing and says no failure
    await book.click({ force: true });
    await page.waitForTimeout(500);
    expect(await page.locator('.live-region').innerText()).not.toMatch(/failed/i);
    // the subject can be written meanwhile
    await popup(page).getByLabel('Subject').fill('Offline plans');
    await shot(page, '20d-offline-book-disabled');
    // every other write of the app waits the same way: a ticket, one's own location
    await page.getByRole('tab', { name: 'Report an issue' }).click();
    await page.getByLabel('Message').fill('Lamp flickers');
    const send = page.getByRole('button', { name: 'Send ticket' });
    expect(await send.isDisabled()).toBe(true);
    expect(await page.getByRole('tabpanel').getByRole('note').innerText()).toBe(NEEDS_SERVER);
    await shot(page, '20e-offline-ticket-disabled');
    await page.getByRole('tab', { name: 'My location' }).click();
    for (const name of ['Pick my place on the floor', 'Use the centre of the view', 'Clear my location']) {
      expect(await page.getByRole('button', { name }).isDisabled()).toBe(true);
    }
    await page.getByRole('tab', { name: 'People' }).click();
  });

  it('replaces the saved floor with live data when the server is back', async () => {
    await viewer.start();
    await proxy.start();
    await context.setOffline(false);
    await expect.poll(() => page.getByTestId('from-cache').count(), { timeout: 60_000 }).toBe(0);
    await page.getByTestId('connection-banner').waitFor({ state: 'hidden', timeout: 60_000 });
    // the room's popup opened offline loads its bookings now
    const bookings = popup(page).getByRole('region', { name: 'Recent bookings' });
    await expect.poll(() => bookings.innerText(), { timeout: 30_000 }).toMatch(/No bookings in the last 7 days\.|Completed as planned|Ended early|Extended|Removed|Upcoming|Unknown/);
    expect(await bookings.innerText()).not.toContain(BOOKINGS_OFFLINE);
    await bookings.scrollIntoViewIfNeeded();
    await shot(page, '21-back-online');
    // "Book now" is offered again, the reason gone, and a click books, its end on the app's one 24-hour clock
    const book = popup(page).getByRole('button', { name: 'Book now' });
    await expect.poll(() => book.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await popup(page).getByRole('note').count()).toBe(0);
    await book.click();
    await expect.poll(() => page.locator('.live-region').innerText(), { timeout: 15_000 }).toMatch(/ booked until \d\d:\d\d(?: \S+)?\./);
    expect(await page.locator('.live-region').innerText()).not.toMatch(/AM|PM/);
    await shot(page, '21b-booked-back-online');
    await page.getByRole('tab', { name: 'Report an issue' }).click();
    expect(await page.getByRole('button', { name: 'Send ticket' }).isEnabled()).toBe(true);
    await page.getByRole('tab', { name: 'People' }).click();
  });

  it('offers to reload into a new build once it is deployed, found by the open tab itself', async () => {
    viewer.deploy('build 2');
    // no reload and no test hook: the tab asks for a new build itself when its network comes back
    // (and hourly); a laptop that wakes up on another network does this
    await context.setOffline(true);
    await page.getByTestId('connection-banner').waitFor();
    await context.setOffline(false);
    const prompt = page.getByRole('alert').filter({ hasText: 'A new version of Storey is available.' });
    try {
      await prompt.waitFor({ timeout: 15_000 });
    } catch (error) {
      // what the browser had of the registration, for whoever reads a failure
      const state = await page.evaluate(async () => {
        const r = await navigator.serviceWorker.getRegistration();
        return { readyState: document.readyState, controller: navigator.serviceWorker.controller?.state, installing: r?.installing?.state, waiting: r?.waiting?.state, active: r?.active?.state };
      });
      throw new Error(`no update prompt; service worker registration: ${JSON.stringify(state)}`, { cause: error });
    }
    await shot(page, '22-update-available');
    // in the side panel's column, clear of the map's zoom buttons
    const [box, fit] = [(await prompt.boundingBox())!, (await page.getByRole('button', { name: 'Fit to floor' }).boundingBox())!];
    expect(box.x >= fit.x + fit.width || box.y >= fit.y + fit.height || box.y + box.height <= fit.y, JSON.stringify({ box, fit })).toBe(true);
    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor();
    expect(await prompt.count()).toBe(0);
    // the reloaded page runs the new build: its service worker is the one the server has now
    expect(await page.evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration();
      return r?.active ? (await fetch(r.active.scriptURL, { cache: 'no-store' })).text() : '';
    })).toContain('// build 2');
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null)).toBeNull();
  });
});
