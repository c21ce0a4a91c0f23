// The set-up every e2e file shares, written once: the reference server (with
// the API proxy in front of it when a test needs to hold back or cut the
// network), the built viewer served from its own origin, one Chromium, and
// pages in their own contexts that report page errors. `close()` ends all of
// it in reverse order. Most files want the rig and one page in it
// (`startE2eRigWithPage`), some of them a phone's (`phone()`).

import { mkdirSync } from 'node:fs';
import { devices, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import type { StoreyServer } from '../../server/app.js';
import type { WireAsset, WireLocation } from '../../src/shared/rest.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/server.js';
import { createApiProxy, type ApiProxy } from './apiProxy.js';
import { ARTIFACTS_DIR, buildViewer, launchChromium, serveViewer, type ViewerServer } from './harness.js';

/**
 * A phone's browser context: Playwright's Pixel 7 (412×915 CSS px at 2.625, a touch screen, a mobile
 * browser's viewport and user agent); a `viewport` given sizes its screen instead (a smaller phone).
 */
export function phone(viewport?: { width: number; height: number }): BrowserContextOptions {
  // the device list also names the browser it was measured in, which is no context option
  const { defaultBrowserType: _browser, ...pixel7 } = devices['Pixel 7']!;
  return viewport ? { ...pixel7, viewport, screen: viewport } : pixel7;
}

/** The seeded location's first building's first floor (the one the viewer opens), for a `prepare` that rearranges it. */
export function seededFirstFloor(server: StoreyServer): { store: StoreyServer['store']; location: WireLocation; floorId: string } {
  const { store, seed } = server;
  const location = store.locations.get(seed.locationIds[0]!)!;
  const building = store.assets.get(location.buildings[0]!)! as WireAsset & { floors: string[] };
  return { store, location, floorId: building.floors[0]! };
}

export interface E2eRig {
  server: TestServer;
  /** the proxy the viewer reaches the server through, when asked for */
  proxy: ApiProxy | null;
  viewer: ViewerServer;
  browser: Browser;
  /** a page in a new context (1400×900 unless the options say otherwise), closed with the rig */
  openPage(options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

export interface E2eRigOptions {
  server?: TestServerOptions;
  /** serve the viewer against an API proxy (`rig.proxy`) rather than the server itself */
  proxy?: boolean;
  /** runs once the server is up, before the viewer is served (seed what the test needs) */
  prepare?(server: TestServer): Promise<void> | void;
}

export async function startE2eRig(options: E2eRigOptions = {}): Promise<E2eRig> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const server = await startTestServer(options.server);
  const contexts: BrowserContext[] = [];
  let proxy: ApiProxy | null = null;
  let viewer: ViewerServer | null = null;
  let browser: Browser | null = null;
  const close = async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await viewer?.close();
    await proxy?.close();
    await server.close();
  };
  try {
    await options.prepare?.(server);
    proxy = options.proxy ? await createApiProxy(server.url) : null;
    viewer = await serveViewer(await buildViewer(), proxy?.url ?? server.url);
    browser = await launchChromium();
  } catch (error) {
    await close();
    throw error;
  }
  const b = browser;
  return {
    server, proxy, viewer, browser: b, close,
    async openPage(contextOptions = {}) {
      const context = await b.newContext({ viewport: { width: 1400, height: 900 }, ...contextOptions });
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
      return { context, page };
    },
  };
}

export interface E2eRigWithPage {
  rig: E2eRig;
  server: TestServer;
  viewer: ViewerServer;
  context: BrowserContext;
  page: Page;
}

/**
 * `startE2eRig(options)` and one page opened in it (`options.page`: its context's options), what most
 * files start with; the rig is closed again when the page cannot open.
 */
export async function startE2eRigWithPage(options: E2eRigOptions & { page?: BrowserContextOptions } = {}): Promise<E2eRigWithPage> {
  const rig = await startE2eRig(options);
  try {
    const { context, page } = await rig.openPage(options.page);
    return { rig, server: rig.server, viewer: rig.viewer, context, page };
  } catch (error) {
    await rig.close();
    throw error;
  }
}
