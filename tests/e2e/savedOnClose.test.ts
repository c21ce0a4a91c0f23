// A ticket reported live, and the tab closed a moment after it is drawn: the
// next (offline) reopen must draw it. The engine saves on throttles (the
// location at most every second, the floor's view every 5 s), and a tab closed
// inside them used to take the change with it: the reopen showed the floor as
// it was before (docs/engine.md "Saved when the page goes"). The page now asks
// the worker to write what its throttles hold on pagehide and on
// visibilitychange to hidden. Screenshot test-results/e2e/saved-on-close.png.

import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';
import { drawnCount, postNote, shot, signInForOffline } from './people.js';

let rig: E2eRig;
let server: TestServer;
let context: BrowserContext;
let page: Page;

beforeAll(async () => ({ rig, server, context, page } = await startE2eRigWithPage()));
afterAll(() => rig?.close());

describe('a tab closed right after a live change', () => {
  it('reopens offline with the change drawn', async () => {
    // the app shell is in the service worker's cache, so the page opens with no network
    const { floorId, locationId } = await signInForOffline(page, rig.viewer.url, server.accounts.regular);
    const url = new URL(page.url());
    // the first saves after the live load are done (the view's first save comes 1.5 s after live data); the test
    // server runs no simulator, so nothing else changes and nothing more is written until the ticket comes
    await page.waitForTimeout(4_000);
    const res = await postNote(server, { locationId, floorId, type: 'ticket', label: 'it', text: 'Window will not close', x: 14, y: 12 });
    expect(res.status).toBe(201);
    const ticketId = ((await res.json()) as { id: string }).id;
    await expect.poll(() => drawnCount(page, ticketId), { timeout: 15_000, interval: 50 }).toBe(1);
    // closed at once, well inside the one-second throttle of the location and the 5 s one of the floor's view
    await page.close();

    await context.setOffline(true);
    const again = await context.newPage();
    await again.goto(`${rig.viewer.url}${url.pathname}${url.search}`);
    await again.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 15_000 });
    await again.locator('[data-asset-id][role="button"]').first().waitFor();
    expect(await again.getByTestId('from-cache').isVisible()).toBe(true);
    // the saved view first, then the floor read from the saved location: both have it
    for (let i = 0; i < 8; i++) {
      expect(await drawnCount(again, ticketId)).toBe(1);
      await again.waitForTimeout(250);
    }
    await shot(again, 'saved-on-close');
    await context.setOffline(false);
  });
});
