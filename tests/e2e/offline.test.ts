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
import { popup, shot, signIn, waitForHitPoint } from './people.js';

let server: TestServer;
let proxy: ApiProxy;
let viewer: ViewerServer;
let dist: string;
let profile: string;
let context: BrowserContext;
let page: Page;

async function open(): Promise<void> {
  context = await launchPersistentChromium(profile);
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  profile = mkdtempSync(join(tmpdir(), 'storey-profile-'));
  server = await startTestServer();
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
  });

  it('offers to reload into a new build once it is deployed', async () => {
    viewer.deploy('build 2');
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
    const prompt = page.getByRole('alert').filter({ hasText: 'A new version of Storey is available.' });
    await prompt.waitFor({ timeout: 15_000 });
    await shot(page, '22-update-available');
    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor();
    expect(await prompt.count()).toBe(0);
  });
});
