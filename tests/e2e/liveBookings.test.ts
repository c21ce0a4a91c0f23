// Two people, two browsers (two contexts of one Chromium) against the reference
// server: one has a room's popup open and leaves it open; the other books that
// room by mouse, then ends the booking by mouse. The open popup follows both
// without being reopened: the booking arrives under "Coming up" (the live
// reservation sensor), and once ended it is listed under "Earlier" as "Ended
// early" (the worker reads the room report of today again when the live stream
// says the room's bookings changed; docs/reports.md "Kept runs and today").
// The location sits at mid-day (tests/helpers/localTime.ts).

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLocationToMidday } from '../helpers/localTime.js';
import type { TestServer } from '../helpers/server.js';
import { popup, shot, signIn, waitForHitPoint } from './people.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';

let rig: E2eRig;
let server: TestServer;
/** the one who looks: a room's popup stays open on this page */
let looker: Page;
/** the one who books */
let booker: Page;

beforeAll(async () => {
  ({ rig, server, page: looker } = await startE2eRigWithPage({
    prepare: (s) => {
      const locationId = s.server.seed.locationIds[0]!;
      setLocationToMidday(s, locationId);
      const location = s.server.store.locations.get(locationId)!;
      s.server.store.updateLocation(locationId, { config: { ...location.config, assetBookingFeature: true } });
    },
    page: { locale: 'en-GB' },
  }));
  ({ page: booker } = await rig.openPage({ locale: 'en-GB' }));
  await looker.goto(`${rig.viewer.url}/`);
  await booker.goto(`${rig.viewer.url}/`);
  await signIn(looker, server.accounts.regular);
  await signIn(booker, server.accounts.service);
  await looker.waitForURL((url) => url.searchParams.has('floor'));
  await booker.waitForURL((url) => url.searchParams.has('floor'));
});

afterAll(() => rig?.close());

/** A bookable room on the floor both are shown, with nothing booked in it from now on. */
function freeRoom(): string {
  const floorId = new URL(looker.url()).searchParams.get('floor');
  expect(new URL(booker.url()).searchParams.get('floor')).toBe(floorId);
  const { store } = server.server;
  const room = [...store.assets.values()].find((a) => a.type === 'room' && a.parent_id === floorId && a.data_provider_refs.reservation);
  if (!room) throw new Error(`no bookable room on floor ${floorId}`);
  // the room's reservation system lists nothing now or later: it may be booked at once
  store.addMeasurement(room.data_provider_refs.reservation!, { time: Date.now(), valid_for: 86_400_000, events: [] });
  return room.id;
}

async function openPopup(page: Page, roomId: string) {
  const point = await waitForHitPoint(page, `g.asset-room[data-asset-id="${roomId}"]`);
  expect(point, 'the room can be clicked').not.toBeNull();
  await page.mouse.click(point!.x, point!.y);
  const dialog = popup(page);
  await dialog.waitFor();
  return dialog;
}

async function clickCentre(page: Page, box: { x: number; y: number; width: number; height: number } | null): Promise<void> {
  expect(box).not.toBeNull();
  await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
}

describe("another person's booking in an open room popup", () => {
  it('arrives under "Coming up" and, once ended, is listed under "Earlier" as ended early, without reopening', async () => {
    const roomId = freeRoom();
    const looking = await openPopup(looker, roomId);
    const bookings = looking.getByRole('region', { name: 'Recent bookings' });
    // the week is read (this floor's room report) before anything happens
    await expect.poll(() => bookings.innerText(), { timeout: 30_000 }).not.toMatch(/Loading bookings/);
    expect(await bookings.innerText()).not.toMatch(/Team sync/);
    await shot(looker, 'live-bookings-00-popup-open');

    // the other person books the room by mouse
    const booking = await openPopup(booker, roomId);
    await booking.getByLabel('Subject').fill('Team sync');
    await clickCentre(booker, await booking.getByRole('button', { name: 'Book now' }).boundingBox());
    await expect.poll(() => booker.locator('.live-region').innerText(), { timeout: 10_000 }).toMatch(/booked until/);

    // the looker's popup, never closed, shows it running now
    await expect.poll(() => bookings.getByRole('list', { name: 'Coming up' }).innerText().catch(() => ''), { timeout: 10_000 })
      .toMatch(/Team sync\s+Now/);
    await shot(looker, 'live-bookings-01-another-persons-booking-arrived');

    // a little later the other person ends it by mouse
    await booker.waitForTimeout(1_500);
    await clickCentre(booker, await booking.getByRole('button', { name: /^Cancel booking “Team sync”/ }).boundingBox());
    await expect.poll(() => booker.locator('.live-region').innerText(), { timeout: 10_000 }).toMatch(/cancelled/);

    // the looker's popup lists it among the earlier ones: the week is read again for it, no reopening
    await expect.poll(() => bookings.getByRole('list', { name: 'Earlier' }).innerText().catch(() => ''), { timeout: 15_000 })
      .toMatch(/Team sync\s+Ended early/);
    expect(await bookings.getByRole('list', { name: 'Coming up' }).count()).toBe(0);
    await bookings.scrollIntoViewIfNeeded();
    await shot(looker, 'live-bookings-02-ended-booking-listed-earlier');
  });

  it('moves a booking that ends on time from "Now" to "Earlier" as completed as planned, and the room is free, without reopening', async () => {
    const roomId = freeRoom();
    const looking = await openPopup(looker, roomId);
    const bookings = looking.getByRole('region', { name: 'Recent bookings' });
    await expect.poll(() => bookings.innerText(), { timeout: 30_000 }).not.toMatch(/Loading bookings/);
    // the room's reservation system lists a meeting that began five minutes ago and ends in 15 s (a subject of
    // its own: the seed's history of the room has stand-ups and plannings completed as planned)
    const sensorId = server.server.store.assets.get(roomId)!.data_provider_refs.reservation!;
    const endsAt = Date.now() + 15_000;
    const meeting = { start: endsAt - 315_000, end: endsAt, subject: 'Ends on time', user_id: server.accounts.service.userId, booking_ref: `e2e-ends-${endsAt}` };
    server.server.store.addMeasurement(sensorId, { time: Date.now(), valid_for: 86_400_000, events: [meeting] });
    // and nobody is in it, as its occupancy sensor says (a reading past the 80 s meeting window: the seed's own
    // readings may have run out at this hour, which would make the room "no data" whatever its bookings)
    const occupancy = server.server.store.assets.get(roomId)!.data_provider_refs.occupancy;
    if (occupancy) server.server.store.addMeasurement(occupancy, { time: Date.now() - 90_000, valid_for: 3_600_000, value: 0 });
    const coming = bookings.getByRole('list', { name: 'Coming up' });
    await expect.poll(() => coming.innerText().catch(() => ''), { timeout: 10_000 }).toMatch(/Ends on time\s+Now/);
    const status = looking.locator('.status-word');
    await expect.poll(() => status.innerText(), { timeout: 10_000 }).toBe('reserved');
    await bookings.scrollIntoViewIfNeeded();
    await shot(looker, 'live-bookings-03-running-until-its-end');

    // its end passes with the popup open: it leaves "Coming up", is listed "Earlier" as it went, and the room's
    // status follows, within a few seconds of the end (the worker reads today again at that instant)
    await expect.poll(() => bookings.getByRole('list', { name: 'Earlier' }).innerText().catch(() => ''), { timeout: 25_000 })
      .toMatch(/Ends on time\s+Completed as planned/);
    expect(Date.now() - endsAt, 'listed within 5 s of its end').toBeLessThan(5_000);
    expect(await coming.count()).toBe(0);
    expect(await status.innerText()).toBe('free');
    await bookings.scrollIntoViewIfNeeded();
    await shot(looker, 'live-bookings-04-ended-on-time-listed-earlier');
  });
});
