// A room-status display in real Chromium, beside the floor viewer in another
// browser context, both against the reference server behind a loopback proxy
// that can go down and come back: set up once by keyboard, live changes from
// the viewer within a second, booking at the display by mouse and keyboard,
// the offline mark, and a reload without network that still shows the room.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReservationEvent } from '../../src/shared/types.js';
import type { WireAsset } from '../../src/shared/rest.js';
import { setLocationToMidday } from '../helpers/localTime.js';
import type { TestServer } from '../helpers/server.js';
import type { ApiProxy } from './apiProxy.js';
import { shot } from './people.js';
import { startE2eRig, type E2eRig } from './rig.js';

let rig: E2eRig;
let server: TestServer;
let proxy: ApiProxy;
let display: Page;
let floor: Page;
let room: WireAsset;
let locationId: string;

const screen = () => display.locator('main.room-display');

/** The room's bookings as the server holds them. */
function serverEvents(): ReservationEvent[] {
  const { store } = server.server;
  const sensorId = room.data_providers.find((id) => store.sensors.get(id)?.type === 'reservation')!;
  return (store.sensors.get(sensorId)?.last_measurement?.events ?? []) as ReservationEvent[];
}

/**
 * The display shows a booking as soon as it is asked for (optimistically):
 * wait until the server holds it, or freeing the room next would miss it.
 */
async function heldByServer(minutes: number): Promise<void> {
  await expect.poll(() => serverEvents().some((e) => e.subject === 'Booked at the display' && e.end - e.start === minutes * 60_000), { timeout: 5000 }).toBe(true);
}

/** Every booking of the room cancelled and its occupancy reading old: the room is free whenever the test runs. */
async function freeTheRoom(): Promise<void> {
  const { store } = server.server;
  const token = await server.signIn('edit');
  const events = serverEvents();
  for (const e of events) {
    const query = new URLSearchParams({ room_id: room.id, booking_ref: e.booking_ref });
    await server.api(`/booking?${query}`, { method: 'DELETE', token });
  }
  const occupancy = room.data_providers.map((id) => store.sensors.get(id)!).filter((s) => s.type === 'occupancy');
  store.addMeasurements(occupancy.map((s) => ({ sensorId: s.id, value: { time: Date.now() - 90_000, valid_for: 30 * 60_000, value: 0 } })));
}

beforeAll(async () => {
  rig = await startE2eRig({ server: { simulate: false }, proxy: true });
  ({ server } = rig);
  proxy = rig.proxy!;
  const { store, seed } = server.server;
  locationId = seed.locationIds[0]!;
  // the display offers only lengths that end by the local day's end: mid-day there, every length fits at any hour the suite runs
  setLocationToMidday(server, locationId);
  const location = store.locations.get(locationId)!;
  const firstFloor = store.assets.get(location.buildings[0]!)!.floors![0]!;
  room = [...store.assets.values()].find((a) => a.type === 'room' && a.parent_id === firstFloor
    && a.data_providers.some((id) => store.sensors.get(id)?.type === 'reservation'))!;
  await freeTheRoom();
  // a landscape wall tablet
  ({ page: display } = await rig.openPage({ viewport: { width: 1280, height: 800 } }));
  ({ page: floor } = await rig.openPage());
});

afterAll(() => rig?.close());

describe('room display in Chromium', () => {
  it('is set up once by keyboard and then shows the room free, filling the screen with its colour, without scrolling', async () => {
    await display.goto(`${rig.viewer.url}/display/room/${room.id}?location=${locationId}`);
    await display.getByRole('heading', { name: 'Set up this room display' }).waitFor();
    await shot(display, 'display-01-setup');
    await display.getByLabel('Email').focus();
    await display.keyboard.type(server.accounts.regular.email);
    await display.keyboard.press('Tab');
    await display.keyboard.type(server.accounts.regular.password);
    await display.keyboard.press('Enter');
    await display.getByRole('heading', { name: room.name, level: 1 }).waitFor({ timeout: 15_000 });
    await expect.poll(() => display.getByTestId('room-status').innerText()).toBe('Free');
    expect(await display.getByTestId('room-next').innerText()).toBe('No reservations');
    expect(await screen().getAttribute('data-status-kind')).toBe('free');
    const layout = await display.evaluate(() => ({
      scroll: document.documentElement.scrollHeight > window.innerHeight || document.documentElement.scrollWidth > window.innerWidth,
      background: getComputedStyle(document.querySelector('main.room-display')!).backgroundColor,
      statusSize: parseFloat(getComputedStyle(document.querySelector('.rd-word')!).fontSize),
      layers: document.querySelectorAll('input[type="checkbox"]').length,
    }));
    expect(layout).toMatchObject({ scroll: false, background: 'rgb(67, 160, 71)', layers: 0 });
    // readable from three metres: the status word is over a tenth of the screen's height
    expect(layout.statusSize).toBeGreaterThan(80);
    await display.getByRole('button', { name: 'Book 60 min' }).waitFor();
    await shot(display, 'display-02-free');
  });

  it("turns its colour and agenda within a second when the room is booked from the floor viewer in another browser", async () => {
    await floor.goto(`${rig.viewer.url}/?location=${locationId}&floor=${room.parent_id}&asset=${room.id}`);
    await floor.getByLabel('Email').fill(server.accounts.edit.email);
    await floor.getByLabel('Password').fill(server.accounts.edit.password);
    await floor.getByRole('button', { name: 'Sign in', exact: true }).click();
    const dialog = floor.getByRole('dialog');
    await dialog.getByLabel('Subject').waitFor({ timeout: 15_000 });
    await dialog.getByLabel('Subject').fill('Design review');
    const colourBefore = await screen().getAttribute('data-color');
    await dialog.getByRole('button', { name: 'Book now' }).click();
    const clicked = Date.now();
    await expect.poll(() => screen().getAttribute('data-color'), { timeout: 1000, interval: 20 }).not.toBe(colourBefore);
    await display.getByTestId('room-agenda').getByText('Design review').waitFor({ timeout: Math.max(1, 1000 - (Date.now() - clicked)) });
    expect(Date.now() - clicked).toBeLessThan(1000);
    expect(await display.getByTestId('room-status').innerText()).toBe('Reserved');
    expect(await display.locator('.rd-current').innerText()).toMatch(/^Design review until \d\d:\d\d(?: \S+)?$/);
    // the agenda shows the subject whole, on its own line under the time (it was cut to "…")
    const subject = display.getByTestId('room-agenda').locator('.rd-subject', { hasText: 'Design review' });
    expect(await subject.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().width > 0)).toBe(true);
    // and its time without the zone, which the clock over it names once (on a portrait tablet every line had read "13:00 – 14:00 GMT…")
    const slot = display.getByTestId('room-agenda').locator('li', { hasText: 'Design review' }).locator('.rd-slot');
    expect(await slot.innerText()).toMatch(/^\d\d:\d\d\s?–\s?\d\d:\d\d$/);
    expect(await slot.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // a meeting runs: nothing to book
    expect(await display.getByRole('button', { name: /^Book \d+ min$/ }).count()).toBe(0);
    await shot(display, 'display-03-booked-from-viewer');
  });

  it('books by mouse and by keyboard at the display', async () => {
    await freeTheRoom();
    await display.getByRole('button', { name: 'Book 15 min' }).waitFor({ timeout: 5000 });
    await display.getByRole('button', { name: 'Book 15 min' }).click();
    await expect.poll(() => display.getByTestId('room-status').innerText(), { timeout: 3000 }).toBe('Reserved');
    expect(await display.getByTestId('room-agenda').innerText()).toContain('Booked at the display');
    expect(await display.locator('.rd-message').innerText()).toMatch(/^Booked until \d\d:\d\d(?: \S+)?\.$/);
    await shot(display, 'display-04-booked-here');
    await heldByServer(15);
    await freeTheRoom();
    const thirty = display.getByRole('button', { name: 'Book 30 min' });
    await thirty.waitFor({ timeout: 5000 });
    await thirty.focus();
    await display.keyboard.press('Enter');
    await expect.poll(() => display.getByTestId('room-status').innerText(), { timeout: 3000 }).toBe('Reserved');
    await heldByServer(30);
  });

  it('keeps the room on screen with a small offline mark while the server is down, and clears it when it is back', async () => {
    await freeTheRoom();
    await expect.poll(() => display.getByTestId('room-status').innerText(), { timeout: 5000 }).toBe('Free');
    await proxy.stop();
    await display.getByTestId('display-offline').waitFor({ timeout: 30_000 });
    expect(await display.getByTestId('display-offline').innerText()).toMatch(/^(Reconnecting|Offline) · last update \d\d:\d\d(?: \S+)?$/);
    expect(await display.getByTestId('room-status').innerText()).toBe('Free');
    await shot(display, 'display-05-offline');
    await proxy.start();
    await display.getByTestId('display-offline').waitFor({ state: 'detached', timeout: 70_000 });
  });

  it('starts again from its saved state after a reload with the network held back: no sign-in prompt', async () => {
    await display.waitForTimeout(2500);
    proxy.hold();
    try {
      await display.reload();
      await display.getByRole('heading', { name: room.name, level: 1 }).waitFor({ timeout: 15_000 });
      expect(await display.getByRole('heading', { name: 'Set up this room display' }).count()).toBe(0);
      await display.getByTestId('display-offline').waitFor();
      await shot(display, 'display-06-reloaded-offline');
    } finally {
      proxy.release();
    }
    await display.getByTestId('display-offline').waitFor({ state: 'detached', timeout: 30_000 });
  });

  it('reloads by itself when its engine stops on an error, and shows the room again, nobody touching it', async () => {
    const engine = display.workers().find((w) => /\/assets\/entry-[^/]+\.js$/.test(w.url()));
    expect(engine, `the engine worker among ${display.workers().map((w) => w.url()).join(', ')}`).toBeDefined();
    // an error nothing catches, thrown by a task of the running engine
    await engine!.evaluate(() => { setTimeout(() => { throw new Error('a task of the engine failed'); }, 0); });
    const stopped = display.getByRole('alert').filter({ hasText: 'Storey stopped working.' });
    await stopped.waitFor({ timeout: 5_000 });
    expect(await stopped.locator('p').allInnerTexts()).toEqual([
      "The app's engine stopped after an error. Reload the page to start it again.", 'It reloads by itself in 10 s.',
    ]);
    await shot(display, 'display-07-engine-stopped');
    // ten seconds on, the room again, from the saved display
    await display.getByRole('heading', { name: room.name, level: 1 }).waitFor({ timeout: 25_000 });
    expect(await stopped.count()).toBe(0);
    await display.getByTestId('room-status').waitFor();
  });
});
