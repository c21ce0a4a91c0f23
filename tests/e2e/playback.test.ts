// "Play back a day" in Chromium as a facility manager uses it: a sensor of a
// type playback used to take from the live store (stress) and its battery
// change live; the manager replays a past day, drags the time slider and
// steps it by keys, clicks the sensor on the map, and its label and popup
// show what the server knew at that instant — never the live value or
// battery — until "Back to live" shows the live ones again; a sensor
// installed today shows as unknown in the replay. Screenshots in
// test-results/e2e/playback-*.png.

import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDaysToKey, calendarDay, dateKeyOf, wallToEpoch } from '../../src/shared/reports/calendar.js';
import type { WireAsset } from '../../src/shared/rest.js';
import { formatValue } from '../../src/worker/derive/drawState.js';
import type { TestServer } from '../helpers/server.js';
import { dayInWords, shot, signIn } from './people.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;

beforeAll(async () => ({ rig, server, page } = await startE2eRigWithPage({ server: { seed: { historyDays: 8 } }, page: { viewport: { width: 1500, height: 950 } } })));
afterAll(() => rig?.close());

/** The text of the popup's row named `term` (its <dd>), or null when the popup has no such row. */
const row = (dialog: Locator, term: string) =>
  dialog.locator('dl.details').evaluate((dl, t) => {
    const dt = [...dl.querySelectorAll('dt')].find((d) => d.textContent === t);
    return dt?.nextElementSibling?.textContent ?? null;
  }, term);

/** where the first test found its sensor: the second puts a new one next to it */
let placed: { floorId: string; x: number; y: number } | null = null;

describe('playback in Chromium', () => {
  it('shows a sensor and its battery on the map and in its popup as they were at the replayed instant, not live', async () => {
    await page.goto(`${rig.viewer.url}/`);
    await page.getByLabel('Email').fill(server.accounts.regular.email);
    await page.getByLabel('Password').fill(server.accounts.regular.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor();
    await page.getByRole('checkbox', { name: 'Stress', exact: true }).click();
    const { store } = server.server;
    const locationId = server.server.seed.locationIds[0]!;
    const tz = store.locations.get(locationId)!.timezone;

    // the stress sensor of the floor shown
    await page.locator('g.asset-sensor').first().waitFor();
    const drawn = new Set(await page.locator('g.asset-sensor').evaluateAll((els) => els.map((e) => e.getAttribute('data-asset-id'))));
    const asset = [...store.assets.values()].find((a: WireAsset) => a.subtype === 'stress' && drawn.has(a.id))!;
    expect(asset).toBeDefined();
    const sensorId = asset.data_provider_refs.stress!;
    placed = { floorId: asset.parent_id!, x: asset.x, y: asset.y };
    const node = page.locator(`g.asset[data-asset-id="${asset.id}"]`);
    const label = node.locator('text.sensor-label');

    // live: it now reads 99 % and its battery is nearly flat
    store.addMeasurement(sensorId, { time: Date.now(), valid_for: 3_600_000, value: 99, battery_level: 3 });
    store.heartbeat(sensorId, Date.now(), 3);
    await expect.poll(() => label.textContent(), { timeout: 30_000 }).toBe('99 %');
    await node.click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => row(dialog, 'Battery')).toBe('3 %');
    expect(await dialog.getByTestId('popup-replay').count()).toBe(0);
    await shot(page, 'playback-01-live-popup');
    await dialog.getByRole('button', { name: 'Close details' }).click();

    // replay the day before yesterday
    const day = addDaysToKey(dateKeyOf(Date.now(), tz), -2);
    await page.getByRole('button', { name: 'Play back a day' }).click();
    const bar = page.getByRole('group', { name: 'Playback' });
    await bar.getByLabel('Day', { exact: true }).fill(day);
    await expect.poll(async () => `${await bar.getAttribute('data-day')} ${await bar.getAttribute('data-state')}`, { timeout: 60_000 }).toBe(`${day} done`);
    const time = page.getByTestId('playback-time');
    const slider = bar.getByLabel('Time of day');

    // what the server knew: its readings of the sensor that day (the first one still valid at midnight)
    const { start, end } = calendarDay(day, tz);
    const res = await server.api(`/organizations/${server.accounts.regular.organizationId}/locations/${locationId}/measurements/stress?start=${start}&end=${end}&sensor_id=${sensorId}`, { token: await server.signIn('regular') });
    const history = (await res.json()) as { columns: string[]; rows: unknown[][] };
    const [iTime, iValue, iBattery] = ['time', 'value', 'battery_level'].map((c) => history.columns.indexOf(c));
    /** the instant the bar shows, and the server's newest reading at or before it */
    const shown = async () => {
      const [h, m] = (await time.innerText()).split(':').map(Number);
      const instant = wallToEpoch(calendarDay(day, tz), h! + m! / 60);
      return { instant, reading: history.rows.filter((r) => (r[iTime!] as number) <= instant).at(-1) ?? null };
    };
    const expectShown = async () => {
      const { instant, reading } = await shown();
      expect(reading, 'the seeded history has a reading by then').not.toBeNull();
      await expect.poll(() => label.textContent()).toBe(`${formatValue(reading![iValue!] as number)} %`);
      await node.click();
      // the popup says the instant in the popup's own date-and-time words
      const minutes = (await time.innerText()).slice(2);
      await expect.poll(() => dialog.getByTestId('popup-replay').textContent()).toMatch(new RegExp(`^As at .*${minutes}.* \\(replay\\)$`));
      expect(await row(dialog, 'Stress')).toBe(`${formatValue(reading![iValue!] as number)} %`);
      expect(await row(dialog, 'Battery')).toBe(`${reading![iBattery!]} %`);
      // nothing from after the instant: no live value in the history, no actions
      const listed = await dialog.locator('.history time').evaluateAll((els) => els.map((e) => Date.parse(e.getAttribute('datetime')!)));
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((t) => t <= instant)).toBe(true);
      expect(await dialog.locator('.popup-actions').count()).toBe(0);
      return instant;
    };

    // drag the slider's thumb to late morning
    const box = (await slider.boundingBox())!;
    const x = (hour: number) => box.x + 8 + (box.width - 16) * (hour / 24);
    const y = box.y + box.height / 2;
    const at = Number((await slider.inputValue()) ?? 0);
    await page.mouse.move(x(((at - start) / (end - start)) * 24), y);
    await page.mouse.down();
    await page.mouse.move(x(8), y, { steps: 5 });
    await page.mouse.move(x(11.2), y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Number((await time.innerText()).slice(0, 2))).toBe(11);
    const first = await expectShown();
    // the day in the popups' words ("Nov 23"), not its key ("2026-11-23")
    expect(await page.getByTestId('playback-indicator').innerText()).toMatch(new RegExp(`^Replay of ${await dayInWords(page, day)} at \\d\\d:\\d\\d(?: \\S+)?, not live\\.$`));
    await shot(page, 'playback-02-replay-popup');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await shot(page, 'playback-02b-replay-bar');

    // three hours later by keys on the slider: Page Up is a quarter hour
    await slider.focus();
    for (let i = 0; i < 12; i += 1) await page.keyboard.press('PageUp');
    await expect.poll(async () => (await shown()).instant).toBe(first + 3 * 3_600_000);
    await expectShown();
    await shot(page, 'playback-03-replay-later');
    await page.keyboard.press('Escape');

    // back to live: the live value and battery again
    await bar.getByRole('button', { name: 'Back to live' }).click();
    await expect.poll(() => label.textContent()).toBe('99 %');
    await node.click();
    await expect.poll(() => row(dialog, 'Battery')).toBe('3 %');
    expect(await dialog.getByTestId('popup-replay').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close details' }).click();
  });

  it('shows a sensor installed today as unknown in a replay, as the live popup says it of a silent one', async () => {
    const { store } = server.server;
    const locationId = server.server.seed.locationIds[0]!;
    const tz = store.locations.get(locationId)!.timezone;
    const sensor = store.createSensor(locationId, { type: 'stress', unit: '%', vendor_id: 'e2e' });
    const asset = store.createAsset(locationId, {
      type: 'sensor', subtype: 'stress', name: 'New stress sensor', parent_id: placed!.floorId, x: placed!.x + 3, y: placed!.y,
      default_sensor_type: 'stress', data_providers: [sensor.id], data_provider_refs: { stress: sensor.id },
    }, null);
    store.addMeasurement(sensor.id, { time: Date.now(), valid_for: 3_600_000, value: 42, battery_level: 77 });
    const node = page.locator(`g.asset[data-asset-id="${asset.id}"]`);
    await expect.poll(() => node.locator('text.sensor-label').textContent(), { timeout: 30_000 }).toBe('42 %');

    // a day not replayed yet (one replayed before reads the floor again, the new sensor with it)
    const day = addDaysToKey(dateKeyOf(Date.now(), tz), -3);
    await page.getByRole('button', { name: 'Play back a day' }).click();
    const bar = page.getByRole('group', { name: 'Playback' });
    await bar.getByLabel('Day', { exact: true }).fill(day);
    await expect.poll(async () => `${await bar.getAttribute('data-day')} ${await bar.getAttribute('data-state')}`, { timeout: 60_000 }).toBe(`${day} done`);
    // nothing was known of it then: no value on the map, none in the popup, no battery; "No recent data"
    await expect.poll(() => node.locator('text.sensor-label').textContent()).toBe('New stress sensor');
    await node.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('popup-replay').waitFor();
    expect(await row(dialog, 'Data')).toBe('No recent data');
    expect(await row(dialog, 'Stress')).toBeNull();
    expect(await row(dialog, 'Battery')).toBeNull();
    expect(await row(dialog, 'Last heard')).toBeNull();
    expect(await dialog.locator('.history').innerText()).toContain('No recent history.');
    await shot(page, 'playback-04-replay-unknown');
    await dialog.getByRole('button', { name: 'Close details' }).click();
    await bar.getByRole('button', { name: 'Back to live' }).click();
    await expect.poll(() => node.locator('text.sensor-label').textContent()).toBe('42 %');
  });

  it('lists People and Rooms as at the replayed instant, sets reporting an issue aside and says Notifications are live', async () => {
    // a tablet: taps on the tabs and buttons, keys on the slider
    const { context: tablet, page: p } = await rig.openPage({ viewport: { width: 1500, height: 950 }, hasTouch: true });
    await p.goto(`${rig.viewer.url}/`);
    await signIn(p, server.accounts.regular, 'touch');
    const { store } = server.server;
    const locationId = server.server.seed.locationIds[0]!;
    const tz = store.locations.get(locationId)!.timezone;
    // the last Tuesday to Thursday before today, the busiest days
    let day = addDaysToKey(dateKeyOf(Date.now(), tz), -1);
    while (calendarDay(day, tz).weekday < 2 || calendarDay(day, tz).weekday > 4) day = addDaysToKey(day, -1);
    const cal = calendarDay(day, tz);

    // who stood where at 11:00 that day, as the server's location readings say
    const eleven = wallToEpoch(cal, 11);
    const res = await server.api(`/organizations/${server.accounts.regular.organizationId}/locations/${locationId}/measurements/location?start=${cal.start}&end=${cal.end}`, { token: await server.signIn('regular') });
    const page0 = (await res.json()) as { columns: string[]; rows: unknown[][] };
    const col = (name: string) => page0.columns.indexOf(name);
    const newest = new Map<string, unknown[]>();
    for (const r of page0.rows) if ((r[col('time')] as number) <= eleven) newest.set(String(r[col('sensor_id')]), r);
    const placedThen = [...store.assets.values()].filter((a: WireAsset) => a.type === 'employee' && a.location_id === locationId).map((a) => {
      const r = newest.get(a.data_providers[0]!);
      const valid = r && (r[col('time')] as number) + ((r[col('valid_for')] as number | null) ?? 0) > eleven;
      const user = store.users.get(String((a.config as { user_id?: unknown }).user_id));
      return { asset: a, user, floorId: valid ? String(r[col('floor_id')]) : null };
    }).filter((x) => x.user && x.floorId && !store.assets.get(x.floorId)?.hidden);
    expect(placedThen.length, 'someone was in at 11:00').toBeGreaterThan(0);
    const { user, floorId, asset: badge } = placedThen[0]!;
    const name = `${user!.first_name} ${user!.last_name}`;
    // as the app names a floor of a location with more than one building
    const floor = store.assets.get(floorId!)!;
    const floorName = `${floor.name}, ${store.assets.get(floor.parent_id!)!.name}`;

    await p.getByRole('tab', { name: 'People' }).tap();
    await p.getByRole('button', { name: 'Play back a day' }).tap();
    const bar = p.getByRole('group', { name: 'Playback' });
    await bar.getByLabel('Day', { exact: true }).fill(day);
    await expect.poll(async () => `${await bar.getAttribute('data-day')} ${await bar.getAttribute('data-state')}`, { timeout: 60_000 }).toBe(`${day} done`);
    const slider = bar.getByLabel('Time of day');
    const time = p.getByTestId('playback-time');
    // 11:00 by keys: Home, then 44 quarter hours
    await slider.focus();
    await p.keyboard.press('Home');
    for (let i = 0; i < 44; i += 1) await p.keyboard.press('PageUp');
    await expect.poll(() => time.innerText()).toBe('11:00');

    // People: where they were then, saying so
    const people = p.getByRole('region', { name: 'People finder' });
    await expect.poll(() => people.getByTestId('panel-replay').innerText()).toMatch(/^As at .*11:00.* \(replay\): where people were then\.$/);
    await people.getByLabel('Find a co-worker').fill(name);
    const person = people.locator('li', { hasText: name });
    await expect.poll(() => person.locator('.person-where').innerText()).toBe(`on ${floorName}`);
    await shot(p, 'playback-05-people-replay');
    // Show: the replay goes on on their floor, at the same instant, with them on the map
    await person.getByRole('button', { name: `Show ${name} on the floor` }).tap();
    await expect.poll(() => p.getByLabel('Floor', { exact: true }).inputValue()).toBe(floorId);
    await expect.poll(async () => `${await bar.getAttribute('data-day')} ${await bar.getAttribute('data-state')} ${await time.innerText()}`, { timeout: 60_000 }).toBe(`${day} done 11:00`);
    await p.locator(`g.asset[data-asset-id="${badge.id}"]`).waitFor();
    expect(await p.locator('.live-region .message').innerText()).toContain(`${name} was on ${floorName} then.`);
    // at 00:00 nobody was in
    await slider.focus();
    await p.keyboard.press('Home');
    await expect.poll(() => person.locator('.person-where').innerText()).toBe('not on a floor then');

    // Rooms: the replayed floor's rooms as the map shows them at the instant, no booking
    await slider.focus();
    for (let i = 0; i < 44; i += 1) await p.keyboard.press('PageUp');
    await expect.poll(() => time.innerText()).toBe('11:00');
    await p.getByRole('tab', { name: 'Rooms' }).tap();
    const rooms = p.getByRole('region', { name: 'Room finder' });
    await expect.poll(() => rooms.getByTestId('panel-replay').innerText()).toContain(`the rooms of ${floorName} as they were then`);
    const listed = rooms.locator('li');
    await expect.poll(() => listed.count()).toBeGreaterThan(0);
    const roomIds = [...store.assets.values()].filter((a: WireAsset) => a.type === 'room' && a.parent_id === floorId).map((a) => a.id);
    expect(await listed.count()).toBe(roomIds.length);
    for (const id of roomIds) {
      const room = store.assets.get(id)!;
      const onMap = await p.locator(`g.asset[data-asset-id="${id}"]`).getAttribute('data-status');
      await expect.poll(() => rooms.locator('li', { hasText: room.name }).first().locator('.status-chip').innerText()).toBe(onMap);
    }
    expect(await rooms.getByRole('button', { name: /^Booking of / }).count()).toBe(0);
    await shot(p, 'playback-06-rooms-replay');

    // Notifications are live whatever the map shows, and say so
    await p.getByRole('tab', { name: 'Notifications' }).tap();
    await expect.poll(() => p.getByTestId('panel-live').innerText()).toBe('Live: notifications as they are now, not as at the replay.');
    await shot(p, 'playback-07-notifications-live');
    // the layer panel speaks of the replayed floor: people were on it then
    expect(await p.getByRole('group', { name: 'Workplace' }).innerText()).not.toContain('none on this floor');

    // so does setting one's location
    await p.getByRole('tab', { name: 'My location' }).tap();
    await expect.poll(() => p.getByTestId('replay-aside').innerText()).toContain('Your location is set on the floor as it is now');
    await shot(p, 'playback-08-my-location-aside');
    // Report an issue acts on the floor as it is now: set aside, with the way back
    await p.getByRole('tab', { name: 'Report an issue' }).tap();
    const aside = p.getByTestId('replay-aside');
    await expect.poll(() => aside.innerText()).toContain(`The map shows a replay of ${await dayInWords(p, day)}. An issue or feedback is for the floor as it is now`);
    await shot(p, 'playback-09-report-aside');
    await aside.getByRole('button', { name: 'Back to live' }).tap();
    await expect.poll(() => bar.count()).toBe(0);
    await p.getByRole('region', { name: 'Report an issue or give feedback' }).getByRole('button').first().waitFor();
    expect(await aside.count()).toBe(0);
    // People live again: no replay note
    await p.getByRole('tab', { name: 'People' }).tap();
    await people.waitFor();
    expect(await people.getByTestId('panel-replay').count()).toBe(0);
    await tablet.close();
  });
});
