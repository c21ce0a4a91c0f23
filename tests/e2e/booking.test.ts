// Booking as a person meets it, in real Chromium by mouse against the
// reference server: signing in waits for the network while the browser is
// offline; only the lengths the server would take are offered; the room's
// bookings list what is coming up first; by keyboard, the focus stays in the
// popup when the button pressed goes. The
// location sits at mid-day (tests/helpers/localTime.ts) and each test sets the
// room's bookings itself, as its reservation system would report them, so what
// is "later today" or "tomorrow" holds at any hour and any minute of the hour.

import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endOfLocalDayAt } from '../../src/shared/time.js';
import type { ReservationEvent } from '../../src/shared/types.js';
import { setLocationToMidday } from '../helpers/localTime.js';
import type { TestServer } from '../helpers/server.js';
import { offlineText } from '../../src/ui/components/OfflineNote.js';
import { popup, shot, signIn, waitForHitPoint } from './people.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';

const MIN = 60_000;
let rig: E2eRig;
let server: TestServer;
let context: BrowserContext;
let page: Page;
let timeZone: string;

/** A bookable room on the floor shown (the nth), and its reservation sensor. */
function roomOnShownFloor(nth = 0): { roomId: string; sensorId: string } {
  const floorId = new URL(page.url()).searchParams.get('floor');
  const { store } = server.server;
  const room = [...store.assets.values()].filter((a) => a.type === 'room' && a.parent_id === floorId && a.data_provider_refs.reservation)[nth];
  if (!room) throw new Error(`no bookable room ${nth} on floor ${floorId}`);
  return { roomId: room.id, sensorId: room.data_provider_refs.reservation! };
}

/** The room's reservation system reports exactly these bookings (a new reading of its sensor, sent live). */
function reportBookings(sensorId: string, events: ReservationEvent[]): void {
  server.server.store.addMeasurement(sensorId, { time: Date.now(), valid_for: 86_400_000, events });
}

const eventsOf = (sensorId: string) => (server.server.store.sensors.get(sensorId)?.last_measurement?.events ?? []) as ReservationEvent[];

/** A person opens the nth bookable room of the floor, with nothing booked in it, by a mouse click on it. */
async function openFreeRoom(nth: number): Promise<{ roomId: string; sensorId: string; point: { x: number; y: number }; dialog: ReturnType<typeof popup> }> {
  const { roomId, sensorId } = roomOnShownFloor(nth);
  // nothing running or coming in the room: the person may book it now
  reportBookings(sensorId, []);
  const point = await waitForHitPoint(page, `g.asset-room[data-asset-id="${roomId}"]`);
  expect(point, 'the room can be clicked').not.toBeNull();
  await page.mouse.click(point!.x, point!.y);
  const dialog = popup(page);
  await dialog.waitFor();
  return { roomId, sensorId, point: point!, dialog };
}

beforeAll(async () => {
  ({ rig, server, context, page } = await startE2eRigWithPage({
    prepare: (s) => {
      const locationId = s.server.seed.locationIds[0]!;
      timeZone = setLocationToMidday(s, locationId);
      // the location shows "Rest of the day" (spec §9 allDayBookingButton, off by default)
      const location = s.server.store.locations.get(locationId)!;
      s.server.store.updateLocation(locationId, { config: { ...location.config, allDayBookingButton: true } });
    },
    page: { locale: 'en-GB' },
  }));
  await page.goto(`${rig.viewer.url}/`);
});

afterAll(() => rig?.close());

/** Signed in on the floor (the first test signs in itself, offline first). */
async function signedIn(): Promise<void> {
  // the app may still be starting ("Starting…"): wait until it shows the form or the floor
  const form = page.getByRole('heading', { name: 'Sign in' });
  await form.or(page.getByRole('application', { name: /Floor plan of/ })).first().waitFor();
  if (await form.isVisible()) await signIn(page, server.accounts.regular);
  await page.waitForURL((url) => url.searchParams.has('floor'));
}

describe('signing in in Chromium', () => {
  it('waits for the network while the browser is offline, says why, and signs in by mouse once it is back', async () => {
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await context.setOffline(true);
    const button = page.getByRole('button', { name: 'Sign in', exact: true });
    await expect.poll(() => button.isDisabled(), { timeout: 5000 }).toBe(true);
    // the reason is said next to it, and the button points to it
    const reason = page.getByRole('status');
    expect(await reason.innerText()).toBe(offlineText('signing in'));
    expect(await button.getAttribute('aria-describedby')).toBe(await reason.getAttribute('id'));
    expect(await page.getByRole('button', { name: 'Sign in with single sign-on' }).isDisabled()).toBe(true);
    // what the person types meanwhile stays; Enter sends nothing
    await page.getByLabel('Email').fill(server.accounts.regular.email);
    await page.getByLabel('Password').fill(server.accounts.regular.password);
    await page.getByLabel('Password').press('Enter');
    await page.waitForTimeout(300);
    expect(await page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    await shot(page, 'booking-00-sign-in-offline');

    await context.setOffline(false);
    await expect.poll(() => button.isEnabled(), { timeout: 5000 }).toBe(true);
    expect(await page.getByRole('status').count()).toBe(0);
    expect(await page.getByLabel('Email').inputValue()).toBe(server.accounts.regular.email);
    const box = (await button.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor();
    await page.waitForURL((url) => url.searchParams.has('floor'));
    // signed in, and the engine knows it is online: the connection is live and writes are offered
    await expect.poll(() => page.getByTestId('connection-banner').isHidden(), { timeout: 15_000 }).toBe(true);
    await shot(page, 'booking-00b-signed-in-after-offline');
  });
});

describe('recent bookings in Chromium', () => {
  beforeAll(signedIn);

  it('lists what is coming up first, soonest first, a booking just made included, then the earlier ones, newest first', async () => {
    const { roomId, sensorId } = roomOnShownFloor(1);
    // two bookings later today, reported latest first: at mid-day, both end well before the local midnight
    const at = (minutes: number) => Math.ceil((Date.now() + minutes * MIN) / MIN) * MIN;
    const event = (subject: string, start: number): ReservationEvent => ({ start, end: start + 30 * MIN, subject, user_id: null, booking_ref: `e2e-${subject}` });
    // two held this morning, as the reservation system listed them at 07:xx (before any popup read this floor's
    // week): the seed's history has none on a weekend, so a Monday morning would have nothing earlier
    server.server.store.addMeasurement(sensorId, {
      time: at(-300), valid_for: 86_400_000, events: [event('Morning one', at(-240)), event('Morning two', at(-180))],
    });
    reportBookings(sensorId, [event('Later sync', at(150)), event('Soon sync', at(60))]);

    const point = await waitForHitPoint(page, `g.asset-room[data-asset-id="${roomId}"]`);
    expect(point, 'the room can be clicked').not.toBeNull();
    await page.mouse.click(point!.x, point!.y);
    const dialog = popup(page);
    await dialog.waitFor();
    // booked now by mouse, for half an hour: it ends before the next one
    await dialog.getByLabel('Subject').fill('Right now');
    const book = (await dialog.getByRole('button', { name: 'Book now' }).boundingBox())!;
    await page.mouse.click(book.x + book.width / 2, book.y + book.height / 2);
    await expect.poll(() => page.locator('.live-region').innerText(), { timeout: 10_000 }).toMatch(/booked until/);

    const bookings = dialog.getByRole('region', { name: 'Recent bookings' });
    const coming = bookings.getByRole('list', { name: 'Coming up' });
    await expect.poll(() => coming.locator('li').allInnerTexts(), { timeout: 10_000 }).toEqual([
      expect.stringMatching(/Right now\s+Now$/), expect.stringMatching(/Soon sync\s+Upcoming$/), expect.stringMatching(/Later sync\s+Upcoming$/),
    ]);
    // the week's earlier bookings (the seeded history) below them, none of them still to come
    const earlier = bookings.getByRole('list', { name: 'Earlier' });
    await earlier.locator('li').first().waitFor({ timeout: 30_000 });
    const past = await earlier.locator('li').allInnerTexts();
    const [two, one] = [past.findIndex((t) => /Morning two\s+Completed as planned/.test(t)), past.findIndex((t) => /Morning one\s+Completed as planned/.test(t))];
    expect(two, past.join('\n')).toBeGreaterThanOrEqual(0);
    // newest first
    expect(one === -1 || one > two, past.join('\n')).toBe(true);
    expect(past.join('\n')).not.toMatch(/Upcoming|\bNow$/m);
    const [comingBox, earlierBox] = [(await coming.boundingBox())!, (await earlier.boundingBox())!];
    expect(earlierBox.y).toBeGreaterThan(comingBox.y);
    await bookings.scrollIntoViewIfNeeded();
    await shot(page, 'booking-04-recent-bookings-coming-up-first');
    await dialog.getByRole('button', { name: 'Close details' }).click();
    // the Rooms list gives the room's §4 text its two lines: the current slot, then what is next today
    await page.getByRole('tab', { name: 'Rooms', exact: true }).click();
    const text = page.locator('.room-finder li').filter({ hasText: 'Right now' }).locator('.room-text');
    await expect.poll(() => text.innerText(), { timeout: 10_000 }).toMatch(/^\d\d:\d\d–\d\d:\d\d Right now\nNext: \d\d:\d\d–\d\d:\d\d Soon sync$/);
    await text.scrollIntoViewIfNeeded();
    await shot(page, 'booking-05-rooms-list-two-lines');
    await page.getByRole('tab', { name: 'People', exact: true }).click();
  });
});

describe('booking lengths in Chromium', () => {
  beforeAll(signedIn);

  it('offers no "Rest of the day" while a booking follows later today, "until" it instead; then books the rest of a free day', async () => {
    const { roomId, sensorId } = roomOnShownFloor();
    // a booking an hour and a half from now: 13:30–14:59 local at the latest, today at any minute of the mid-day hour
    const laterStart = Math.ceil((Date.now() + 90 * MIN) / MIN) * MIN;
    const later: ReservationEvent = { start: laterStart, end: laterStart + 60 * MIN, subject: 'Review', user_id: null, booking_ref: 'e2e-later' };
    reportBookings(sensorId, [later]);

    const at = await waitForHitPoint(page, `g.asset-room[data-asset-id="${roomId}"]`);
    expect(at, 'the room can be clicked').not.toBeNull();
    await page.mouse.click(at!.x, at!.y);
    const dialog = popup(page);
    await dialog.waitFor();
    const length = dialog.getByLabel('Duration');
    // 30 min and 1 h end before it; 2 h would run into it, and so would the rest of the day (the server answers 409);
    // the time is the location's, named when the browser sits in another zone
    await expect.poll(() => length.locator('option').allInnerTexts(), { timeout: 10_000 }).toEqual(['30 min', '1 h', expect.stringMatching(/^until \d\d:\d\d( \S+)?$/)]);
    expect(await dialog.getByRole('button', { name: 'Book for the rest of the day' }).count()).toBe(0);
    await shot(page, 'booking-01-no-rest-of-day-before-a-later-booking');

    // that booking moves to tomorrow: the rest of today is free, and offered at once
    const tomorrow: ReservationEvent = { ...later, start: laterStart + 24 * 60 * MIN, end: laterStart + 25 * 60 * MIN, booking_ref: 'e2e-tomorrow' };
    reportBookings(sensorId, [tomorrow]);
    const restOfDay = dialog.getByRole('button', { name: 'Book for the rest of the day' });
    await restOfDay.waitFor({ timeout: 10_000 });
    expect(await length.locator('option').allInnerTexts()).toEqual(['30 min', '1 h', '2 h']);
    await shot(page, 'booking-02-rest-of-day-offered');
    const box = (await restOfDay.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => page.locator('.live-region').innerText(), { timeout: 10_000 }).toMatch(/booked until 24:00/);
    const made = () => eventsOf(sensorId).find((e) => e.booking_ref !== tomorrow.booking_ref);
    await expect.poll(made, { timeout: 10_000 }).toBeDefined();
    expect(made()!.end).toBe(endOfLocalDayAt(made()!.start, timeZone));
    // it reads as today's, up to 24:00, not with both dates in full
    const nowLine = dialog.locator('dt', { hasText: /^Now$/ }).locator('xpath=following-sibling::dd[1]');
    await expect.poll(() => nowLine.innerText(), { timeout: 10_000 }).toMatch(/^\d\d:\d\d\s?–\s?24:00(?: \S+)? /);
    await shot(page, 'booking-03-rest-of-day-booked');
    await dialog.getByRole('button', { name: 'Close details' }).click();
  });
});

describe("a room popup's earlier bookings in Chromium", () => {
  beforeAll(signedIn);

  it('lists a booking the person just ended among the earlier ones at once, never saying there were none, and again when reopened', async () => {
    const { point, dialog } = await openFreeRoom(0);
    const bookings = dialog.getByRole('region', { name: 'Recent bookings' });
    // the week is read (this floor's room report): what it says once it is there
    await expect.poll(() => bookings.innerText(), { timeout: 30_000 }).not.toMatch(/Loading bookings/);

    // booked by mouse for half an hour, then ended by mouse a little later
    await dialog.getByLabel('Subject').fill('Quick huddle');
    await dialog.getByRole('button', { name: 'Book now' }).click();
    await expect.poll(() => page.locator('.live-region').innerText(), { timeout: 10_000 }).toMatch(/booked until/);
    await expect.poll(() => bookings.getByRole('list', { name: 'Coming up' }).innerText(), { timeout: 10_000 }).toMatch(/Quick huddle\s+Now/);
    await page.waitForTimeout(1_500);
    // from here on, every text the region shows is recorded: it must never say there were no bookings
    await bookings.evaluate((region) => {
      const seen: string[] = [];
      (window as unknown as { seenBookings: string[] }).seenBookings = seen;
      new MutationObserver(() => { seen.push(region.textContent ?? ''); }).observe(region, { subtree: true, childList: true, characterData: true });
    });
    await dialog.getByRole('button', { name: /^Cancel booking “Quick huddle”/ }).click();
    await expect.poll(() => page.locator('.live-region').innerText(), { timeout: 10_000 }).toMatch(/cancelled/);
    const earlier = bookings.getByRole('list', { name: 'Earlier' });
    await expect.poll(() => earlier.innerText().catch(() => ''), { timeout: 15_000 }).toMatch(/Quick huddle\s+Ended early/);
    const seen = await page.evaluate(() => (window as unknown as { seenBookings: string[] }).seenBookings);
    expect(seen.filter((t) => /No (earlier )?bookings in the last 7 days/.test(t))).toEqual([]);
    await bookings.scrollIntoViewIfNeeded();
    await shot(page, 'booking-05-ended-booking-listed-earlier');

    // closed and opened again: the list still has it
    await dialog.getByRole('button', { name: 'Close details' }).click();
    await page.mouse.click(point!.x, point!.y);
    await dialog.waitFor();
    await expect.poll(() => dialog.getByRole('list', { name: 'Earlier' }).innerText().catch(() => ''), { timeout: 15_000 }).toMatch(/Quick huddle\s+Ended early/);
    await dialog.getByRole('button', { name: 'Close details' }).click();
  });
});

describe('booking and cancelling by keyboard in Chromium', () => {
  beforeAll(signedIn);

  /** Presses Tab until the focus is on the popup's button named `name` (at most ten presses). */
  async function tabTo(name: RegExp): Promise<void> {
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
      if (name.test(focused)) return;
    }
    throw new Error(`Tab never reached ${name}`);
  }

  const focusedName = () => page.evaluate(() => {
    const el = document.activeElement;
    return el ? el.getAttribute('aria-label') ?? el.textContent ?? el.tagName : 'nothing';
  });

  it('keeps the focus in the popup when the button pressed goes away, so Tab and Escape still work', async () => {
    const { roomId, dialog } = await openFreeRoom(1);
    await dialog.getByLabel('Subject').click();
    await page.keyboard.type('Keyboard sync');
    await tabTo(/^Book now$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.live-region').innerText(), { timeout: 10_000 }).toMatch(/booked until/);
    // the room is booked now: Book now is gone, and the focus is on the popup's close button, not the page
    await expect.poll(() => dialog.getByRole('button', { name: 'Book now' }).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(focusedName, { timeout: 5_000 }).toBe('Close details');
    await shot(page, 'booking-06-keyboard-booked-focus-kept');

    await tabTo(/^Cancel booking “Keyboard sync”/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.live-region').innerText(), { timeout: 10_000 }).toMatch(/cancelled/);
    await expect.poll(() => dialog.getByRole('button', { name: /^Cancel booking “Keyboard sync”/ }).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(focusedName, { timeout: 5_000 }).toBe('Close details');
    await shot(page, 'booking-07-keyboard-cancelled-focus-kept');

    // Escape closes the popup and the focus goes back to the room on the map
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count(), { timeout: 5_000 }).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-asset-id'))).toBe(roomId);
  });
});
