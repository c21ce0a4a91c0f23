// The painted floor (issue 14, docs/ui.md "Painted floor") in real Chromium on
// a persistent profile: a reopen shows the user's saved floor from
// index.html before the app's script has run; a click on an asset then is
// not lost (its popup opens once the app is ready); a sign-out forgets the
// picture, and the next user's reopen shows only their own. The app's entry
// script is held back on purpose, so "before the app is ready" lasts as
// long as the test needs, whatever the machine's load.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ARTIFACTS_DIR, buildViewer, launchPersistentChromium, serveViewer, type ViewerServer } from './harness.js';
import { popup, shot, signIn, waitForHitPoint, worldTransform } from './people.js';

let server: TestServer;
let viewer: ViewerServer;
let profile: string;
let context: BrowserContext;
let page: Page;
/** releases the held entry script */
let release: () => void = () => undefined;

const ENTRY = /\/assets\/index-[^/]+\.js$/;
const PAINTED_KEY = 'storey:painted-floor';

beforeAll(async () => {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  profile = mkdtempSync(join(tmpdir(), 'storey-painted-'));
  server = await startTestServer();
  viewer = await serveViewer(await buildViewer(), server.url);
  // the page's own requests only (no service worker in between), so the entry script can be held
  context = await launchPersistentChromium(profile, { serviceWorkers: 'block' });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
});

afterAll(async () => {
  release();
  await context?.close();
  await viewer?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const stored = () => page.evaluate((key) => localStorage.getItem(key), PAINTED_KEY);

/** Reloads with the app's entry script held until `release()`: only index.html's own script runs. */
async function reloadHeld(): Promise<void> {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((done) => { open = done; });
  release = open;
  await context.unroute(ENTRY);
  await context.route(ENTRY, async (route) => {
    await gate;
    await route.continue();
  });
  await page.reload({ waitUntil: 'commit' });
}

/**
 * An asset of the painted floor and a point on screen where a person's click lands on it alone:
 * the centre of an asset's box (the record's click list) that no other box holds, on the picture.
 */
function paintedAssetPoint(): Promise<{ id: string; x: number; y: number } | null> {
  return page.evaluate((key) => {
    const boxes = (JSON.parse(localStorage.getItem(key)!) as { boxes: Array<[string, number, number, number, number]> }).boxes;
    const layer = document.querySelector<SVGGElement>('.painted g.layer-assets')!;
    const ctm = layer.getScreenCTM()!;
    for (const [id, x0, y0, x1, y1] of boxes) {
      const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
      if (boxes.some((b) => b[0] !== id && cx >= b[1] && cx <= b[3] && cy >= b[2] && cy <= b[4])) continue;
      const p = new DOMPoint(cx, cy).matrixTransform(ctm);
      if (p.x < 0 || p.y < 0 || p.x > innerWidth || p.y > innerHeight) continue;
      if (document.elementFromPoint(p.x, p.y)?.closest('.painted svg.floor-svg')) return { id, x: p.x, y: p.y };
    }
    return null;
  }, PAINTED_KEY);
}

describe('the painted floor', () => {
  it('reopens on the saved floor before the app runs, and a click on an asset then opens its popup once it does', async () => {
    await page.goto(`${viewer.url}/`);
    await signIn(page, server.accounts.regular);
    // kept once the live floor is drawn whole
    await expect.poll(stored, { timeout: 20_000 }).not.toBeNull();
    const live = await worldTransform(page);

    await reloadHeld();
    const painted = page.locator('.painted svg.floor-svg');
    await painted.waitFor();
    // the saved floor, as saved data, at the same pan and zoom, with the viewer's saved-data words
    expect(await painted.getAttribute('data-from-cache')).toBe('true');
    expect(Number(await page.locator('.painted .layer-assets').getAttribute('data-painted-count'))).toBeGreaterThan(10);
    expect(await page.locator('.painted .cache-indicator').textContent()).toBe('Showing saved data from this device.');
    expect(await page.locator('.painted g.world').getAttribute('transform')).toBe(`translate(${live.x} ${live.y}) scale(${live.k})`);
    await shot(page, '30-painted-floor');

    const asset = await paintedAssetPoint();
    expect(asset).not.toBeNull();
    await page.mouse.click(asset!.x, asset!.y);
    // the app has not run yet: this click landed on the picture
    expect(await page.locator('.painted').count()).toBe(1);
    expect(await page.locator('.floor-svg [data-asset-id]').count()).toBe(0);

    release();
    const dialog = popup(page);
    await dialog.waitFor({ timeout: 20_000 });
    // "Asset" until the popup's detail view has answered
    await expect.poll(() => dialog.locator('h2').textContent(), { timeout: 10_000 }).not.toBe('Asset');
    const title = (await dialog.locator('h2').textContent())!;
    expect(await page.locator(`[data-asset-id="${asset!.id}"]`).getAttribute('aria-label')).toContain(title);
    await expect.poll(() => new URL(page.url()).searchParams.get('asset')).toBe(asset!.id);
    expect(await page.locator('.painted').count()).toBe(0);
    // the app took over where the picture was: the floor did not jump
    expect(await worldTransform(page)).toEqual(live);
    await shot(page, '31-painted-click-opened');
  });

  it('forgets the picture at sign-out, and the next user reopens on their own floor only', async () => {
    await page.getByRole('button', { name: 'Close details' }).click();
    const first = (await page.locator('.user > span').first().textContent())!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    expect(await stored()).toBeNull();

    await reloadHeld();
    // nothing of the last user: the splash, until the app shows the sign-in form
    await page.locator('#root .splash').waitFor({ state: 'attached' });
    await page.waitForTimeout(500);
    expect(await page.locator('.painted').count()).toBe(0);
    expect(await page.locator('#root').textContent()).toBe('Starting…');
    release();

    await page.getByLabel('Email').waitFor();
    await signIn(page, server.accounts.edit);
    const second = (await page.locator('.user > span').first().textContent())!;
    expect(second).not.toBe(first);
    await expect.poll(async () => JSON.parse((await stored()) ?? 'null')?.userId ?? null, { timeout: 20_000 }).toBe(server.accounts.edit.userId);

    await reloadHeld();
    await page.locator('.painted svg.floor-svg').waitFor();
    expect(await page.locator('.painted .user > span').first().textContent()).toBe(second);
    await shot(page, '32-painted-next-user');
    release();
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 20_000 });
    expect(await page.locator('.painted').count()).toBe(0);
  });

  it('gives way at once to the app saying it could not start, when it cannot, and Reload starts it', async () => {
    const failure = page.getByRole('alert').filter({ hasText: 'Storey could not start.' });
    /** reloads and waits for the failure: the floor was painted first (its handoff is there), and is gone */
    const failedReload = async (detail: string, name: string) => {
      const t0 = Date.now();
      await page.reload({ waitUntil: 'commit' });
      await failure.waitFor({ timeout: 8_000 });
      // known well before the picture's 10 s bound, and the picture went with it
      expect(Date.now() - t0).toBeLessThan(8_000);
      expect(await page.evaluate(() => !!window.__storeyPainted)).toBe(true);
      expect(await page.locator('.painted').count()).toBe(0);
      expect(await failure.locator('p').innerText()).toBe(`${detail} Check the connection, then reload the page.`);
      // the way on is at hand
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Reload');
      await shot(page, name);
    };
    release();
    await context.unroute(ENTRY);

    // the app's entry script does not come: index.html's own guard says so
    await context.route(ENTRY, (route) => route.abort('connectionreset'));
    await failedReload('A part of the app could not be loaded.', '33-painted-entry-failed');
    await context.unroute(ENTRY);

    // the entry runs, but the app's own chunk does not come: its start says so
    const APP_CHUNK = /\/assets\/renderApp-[^/]+\.js$/;
    await context.route(APP_CHUNK, (route) => route.abort('connectionreset'));
    await failedReload('A part of the app could not be loaded.', '34-painted-app-chunk-failed');

    // the network is back: Reload, by mouse, starts the app on the floor
    await context.unroute(APP_CHUNK);
    const again = (await failure.getByRole('button', { name: 'Reload' }).boundingBox())!;
    await page.mouse.click(again.x + again.width / 2, again.y + again.height / 2);
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 20_000 });
    await page.locator('.floor-svg [data-asset-id]').first().waitFor({ timeout: 20_000 });
    expect(await failure.count()).toBe(0);
    await expect.poll(() => page.locator('.painted').count(), { timeout: 15_000 }).toBe(0);
  });

  it('says the app stopped when its running engine throws, ends the engine, and Reload by keyboard starts it again', async () => {
    // the app runs on its floor (the Reload above); a person opens an asset's popup by mouse
    const asset = await waitForHitPoint(page, '.floor-svg g.asset-room[data-asset-id]');
    expect(asset).not.toBeNull();
    await page.mouse.click(asset!.x, asset!.y);
    await popup(page).waitFor();
    const engine = page.workers().find((w) => /\/assets\/entry-[^/]+\.js$/.test(w.url()));
    expect(engine, `the engine worker among ${page.workers().map((w) => w.url()).join(', ')}`).toBeDefined();
    const closed = new Promise<void>((done) => engine!.once('close', () => done()));

    // an error nothing catches, thrown by a task of the running engine (as a bug in a timer's task would)
    await engine!.evaluate(() => { setTimeout(() => { throw new Error('a task of the engine failed'); }, 0); });
    const stopped = page.getByRole('alert').filter({ hasText: 'Storey stopped working.' });
    await stopped.waitFor({ timeout: 5_000 });
    expect(await stopped.locator('p').innerText()).toBe("The app's engine stopped after an error. Reload the page to start it again.");
    // the floor that would no longer follow anything is gone with its popup, and so is the engine
    expect(await page.locator('.floor-svg').count()).toBe(0);
    expect(await popup(page).count()).toBe(0);
    await closed;
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Reload');
    await shot(page, '35-engine-stopped');

    // Reload is focused: Enter starts the app again, on the floor
    await page.keyboard.press('Enter');
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 20_000 });
    await page.locator('.floor-svg [data-asset-id]').first().waitFor({ timeout: 20_000 });
    expect(await stopped.count()).toBe(0);
  });
});
