// Intents as people use them (issue 9 §2), in real Chromium by mouse against
// the reference server: service staff close a ticket from its popup, and
// "Book for the rest of the day" ends at the end of the location's local day
// although the browser runs in another time zone.

import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReservationEvent } from '../../src/shared/types.js';
import { endOfLocalDayAt } from '../../src/shared/time.js';
import type { TestServer } from '../helpers/server.js';
import { ARTIFACTS_DIR } from './harness.js';
import { startE2eRig, type E2eRig } from './rig.js';

let rig: E2eRig;
let server: TestServer;

/** The browser's zone, on purpose not the location's (Helsinki): the booking must follow the location. */
const BROWSER_TIME_ZONE = 'America/Los_Angeles';

async function signedIn(who: 'regular' | 'service'): Promise<{ context: BrowserContext; page: Page; warnings: string[] }> {
  const { context, page } = await rig.openPage({ timezoneId: BROWSER_TIME_ZONE });
  // what the engine worker warns about, as a developer reads it in the console
  const warnings: string[] = [];
  page.on('worker', (worker) => worker.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); }));
  await page.goto(`${rig.viewer.url}/`);
  await page.getByLabel('Email').fill(server.accounts[who].email);
  await page.getByLabel('Password').fill(server.accounts[who].password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('application', { name: /Floor plan of/ }).waitFor();
  // the address follows the shown floor a task or two after it is drawn (Shell's deep link): the tests read it
  await page.waitForURL((url) => url.searchParams.has('location') && url.searchParams.has('floor'));
  return { context, page, warnings };
}

/** A person's click: the mouse at the centre of the asset's box on screen. */
async function clickAsset(page: Page, asset: Locator): Promise<void> {
  await asset.scrollIntoViewIfNeeded();
  const box = (await asset.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

beforeAll(async () => {
  rig = await startE2eRig();
  ({ server } = rig);
});

afterAll(() => rig?.close());

describe('intents in Chromium', () => {
  it('lets service staff close a ticket by mouse: its status changes on the server, its validity ends, and it leaves the map', async () => {
    const { context, page } = await signedIn('service');
    // an occupant reports a problem on the floor the service user is looking at
    const url = new URL(page.url());
    const [locationId, floorId] = [url.searchParams.get('location'), url.searchParams.get('floor')];
    const reporter = await server.signIn('regular');
    const now = Date.now();
    const posted = await server.api(`/organizations/${server.accounts.regular.organizationId}/locations/${locationId}/assets`, {
      method: 'POST', token: reporter,
      json: {
        type: 'ticket', name: 'it', subtype: 'it', parent_id: floorId, x: 14, y: 14, speech_bubble: 'Printer jammed',
        value: { text: 'Printer jammed', label: 'it', status: 'open', time: now, valid_for: 86_400_000, valid_to: now + 86_400_000 },
        unpublished: false,
      },
    });
    expect(posted.status).toBeLessThan(300);
    const ticket = page.locator('[data-asset-id][role="button"][aria-label^="Ticket "]').first();
    await ticket.waitFor();
    const id = (await ticket.getAttribute('data-asset-id'))!;
    // a copy: the store changes its record in place
    const before = structuredClone(server.server.store.assets.get(id)!);
    await clickAsset(page, ticket);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Close ticket' }).click();
    await expect.poll(() => page.locator('.live-region').innerText(), { timeout: 5000 }).toMatch(/Ticket closed/);
    const after = server.server.store.assets.get(id)!;
    expect((after.value as { status: string }).status).toBe('closed');
    // its status and, with it, its validity: it ends now (docs/layers.md "service")
    const { status: _s, valid_to: end, valid_for: _f, ...rest } = after.value as { status: string; valid_to: number; valid_for: number };
    const { status: _s0, valid_to: _e0, valid_for: _f0, ...restBefore } = before.value as { status: string; valid_to: number; valid_for: number };
    expect(rest).toEqual(restBefore);
    expect(end).toBeLessThanOrEqual(Date.now());
    expect(end).toBeLessThan((before.value as { valid_to: number }).valid_to);
    expect(after.name).toBe(before.name);
    // done, so it leaves the map, and its popup goes with it
    await expect.poll(() => page.locator(`.floor-svg [data-asset-id="${id}"]`).count(), { timeout: 5000 }).toBe(0);
    expect(await dialog.count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'intents-01-ticket-closed.png') });
    await context.close();
  });

  it('sends a ticket and a voice by mouse: they are on the floor, and their live created is no duplicate id', async () => {
    const { context, page, warnings } = await signedIn('regular');
    await page.locator('[data-asset-id][role="button"]').first().waitFor();
    await page.getByRole('tab', { name: 'Report an issue' }).click();
    // placed at the centre of the view once the floor is drawn
    await expect.poll(() => page.locator('.place').innerText(), { timeout: 10_000 }).toMatch(/^Placed at the red pin on the map/);
    const sent: string[] = [];
    for (const [kind, radio, text] of [
      ['ticket', 'Ticket (something to fix)', 'Coffee machine leaks'], ['voice', 'Voice (how it feels here)', 'Lovely light today'],
    ] as const) {
      await page.getByRole('radio', { name: radio }).check();
      await page.getByRole('textbox', { name: 'Message' }).fill(text);
      await page.getByRole('button', { name: `Send ${kind}` }).click();
      await page.getByText(`Thanks! Your ${kind} is on the floor.`).waitFor({ timeout: 10_000 });
      // the record the server holds (the map drew a draft of it under a key of its own before the answer)
      const record = [...server.server.store.assets.values()].find((a) => a.type === kind && a.name === text);
      expect(record).toBeDefined();
      await page.locator(`[data-asset-id="${record!.id}"][aria-label^="${kind === 'ticket' ? 'Ticket' : 'Voice'} ${text}"]`).waitFor({ timeout: 15_000 });
      sent.push(record!.id);
    }
    // the live stream is ordered: once a later change of the voice is on the map, both records' live created came
    const editor = await server.signIn('edit');
    const url = new URL(page.url());
    const renamed = 'Lovely light, renamed';
    const res = await server.api(`/organizations/${server.accounts.regular.organizationId}/locations/${url.searchParams.get('location')}/assets/${sent[1]}`, {
      method: 'PATCH', token: editor, json: { name: renamed, speech_bubble: renamed },
    });
    expect(res.status).toBe(200);
    await page.locator(`[data-asset-id="${sent[1]}"][aria-label*="${renamed}"]`).waitFor({ timeout: 15_000 });
    expect(warnings.filter((w) => w.includes('Duplicate id'))).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'intents-03-own-ticket-and-voice.png') });
    await context.close();
  });

  it("books a room for the rest of the day by mouse, ending at the end of the location's local day", async () => {
    const { store } = server.server;
    // the location offers the button, and the room is free now
    const admin = await server.signIn('admin');
    const locationId = server.server.seed.locationIds[0]!;
    const location = store.locations.get(locationId)!;
    const res = await server.api(`/organizations/${location.organization_id}/locations/${locationId}`, {
      method: 'PATCH', token: admin, json: { config: { ...location.config, allDayBookingButton: true } },
    });
    expect(res.status).toBe(200);
    const now = Date.now();
    for (const booking of [...store.bookings.values()]) {
      const events = (store.sensors.get(booking.sensorId)?.last_measurement?.events ?? []) as ReservationEvent[];
      const event = events.find((e) => e.booking_ref === booking.bookingRef);
      if (!event || event.end < now) continue;
      const q = new URLSearchParams({ room_id: booking.roomId, booking_ref: booking.bookingRef });
      await server.api(`/booking?${q}`, { method: 'DELETE', token: admin });
    }

    const { context, page } = await signedIn('regular');
    const room = page.locator('g.asset-room').first();
    await room.waitFor();
    const roomId = (await room.getAttribute('data-asset-id'))!;
    // the server may already hold bookings of this user (seeded history): only the new one counts
    const earlier = new Set([...store.bookings.values()].map((b) => b.bookingRef));
    await clickAsset(page, room);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Book for the rest of the day' }).click();
    await expect.poll(() => page.locator('.live-region').innerText(), { timeout: 5000 }).toMatch(/booked until/);
    const mine = [...store.bookings.values()].filter((b) => !earlier.has(b.bookingRef) && b.roomId === roomId && b.userId === server.accounts.regular.userId);
    const events = mine.flatMap((b) => ((store.sensors.get(b.sensorId)?.last_measurement?.events ?? []) as ReservationEvent[])
      .filter((e) => e.booking_ref === b.bookingRef));
    expect(events).toHaveLength(1);
    const expected = endOfLocalDayAt(events[0]!.start, location.timezone);
    expect(events[0]!.end).toBe(expected);
    // and not the end of the browser's day
    expect(events[0]!.end).not.toBe(endOfLocalDayAt(events[0]!.start, BROWSER_TIME_ZONE));
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'intents-02-rest-of-day.png') });
    await context.close();
  });
});
