// Code loaded on first use, in real Chromium (src/worker/lazyModule.ts): the
// finder's index is a chunk the engine worker asks for on the first search.
// When that request fails (a network that drops it, a build that is gone) the
// finder says so instead of "Preparing search…" forever, and the next search
// asks again and answers. Service workers are blocked here, so every chunk
// comes from the network the test controls.

import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';
import { shot, signIn } from './people.js';

let rig: E2eRig;
let server: TestServer;
let context: BrowserContext;
let page: Page;
/** requests for the search chunk: dropped ones, loaded ones, and whether they are dropped now */
const searchChunk = { dropped: 0, loaded: 0, drop: true };

const finder = () => page.getByRole('combobox', { name: 'Find desks, rooms, people and more' });

beforeAll(async () => {
  ({ rig, server, context, page } = await startE2eRigWithPage({ server: { simulate: false }, page: { serviceWorkers: 'block' } }));
  await context.route(/\/assets\/searchIndex-[^/]*\.js$/, async (route) => {
    if (searchChunk.drop) {
      searchChunk.dropped += 1;
      await route.abort('internetdisconnected');
    } else {
      searchChunk.loaded += 1;
      await route.continue();
    }
  });
  await page.goto(`${rig.viewer.url}/`);
  await signIn(page, server.accounts.regular);
  await page.locator('g.asset-room').first().waitFor();
});

afterAll(() => rig?.close());

describe('code loaded on first use', () => {
  it('does not fetch the search code until the first search', async () => {
    expect(searchChunk.dropped + searchChunk.loaded).toBe(0);
  });

  it('says search could not be loaded when its code does not come, and answers the next search once it can', async () => {
    await finder().click();
    await page.keyboard.type('room');
    const status = page.locator('.finder-status');
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toBe('Search could not be loaded. Check the connection and try again.');
    // each new query asks for the code again (typing gives several, some maybe still on their way)
    expect(searchChunk.dropped).toBeGreaterThanOrEqual(1);
    await shot(page, '60-search-code-failed');
    // the connection is back: the next search asks for the code again
    searchChunk.drop = false;
    await page.keyboard.type('s');
    await page.getByRole('listbox', { name: 'Results' }).getByRole('option').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => status.innerText()).toMatch(/\d found$/);
    // loaded once: later queries use it
    expect(searchChunk.loaded).toBe(1);
    await shot(page, '61-search-code-loaded');
  });
});
