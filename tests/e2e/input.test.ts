// The map as people use it, in real Chromium against the reference server:
// mouse clicks and drags, touch taps and pinches, and the keyboard (issue 10
// §1 and §6). One server and one browser serve every step; a second browser
// context has a touch screen.

import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TICKET_LABELS } from '../../src/shared/config.js';
import { TOOLBAR_INSET_PX } from '../../src/ui/hooks/useMapLayout.js';
import { POPUP_CLEAR_MAX_PX, POPUP_EDGE_PX, POPUP_GAP_PX } from '../../src/ui/lib/popupPlace.js';
import type { ReservationEvent } from '../../src/shared/types.js';
import type { TestServer } from '../helpers/server.js';
import { startE2eRig, type E2eRig } from './rig.js';
import { hitPoint, popup, shot, signIn, waitForHitPoint, worldTransform } from './people.js';

let rig: E2eRig;
let server: TestServer;
let mouse: { context: BrowserContext; page: Page };

/** Every kind of popup, found by the start of the asset's accessible name. */
const KINDS = ['Room', 'Desk', 'Co-worker', 'Ticket', 'Voice', 'Sensor', 'Portal'] as const;
const selectorOf = (kind: string) => `[data-asset-id][role="button"][aria-label^="${kind} "]`;

/**
 * A ticket and a voice on the floor being viewed, posted as a regular user
 * would through the API, so the test does not depend on where the seed put
 * its own.
 */
async function postTicketAndVoice(page: Page): Promise<void> {
  const url = new URL(page.url());
  const [location, floor] = [url.searchParams.get('location'), url.searchParams.get('floor')];
  const token = await server.signIn('regular');
  const path = `/organizations/${server.accounts.regular.organizationId}/locations/${location}/assets`;
  const now = Date.now();
  for (const [type, label, x, text] of [['ticket', 'it', 12, 'Printer jammed'], ['voice', 'space', 22, 'Nice and quiet']] as const) {
    const value = { text, label, status: 'open', time: now, valid_for: 86_400_000, valid_to: now + 86_400_000 };
    const res = await server.api(path, {
      method: 'POST', token,
      json: { type, name: label, subtype: label, parent_id: floor, x, y: 12, speech_bubble: text, value, unpublished: false },
    });
    expect(res.status).toBeLessThan(300);
  }
}

/** What each kind of popup tells, and that its actions are in sight without scrolling. */
async function expectPopupSays(page: Page, kind: (typeof KINDS)[number], name: string): Promise<void> {
  const dialog = popup(page);
  await dialog.locator('.popup-body').waitFor();
  const box = (await dialog.boundingBox())!;
  const actions = dialog.locator('footer.popup-actions');
  if (await actions.count()) {
    const a = (await actions.boundingBox())!;
    expect(a.y).toBeGreaterThanOrEqual(box.y);
    expect(a.y + a.height).toBeLessThanOrEqual(box.y + box.height + 0.5);
  }
  // a status is said once (its history may list past values in the same words)
  const word = dialog.locator('.popup-kind .status-word');
  const status = (await word.count()) ? await word.textContent() : null;
  if (status) {
    const told = (await dialog.locator('header').innerText()) + (await dialog.locator('.details').innerText());
    expect(told.split(status).length - 1, `"${status}" in the ${kind} popup`).toBe(1);
  }
  const terms = await dialog.locator('dt').allTextContents();
  if (kind === 'Co-worker') {
    // who, where and since when (the seeded co-workers are placed by their tags)
    expect(terms).toContain('Where');
    expect(terms).toContain('Here since');
    expect(name).toContain((await dialog.getByRole('heading', { level: 2 }).textContent())!);
  }
  if (kind === 'Ticket') {
    // titled by what it says, not by its category
    const title = (await dialog.getByRole('heading', { level: 2 }).textContent())!;
    expect(name).toContain(title);
    expect(TICKET_LABELS as readonly string[]).not.toContain(title);
  }
  if (kind === 'Voice') expect(await dialog.getByRole('button', { name: /Agree/ }).isVisible()).toBe(true);
}

async function openPage(touch: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await rig.openPage({ hasTouch: touch });
  await page.goto(`${rig.viewer.url}/`);
  await signIn(page, server.accounts.regular, touch ? 'touch' : 'mouse');
  // sensors are drawn on a layer that is off by default
  const sensors = page.getByRole('checkbox', { name: 'All sensors', exact: true });
  if (touch) await sensors.tap();
  else await sensors.click();
  await page.locator(selectorOf('Sensor')).first().waitFor();
  if (!touch) await postTicketAndVoice(page);
  await page.locator(selectorOf('Ticket')).first().waitFor();
  await page.locator(selectorOf('Voice')).first().waitFor();
  return { context, page };
}

beforeAll(async () => {
  rig = await startE2eRig({ server: { simulate: true } });
  ({ server } = rig);
  mouse = await openPage(false);
});

afterAll(() => rig?.close());

describe('the map by mouse', () => {
  it.each(KINDS)('opens the %s popup with a click at the asset', async (kind) => {
    const { page } = mouse;
    if (await popup(page).count()) await page.keyboard.press('Escape');
    const at = await waitForHitPoint(page, selectorOf(kind));
    expect(at, `a ${kind} is drawn where a click reaches it`).not.toBeNull();
    await page.mouse.click(at!.x, at!.y);
    const dialog = popup(page);
    await dialog.waitFor();
    const name = (await page.locator(`[data-asset-id="${at!.id}"]`).getAttribute('aria-label'))!;
    expect(name.startsWith(kind)).toBe(true);
    await expectPopupSays(page, kind, name);
    await shot(page, `10-popup-mouse-${kind.toLowerCase()}`);
    // no focus ring is left on the map by a mouse press
    expect(await page.locator('.focus-ring').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close details' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('pans with a drag that starts on a desk, and opens nothing', async () => {
    const { page } = mouse;
    const at = (await hitPoint(page, selectorOf('Desk')))!;
    const before = await worldTransform(page);
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move(at.x + 60, at.y + 20, { steps: 4 });
    await page.mouse.move(at.x + 150, at.y + 80, { steps: 6 });
    // while the button is held the desk under the pointer follows it on screen
    const held = await page.locator(`[data-asset-id="${at.id}"]`).boundingBox();
    expect(held!.x + held!.width / 2 - at.x).toBeCloseTo(150, 0);
    expect(held!.y + held!.height / 2 - at.y).toBeCloseTo(80, 0);
    await shot(page, '10b-drag-held');
    await page.mouse.up();
    const after = await worldTransform(page);
    expect(after.x - before.x).toBeCloseTo(150, 0);
    expect(after.y - before.y).toBeCloseTo(80, 0);
    expect(await popup(page).count()).toBe(0);
    // a press that wanders less than the click slop is still a click
    const desk = (await hitPoint(page, selectorOf('Desk')))!;
    await page.mouse.move(desk.x, desk.y);
    await page.mouse.down();
    await page.mouse.move(desk.x + 2, desk.y + 1);
    await page.mouse.up();
    await popup(page).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Fit to floor' }).click();
  });

  it('opens the popup of a desk partly under the map\'s toolbar with a click, and moves nothing', async () => {
    const { page } = mouse;
    // drag the map so that a desk sits at the right edge, half under the band the zoom buttons keep free
    const at = (await hitPoint(page, selectorOf('Desk')))!;
    const svg = (await page.locator('svg.floor-svg').boundingBox())!;
    const target = { x: svg.x + svg.width - TOOLBAR_INSET_PX / 2, y: svg.y + svg.height / 2 };
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move((at.x + target.x) / 2, (at.y + target.y) / 2, { steps: 4 });
    await page.mouse.move(target.x, target.y, { steps: 4 });
    await page.mouse.up();
    // the press that began the drag focused the desk where it was: a click elsewhere (the Layers title) takes focus away
    await page.getByRole('heading', { name: 'Layers' }).click();
    expect(await page.evaluate(() => document.activeElement?.closest('[data-asset-id]') ?? null)).toBeNull();
    const before = await worldTransform(page);
    const box = (await page.locator(`[data-asset-id="${at.id}"]`).boundingBox())!;
    expect(box.x + box.width).toBeGreaterThan(svg.x + svg.width - TOOLBAR_INSET_PX);
    try {
      // the desk is in sight there (nothing drawn over it), so a click reaches it; a co-worker of the
      // simulator may walk over it between the look and the click: then that one's popup opens, and the
      // test looks again (Escape returns focus to that co-worker as from the keyboard, which may bring
      // them into view: the map's place is read again)
      let title = '';
      let still = before;
      for (let attempt = 0; attempt < 3 && !title; attempt++) {
        const there = await waitForHitPoint(page, `[data-asset-id="${at.id}"]`);
        expect(there).not.toBeNull();
        await page.mouse.click(there!.x, there!.y);
        await popup(page).waitFor();
        // the press did not move the map away from under the pointer
        expect(await worldTransform(page), `attempt ${attempt + 1}: the press moved the map`).toEqual(still);
        const shown = await popup(page).locator('h2').innerText();
        // the desk's accessible name begins with its name (after its kind, unless the name says it)
        const named = (await page.locator(`[data-asset-id="${at.id}"]`).getAttribute('aria-label'))!;
        if (named.startsWith(shown) || named.startsWith(`Desk ${shown}`)) title = shown;
        else {
          await page.keyboard.press('Escape');
          await expect.poll(() => popup(page).count()).toBe(0);
          still = await worldTransform(page);
        }
      }
      expect(title, 'the popup is the clicked desk\'s').not.toBe('');
      await shot(page, '10c-click-under-toolbar');
    } finally {
      if (await popup(page).count()) await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Fit to floor' }).click();
    }
  });

  it('zooms at the pointer with the wheel, in pixels and in lines', async () => {
    const { page } = mouse;
    const box = (await page.locator('svg.floor-svg').boundingBox())!;
    const before = await worldTransform(page);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -240);
    await expect.poll(async () => (await worldTransform(page)).k).toBeGreaterThan(before.k * 1.3);
    // a wheel that reports lines (deltaMode 1) zooms about as much as one that reports pixels
    const k1 = (await worldTransform(page)).k;
    await page.locator('svg.floor-svg').dispatchEvent('wheel', { deltaY: 6, deltaMode: 1, clientX: box.x + 100, clientY: box.y + 100 });
    const k2 = (await worldTransform(page)).k;
    expect(k2).toBeLessThan(k1 * 0.9);
    await page.getByRole('button', { name: 'Fit to floor' }).click();
  });
});

describe('the map by touch', () => {
  let touch: { context: BrowserContext; page: Page };
  let cdp: CDPSession;
  beforeAll(async () => {
    touch = await openPage(true);
    cdp = await touch.context.newCDPSession(touch.page);
  });
  afterAll(async () => {
    await touch?.context.close();
  });

  it.each(KINDS)('opens the %s popup with a tap', async (kind) => {
    const { page } = touch;
    const at = await waitForHitPoint(page, selectorOf(kind));
    expect(at).not.toBeNull();
    await page.touchscreen.tap(at!.x, at!.y);
    const dialog = popup(page);
    await dialog.waitFor();
    if (kind === 'Co-worker') await shot(page, '11-popup-touch-co-worker');
    await dialog.getByRole('button', { name: 'Close details' }).tap();
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('keeps an open popup at its asset while a finger pans the map and the zoom buttons zoom it', async () => {
    const { page } = touch;
    const touches = async (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Array<[number, number]>) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
    const at = (await waitForHitPoint(page, selectorOf('Room')))!;
    await page.touchscreen.tap(at.x, at.y);
    const dialog = popup(page);
    await dialog.waitFor();
    const room = page.locator(`[data-asset-id="${at.id}"]`);
    const map = (await page.locator('svg.floor-svg').boundingBox())!;
    // the popup opens beside the room (docs/ui.md "Where a popup opens"): right or left of it clear of its middle,
    // else below or above it centred; where it is follows the room as drawn now
    const expectedLeft = async () => {
      const r = (await room.boundingBox())!;
      const { width } = (await dialog.boundingBox())!;
      const cx = r.x + r.width / 2;
      const clear = Math.min(r.width / 2, POPUP_CLEAR_MAX_PX) + POPUP_GAP_PX;
      const side = await dialog.getAttribute('data-side');
      if (side === 'right') return cx + clear;
      if (side === 'left') return cx - clear - width;
      return map.x + Math.max(POPUP_EDGE_PX, Math.min(cx - map.x - width / 2, map.width - width - POPUP_EDGE_PX));
    };
    expect((await dialog.boundingBox())!.x).toBeCloseTo(await expectedLeft(), 0);
    // a one-finger drag from the floor below the popup
    const [sx, sy] = [map.x + map.width * 0.3, map.y + map.height * 0.55];
    await touches('touchStart', [[sx, sy]]);
    for (let i = 1; i <= 5; i++) await touches('touchMove', [[sx + i * 16, sy + i * 12]]);
    await touches('touchEnd', []);
    await worldTransform(page);
    await expect.poll(async () => Math.abs((await dialog.boundingBox())!.x - (await expectedLeft())), { timeout: 2000 }).toBeLessThan(1.5);
    await page.getByRole('button', { name: 'Zoom in' }).tap();
    await worldTransform(page);
    await expect.poll(async () => Math.abs((await dialog.boundingBox())!.x - (await expectedLeft())), { timeout: 2000 }).toBeLessThan(1.5);
    await shot(page, '12b-touch-popup-followed');
    await dialog.getByRole('button', { name: 'Close details' }).tap();
  });

  it('pans with one finger and zooms with two', async () => {
    const { page } = touch;
    const box = (await page.locator('svg.floor-svg').boundingBox())!;
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    const touches = async (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Array<[number, number]>) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
    const before = await worldTransform(page);
    await touches('touchStart', [[cx, cy]]);
    for (let i = 1; i <= 5; i++) await touches('touchMove', [[cx + i * 20, cy + i * 10]]);
    await touches('touchEnd', []);
    const panned = await worldTransform(page);
    expect(panned.x - before.x).toBeGreaterThan(60);
    expect(panned.k).toBeCloseTo(before.k, 5);
    await touches('touchStart', [[cx - 40, cy], [cx + 40, cy]]);
    for (let i = 1; i <= 5; i++) await touches('touchMove', [[cx - 40 - i * 20, cy], [cx + 40 + i * 20, cy]]);
    await touches('touchEnd', []);
    const pinched = await worldTransform(page);
    expect(pinched.k / panned.k).toBeGreaterThan(2);
    expect(await popup(page).count()).toBe(0);
    await shot(page, '12-touch-pinched');
  });
});

describe('what the map says', () => {
  beforeEach(async () => {
    if (await popup(mouse.page).count()) await mouse.page.keyboard.press('Escape');
  });

  it('adds a vote to the count others already gave, and takes it back, never lowering it', async () => {
    const { page } = mouse;
    const voice = '[data-asset-id][role="button"][aria-label^="Voice "][aria-label*="Nice and quiet"]';
    const id = (await page.locator(voice).first().getAttribute('data-asset-id'))!;
    // a colleague agreed already
    const url = new URL(page.url());
    const path = `/organizations/${server.accounts.service.organizationId}/locations/${url.searchParams.get('location')}/assets/${id}/vote`;
    expect((await server.api(path, { method: 'PUT', token: await server.signIn('service'), json: { direction: 1 } })).status).toBe(200);
    const at = (await waitForHitPoint(page, voice))!;
    await page.mouse.click(at.x, at.y);
    const dialog = popup(page);
    const agree = dialog.getByRole('button', { name: /Agree/ });
    const count = async () => Number(/\((\d+)\)/.exec((await agree.textContent()) ?? '')?.[1] ?? NaN);
    await expect.poll(count, { timeout: 3000 }).toBe(1);
    await agree.click();
    await expect.poll(count, { timeout: 3000 }).toBe(2);
    expect(await agree.getAttribute('aria-pressed')).toBe('true');
    await agree.click();
    await expect.poll(count, { timeout: 3000 }).toBe(1);
    await dialog.getByRole('button', { name: 'Close details' }).click();
  });

  it('offers "Book now" in a room popup and the room list only while the location turns booking on', async () => {
    const { page } = mouse;
    const url = new URL(page.url());
    const [location, floor] = [url.searchParams.get('location')!, url.searchParams.get('floor')!];
    const { store } = server.server;
    const isReservation = (id: unknown) => store.sensors.get(String(id))?.type === 'reservation';
    const room = [...store.assets.values()].find((a) => a.type === 'room' && a.parent_id === floor && a.data_providers.some(isReservation))!;
    const token = await server.signIn('edit');
    // no meeting runs in it now (the seed books rooms through the working day): facility staff cancel it
    const now = Date.now();
    for (const booking of [...store.bookings.values()].filter((b) => b.roomId === room.id)) {
      const events = (store.sensors.get(booking.sensorId)?.last_measurement?.events ?? []) as ReservationEvent[];
      const event = events.find((e) => e.booking_ref === booking.bookingRef);
      if (!event || !(event.start <= now && now < event.end)) continue;
      const query = new URLSearchParams({ room_id: room.id, booking_ref: booking.bookingRef });
      expect((await server.api(`/booking?${query}`, { method: 'DELETE', token })).status).toBe(204);
    }
    const original = store.locations.get(location)!.config;
    const setConfig = async (config: unknown) => {
      const res = await server.api(`/organizations/${server.accounts.edit.organizationId}/locations/${location}`, { method: 'PATCH', token, json: { config } });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
    };
    const at = (await waitForHitPoint(page, `[data-asset-id="${room.id}"]`))!;
    await page.mouse.click(at.x, at.y);
    const dialog = popup(page);
    const book = dialog.getByRole('button', { name: 'Book now' });
    await book.waitFor({ timeout: 5000 });
    try {
      // the location turns booking off: the open popup stops offering it, and so does the room list
      await setConfig({ ...original, assetBookingFeature: false });
      await expect.poll(() => book.count(), { timeout: 5000 }).toBe(0);
      // (cancelling one's own booking stays: it was made, and may be undone)
      expect(await dialog.getByLabel('Subject').count()).toBe(0);
      await shot(page, '17-room-popup-booking-off');
      await page.getByRole('tab', { name: 'Rooms', exact: true }).click();
      const row = page.locator('.room-finder li').filter({ hasText: room.name }).first();
      await row.getByRole('button', { name: `Show ${room.name} on the floor` }).waitFor();
      expect(await row.getByRole('button', { name: `Booking of ${room.name}` }).count()).toBe(0);
      // and on again: offered again, live
      await setConfig({ ...original, assetBookingFeature: true });
      await row.getByRole('button', { name: `Booking of ${room.name}` }).waitFor({ timeout: 5000 });
      await book.waitFor({ timeout: 5000 });
    } finally {
      await setConfig(original);
      await page.getByRole('tab', { name: 'People', exact: true }).click();
    }
    await dialog.getByRole('button', { name: 'Close details' }).click();
  });

  it('keeps a room\'s details readable for facility staff, whose popup has many actions: it grows, the body never a sliver', async () => {
    const context = await rig.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${rig.viewer.url}/`);
      await signIn(page, server.accounts.edit);
      const floor = new URL(page.url()).searchParams.get('floor')!;
      const { store } = server.server;
      const isReservation = (id: unknown) => store.sensors.get(String(id))?.type === 'reservation';
      const room = [...store.assets.values()].find((a) => a.type === 'room' && a.parent_id === floor && a.data_providers.some(isReservation))!;
      const at = (await waitForHitPoint(page, `[data-asset-id="${room.id}"]`))!;
      await page.mouse.click(at.x, at.y);
      const dialog = popup(page);
      // booking, rename and unpublish: the footer of the edit role
      await dialog.getByRole('button', { name: 'Unpublish' }).waitFor({ timeout: 5000 });
      await dialog.getByRole('button', { name: 'Rename' }).waitFor();
      const body = dialog.locator('.popup-body');
      await expect.poll(() => body.evaluate((el) => el.clientHeight)).toBeGreaterThanOrEqual(60);
      await shot(page, '17b-room-popup-edit-role');
      // and all of it inside the map, the actions in sight
      const box = (await dialog.boundingBox())!;
      const map = (await page.locator('svg.floor-svg').boundingBox())!;
      const actions = (await dialog.locator('footer.popup-actions').boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(map.y + map.height + 1);
      expect(actions.y + actions.height).toBeLessThanOrEqual(box.y + box.height + 1);
      expect(await body.innerText()).toMatch(/Seats/);
    } finally {
      await context.close();
    }
  });

  it('keeps the map the same size whatever the side panel holds and while a message shows', async () => {
    const { page } = mouse;
    const map = page.locator('svg.floor-svg');
    const before = (await map.boundingBox())!;
    for (const tab of ['Rooms', 'Notifications', 'My location', 'People']) {
      await page.getByRole('tab', { name: tab, exact: true }).click();
      expect(await map.boundingBox(), tab).toEqual(before);
    }
    // a message (here a vote's outcome) floats over the map and pushes nothing
    const at = (await waitForHitPoint(page, selectorOf('Voice')))!;
    await page.mouse.click(at.x, at.y);
    const agree = popup(page).getByRole('button', { name: /Agree/ });
    await agree.click();
    const message = page.locator('.live-region .message');
    await expect.poll(() => message.textContent(), { timeout: 3000 }).toMatch(/^Vote saved\./);
    expect(await map.boundingBox()).toEqual(before);
    await shot(page, '18-message-over-map');
    await agree.click();
    await page.getByRole('button', { name: 'Dismiss message' }).click();
    await popup(page).getByRole('button', { name: 'Close details' }).click();
  });

  it("shows a co-worker's name, where, since when and speech bubble", async () => {
    const { page } = mouse;
    const url = new URL(page.url());
    const location = url.searchParams.get('location')!;
    // someone drawn by an asset of their own, whose bubble facility staff can set
    // (read again on every try: the simulator walks people off this floor, so
    // the ones drawn a moment ago may be gone when the machine is slow)
    const found: { at: Awaited<ReturnType<typeof hitPoint>> } = { at: null };
    await expect.poll(async () => {
      const ids = await page.locator(selectorOf('Co-worker')).evaluateAll((els) => els.map((e) => e.getAttribute('data-asset-id')!));
      const own = ids.filter((id) => server.server.store.assets.has(id));
      found.at = own.length ? await hitPoint(page, own.map((id) => `[data-asset-id="${id}"]`).join(', ')) : null;
      return found.at !== null;
    }, { timeout: 30_000, interval: 250 }).toBe(true);
    const at = found.at!;
    const token = await server.signIn('edit');
    const res = await server.api(`/organizations/${server.accounts.edit.organizationId}/locations/${location}/assets/${at.id}`, {
      method: 'PATCH', token, json: { speech_bubble: 'In a call until 3' },
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    await page.mouse.click(at.x, at.y);
    const dialog = popup(page);
    await expect.poll(() => dialog.locator('blockquote.speech-bubble').textContent(), { timeout: 5000 }).toBe('In a call until 3');
    const name = (await page.locator(`[data-asset-id="${at.id}"]`).getAttribute('aria-label'))!;
    expect(name).toContain((await dialog.getByRole('heading', { level: 2 }).textContent())!);
    const says = (term: string) => dialog.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]').textContent();
    expect(await says('Where')).toMatch(/^Floor /);
    expect(await says('Here since')).toMatch(/\d{1,2}[:.]\d{2}/);
    await shot(page, '19-co-worker-popup');
    await dialog.getByRole('button', { name: 'Close details' }).click();
  });

  it('asks for a category by name where the location requires one, and titles the ticket by its text', async () => {
    const { page } = mouse;
    const location = new URL(page.url()).searchParams.get('location')!;
    const token = await server.signIn('edit');
    const original = server.server.store.locations.get(location)!.config;
    const setConfig = async (config: unknown) => {
      const res = await server.api(`/organizations/${server.accounts.edit.organizationId}/locations/${location}`, { method: 'PATCH', token, json: { config } });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
    };
    await setConfig({ ...original, ticketsRequireCategory: true });
    try {
      await page.getByRole('tab', { name: 'Report an issue' }).click();
      const category = page.getByLabel('Category (required)');
      await category.waitFor({ timeout: 5000 });
      expect(await category.inputValue()).toBe('');
      // by keyboard: the message, then Enter on the send button
      await page.getByLabel('Message').fill('Door code panel is dark');
      await page.getByRole('button', { name: 'Send ticket' }).press('Enter');
      const alert = page.getByRole('tabpanel').getByRole('alert');
      await expect.poll(() => alert.textContent(), { timeout: 3000 }).toBe('Category: choose one.');
      expect(await category.getAttribute('aria-invalid')).toBe('true');
      // outlined too, unlike a field that is fine
      const border = (l: typeof category) => l.evaluate((el) => getComputedStyle(el).borderColor);
      expect(await border(category)).not.toBe(await border(page.getByLabel('Message')));
      await shot(page, '23-ticket-category-required');
      await category.selectOption('maintenance');
      await page.getByRole('button', { name: 'Send ticket' }).click();
      await page.getByText('Thanks! Your ticket is on the floor.').waitFor({ timeout: 10_000 });
      await page.locator('[data-asset-id][aria-label^="Ticket Door code panel is dark"]').waitFor({ timeout: 5000 });
    } finally {
      await setConfig(original);
      await page.getByRole('tab', { name: 'People', exact: true }).click();
    }
  });

  it("names a sensor's quantity and unit over its history", async () => {
    const { page } = mouse;
    // a room's air sensor reports CO₂ among others
    const at = (await waitForHitPoint(page, '[data-asset-id][role="button"][aria-label^="Sensor "][aria-label*=" air"]'))!;
    await page.mouse.click(at.x, at.y);
    const dialog = popup(page);
    const heading = dialog.locator('.history h3');
    await heading.waitFor();
    const [, quantity, unit] = /^Recent history of (.+) \((.+)\)$/.exec((await heading.textContent())!)!;
    expect(quantity).toMatch(/^(CO₂|Temperature|Humidity|TVOC|Illuminance|Pressure|Loudness)$/);
    expect(await dialog.locator('.history li').first().textContent()).toMatch(new RegExp(`\\d ${unit!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    await dialog.getByRole('button', { name: 'Close details' }).click();
  });

  it('draws each room name once, inside the room, and no two labels overlap at any zoom', async () => {
    const { page } = mouse;
    await page.getByRole('button', { name: 'Fit to floor' }).click();
    const overlaps = () => page.evaluate(() => {
      const texts = [...document.querySelectorAll<SVGTextElement>('svg.floor-svg text[data-label-for]')]
        .filter((t) => getComputedStyle(t).display !== 'none' && t.getBoundingClientRect().width > 0);
      const shown = texts.map((t) => t.getBoundingClientRect());
      // labels of what stays put (rooms, zones, desks, devices): co-workers walk on and off the floor meanwhile
      const fixed = texts.filter((t) => !t.classList.contains('person-label')).length;
      let n = 0;
      for (let i = 0; i < shown.length; i++) {
        for (let j = i + 1; j < shown.length; j++) {
          const [a, b] = [shown[i]!, shown[j]!];
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) n += 1;
        }
      }
      return { n, shown: shown.length, fixed };
    });
    await expect.poll(async () => (await overlaps()).n, { timeout: 3000 }).toBe(0);
    const fitted = await overlaps();
    // zoomed out, more labels would collide: some give way, none overlap
    const box = (await page.locator('svg.floor-svg').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 600);
    await expect.poll(async () => (await overlaps()).n, { timeout: 3000 }).toBe(0);
    expect((await overlaps()).fixed).toBeLessThanOrEqual(fitted.fixed);
    await shot(page, '15-labels-zoomed-out');
    await page.getByRole('button', { name: 'Fit to floor' }).click();
    // each room's name once: on the map, not also in the floor-plan image
    const room = page.locator('g.asset-room').first();
    const label = (await room.getAttribute('aria-label'))!.replace(/^Room /, '').split(',')[0]!;
    const drawn = await page.evaluate((name) => [...document.querySelectorAll('svg.floor-svg text')]
      .filter((t) => (t.firstElementChild?.textContent ?? t.textContent) === name).length, label);
    expect(drawn).toBe(1);
    const plan = (await page.locator('image.floor-plan').getAttribute('href'))!;
    expect(await (await fetch(plan)).text()).not.toContain(label);
  });

  it('keys every colour of the active layers: desk usage as the map colours it, the heatmap, feedback in percent', async () => {
    const { page } = mouse;
    const legends = page.getByRole('region', { name: 'Legends' });
    const desk = legends.getByRole('figure', { name: 'Legend: Desk usage' });
    const words = await desk.locator('li').allTextContents();
    expect(words.slice(0, 2)).toEqual(['Free', 'Occupied']);
    expect(words.some((w) => /^Left: Short break/.test(w))).toBe(true);
    expect(words.some((w) => /^Left: Clean desk policy exceeded/.test(w))).toBe(true);
    // an occupied desk is drawn in the legend's "Occupied" colour
    const occupiedColour = await desk.locator('li', { hasText: 'Occupied' }).locator('.swatch').evaluate((el) => getComputedStyle(el).backgroundColor);
    const busy = page.locator('g.asset-desk[data-status-kind="busy"][data-status="occupied"]').first();
    if (await busy.count()) expect(await busy.locator('rect').first().evaluate((el) => getComputedStyle(el).fill)).toBe(occupiedColour);
    for (const layer of ['Co-worker heatmap', 'Satisfaction', 'Stress']) await page.getByRole('checkbox', { name: layer, exact: true }).click();
    await legends.getByRole('figure', { name: 'Legend: Co-worker heatmap' }).waitFor();
    // the taller strip does not cover the fitted floor: it is fitted again above it
    await expect.poll(async () => {
      const floor = (await page.locator('polygon.floor-outline').boundingBox())!;
      const strip = await legends.evaluate((el) => Math.min(...[...el.children].map((c) => c.getBoundingClientRect().top)));
      return floor.y + floor.height <= strip + 1;
    }, { timeout: 3000 }).toBe(true);
    const satisfaction = await legends.getByRole('figure', { name: 'Legend: Satisfaction' }).innerText();
    expect(satisfaction).toMatch(/Satisfaction \(%\)/);
    expect(satisfaction).toMatch(/100 %/);
    await shot(page, '16-legends');
    // legends fold away to one button and come back
    await legends.getByRole('button', { name: 'Hide legends' }).click();
    expect(await legends.getByRole('figure').count()).toBe(0);
    await legends.getByRole('button', { name: /Show legends \(\d+\)/ }).click();
    expect(await legends.getByRole('figure').count()).toBeGreaterThan(2);
    for (const layer of ['Co-worker heatmap', 'Satisfaction', 'Stress']) await page.getByRole('checkbox', { name: layer, exact: true }).click();
  });

  it('says so when a switched-on layer has nothing on this floor', async () => {
    const { page } = mouse;
    // facility staff took this floor's lockers away
    const url = new URL(page.url());
    const [location, floor] = [url.searchParams.get('location')!, url.searchParams.get('floor')!];
    const token = await server.signIn('edit');
    const path = `/organizations/${server.accounts.edit.organizationId}/locations/${location}/assets`;
    for (const a of server.server.store.assets.values()) {
      if (a.parent_id === floor && a.subtype === 'locker') expect((await server.api(`${path}/${a.id}`, { method: 'DELETE', token })).status).toBeLessThan(300);
    }
    const lockers = page.getByRole('checkbox', { name: 'Lockers', exact: true });
    await lockers.click();
    const note = page.locator('#layer-empty-lockers');
    await note.waitFor({ timeout: 5000 });
    expect(await note.textContent()).toBe('none on this floor');
    expect(await lockers.getAttribute('aria-describedby')).toBe('layer-empty-lockers');
    await lockers.click();
    await expect.poll(() => note.count()).toBe(0);
  });
});

describe('the map by keyboard', () => {
  it('ends picking a place with Escape, for a ticket and for my location', async () => {
    const { page } = mouse;
    if (await popup(page).count()) await page.keyboard.press('Escape');
    const cases = [
      { tab: 'Report an issue', pick: 'Pick a place on the floor' },
      { tab: 'My location', pick: 'Pick my place on the floor' },
    ];
    try {
      for (const { tab, pick } of cases) {
        await page.getByRole('tab', { name: tab, exact: true }).click();
        const button = page.getByRole('button', { name: pick });
        await button.focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => page.locator('.floor-viewer.picking').count()).toBe(1);
        const pressed = page.locator('button[aria-pressed="true"]');
        expect(await pressed.count()).toBe(1);
        await page.keyboard.press('Escape');
        await expect.poll(() => page.locator('.floor-viewer.picking').count()).toBe(0);
        expect(await page.getByRole('button', { name: pick }).getAttribute('aria-pressed')).toBe('false');
      }
    } finally {
      await page.getByRole('tab', { name: 'People', exact: true }).click();
    }
  });

  it('skips to the map and past it, the map being one tab stop', async () => {
    const { page } = mouse;
    const active = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    await page.reload();
    await page.locator('[data-asset-id][role="button"]').first().waitFor();
    await page.keyboard.press('Tab');
    expect(await active()).toBe('Skip to the map');
    await page.keyboard.press('Tab');
    expect(await active()).toBe('Skip past the map');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('panels');
    await shot(page, '14-skip-past-map');
    // the whole map has one tab stop, however many assets it draws
    expect(await page.locator('.floor-svg [tabindex="0"], .floor-svg[tabindex="0"]').count()).toBe(1);
    expect(await page.locator('[data-asset-id][role="button"]').count()).toBeGreaterThan(10);
    await page.reload();
    await page.locator('[data-asset-id][role="button"]').first().waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-asset-id'))).toBeTruthy();
  });

  it('moves between assets with the arrows, opens with Enter and returns focus on Escape', async () => {
    const { page } = mouse;
    const focusedId = () => page.evaluate(() => document.activeElement?.getAttribute('data-asset-id') ?? null);
    const first = await focusedId();
    await page.keyboard.press('ArrowLeft');
    const second = await focusedId();
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    // the ring is drawn in screen pixels: a few px around the asset at any zoom
    const ring = page.locator('.focus-ring-inner');
    await ring.waitFor();
    expect(await ring.evaluate((el) => getComputedStyle(el).strokeWidth)).toBe('3px');
    expect(await ring.getAttribute('vector-effect')).toBe('non-scaling-stroke');
    await shot(page, '13-keyboard-focus');
    await page.keyboard.press('Enter');
    await popup(page).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => popup(page).count()).toBe(0);
    expect(await focusedId()).toBe(second);
    // Tab leaves the map in one step
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('.viewer-controls, .map-legends'))).toBe(true);
  });

  it('brings an asset that gets focus while off screen into view', async () => {
    const { page } = mouse;
    await page.keyboard.press('Shift+Tab');
    const id = (await page.evaluate(() => document.activeElement?.getAttribute('data-asset-id')))!;
    // pan the map far away with Shift+arrows: the asset leaves the screen
    for (let i = 0; i < 25; i++) await page.keyboard.press('Shift+ArrowRight');
    const svgBox = (await page.locator('svg.floor-svg').boundingBox())!;
    const inView = async () => {
      const b = await page.locator(`[data-asset-id="${id}"]`).boundingBox();
      return !!b && b.x >= svgBox.x && b.x + b.width <= svgBox.x + svgBox.width;
    };
    expect(await inView()).toBe(false);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-asset-id'))).toBe(id);
    expect(await inView()).toBe(true);
  });
});
