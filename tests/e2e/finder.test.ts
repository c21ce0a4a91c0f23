// The asset finder in real Chromium against the reference server and the real
// engine worker: keyboard first (`/`, arrows, Enter) and by mouse, across
// floors and buildings, typos and diacritics. Screenshots in test-results/e2e/.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { shot, signIn } from './people.js';
import { startE2eRigWithPage, type E2eRig } from './rig.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;

const floorSelect = () => page.getByLabel('Floor', { exact: true });
const buildingSelect = () => page.getByLabel('Building', { exact: true });
const finder = () => page.getByRole('combobox', { name: 'Find desks, rooms, people and more' });
const results = () => page.getByRole('listbox', { name: 'Results' }).getByRole('option');

beforeAll(async () => {
  ({ rig, server, page } = await startE2eRigWithPage({ server: { simulate: true } }));
  await page.goto(`${rig.viewer.url}/`);
  await signIn(page, server.accounts.regular);
  await page.locator('g.asset-room').first().waitFor();
});

afterAll(() => rig?.close());

describe('asset finder in Chromium', () => {
  it('focuses with /, finds a co-worker without diacritics, and Enter shows them on their floor', async () => {
    const { store } = server.server;
    const person = [...store.users.values()].find((u) => u.last_name === 'Mäkelä')!;
    expect(person).toBeTruthy();
    // the seed sits her in a privacy booth, where she is rightly shown on no floor: she walks to a desk first
    // (the simulation is held so it cannot walk her back in)
    server.server.simulator.stop();
    // with a keyboard and a mouse, the box says how to reach it
    expect(await finder().getAttribute('placeholder')).toBe('Find… (press /)');
    const employee = [...store.assets.values()].find((a) => a.type === 'employee' && a.config.user_id === person.id)!;
    const tag = store.sensors.get(String(employee.data_provider_refs.location))!;
    const floorId = String(tag.last_measurement!.floor_id);
    const desk = [...store.assets.values()].find((a) => a.parent_id === floorId && a.subtype === 'desk')!;
    store.addMeasurements([{ sensorId: tag.id, value: { time: Date.now(), valid_for: 30 * 60_000, x: desk.x, y: desk.y, floor_id: floorId } }]);
    await page.locator('svg').first().click({ position: { x: 5, y: 5 } }).catch(() => undefined);
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    await page.keyboard.type('makela');
    const option = results().filter({ hasText: 'Mäkelä' }).first();
    await option.waitFor();
    expect(await page.locator('.finder-group').first().innerText()).toMatch(/^CO-WORKERS/i);
    await shot(page, 'finder-01-person');
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.live-region').innerText(), { timeout: 3000 }).toMatch(/Mäkelä is on /);
    expect(await page.getByRole('listbox', { name: 'Results' }).count()).toBe(0);
  });

  it('forgives a typo, moves with the arrows and shows a desk on another building\'s floor: floor switched, desk highlighted', async () => {
    const { store } = server.server;
    // a desk of the second building's upper floor, so Show has to switch building and floor
    const location = store.locations.get(server.server.seed.locationIds[0]!)!;
    const buildingB = store.assets.get(location.buildings[1]!)!;
    const floorB1 = store.assets.get(buildingB.floors![1]!)!;
    const desk = [...store.assets.values()].find((a) => a.subtype === 'desk' && a.parent_id === floorB1.id && !a.unpublished)!;
    await finder().click();
    await finder().fill('');
    // "Dsk" for "Desk": one typo in the kind word
    await finder().pressSequentially(`dsk ${desk.name.split(' ')[1]}`);
    const wanted = page.locator(`[data-result-key="a:${desk.id}"]`);
    await wanted.waitFor();
    expect(await wanted.innerText()).toContain(`${floorB1.name}, ${buildingB.name}`);
    const options = results();
    const count = await options.count();
    expect(count).toBeGreaterThan(1);
    // walk down to it with the arrows
    for (let i = 0; i < count && (await wanted.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
    expect(await wanted.getAttribute('aria-selected')).toBe('true');
    await shot(page, 'finder-02-desk-typo');
    await page.keyboard.press('Enter');
    await expect.poll(() => floorSelect().inputValue(), { timeout: 5000 }).toBe(floorB1.id);
    expect(await buildingSelect().inputValue()).toBe(buildingB.id);
    const node = page.locator(`[data-asset-id="${desk.id}"]`);
    await expect.poll(() => node.getAttribute('class'), { timeout: 5000 }).toContain('highlighted');
    await expect.poll(() => new URL(page.url()).searchParams.get('asset')).toBe(desk.id);
    await shot(page, 'finder-03-desk-shown');
  });

  it('by mouse: lists rooms for "meeting rooms" grouped with their floor, and a click shows the room', async () => {
    const { store } = server.server;
    await finder().click();
    await finder().fill('meeting rooms');
    const first = results().first();
    await first.waitFor();
    expect(await page.locator('.finder-group').allInnerTexts()).toEqual([expect.stringMatching(/^ROOMS/i)]);
    const key = (await first.getAttribute('data-result-key'))!;
    const room = store.assets.get(key.slice(2))!;
    await shot(page, 'finder-04-rooms');
    await first.click();
    await expect.poll(() => floorSelect().inputValue(), { timeout: 5000 }).toBe(room.parent_id);
    await expect.poll(() => page.locator(`[data-asset-id="${room.id}"]`).getAttribute('class'), { timeout: 5000 }).toContain('highlighted');
  });

  it('by keyboard: a room shown takes the focus on the map, so Enter opens it and / goes back to the finder', async () => {
    const { store } = server.server;
    // a room on a floor other than the one shown, so the floor is switched and drawn anew
    const current = await floorSelect().inputValue();
    const location = store.locations.get(server.server.seed.locationIds[0]!)!;
    const floors = new Set(location.buildings.flatMap((b) => store.assets.get(b)?.floors ?? []));
    const room = [...store.assets.values()].find((a) => a.type === 'room' && a.parent_id !== current && floors.has(a.parent_id!) && !a.unpublished)!;
    await page.keyboard.press('Escape');
    await page.locator('body').press('/');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(room.name);
    const wanted = page.locator(`[data-result-key="a:${room.id}"]`);
    await wanted.waitFor();
    for (let i = 0; i < 20 && (await wanted.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => floorSelect().inputValue(), { timeout: 5000 }).toBe(room.parent_id);
    // the keyboard is at the room, with its ring: no walk through every control between the finder and the map
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-asset-id')), { timeout: 5000 }).toBe(room.id);
    expect(await page.evaluate(() => document.activeElement?.matches(':focus-visible'))).toBe(true);
    await shot(page, 'finder-06-room-focused');
    await page.keyboard.press('Enter');
    await page.getByTestId('asset-popup').waitFor();
    await expect.poll(() => page.getByTestId('asset-popup').innerText()).toContain(room.name);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-asset-id'))).toBe(room.id);
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
  });

  it('says so when nothing matches, and Escape closes the results', async () => {
    await finder().click();
    await finder().fill('zzqxv');
    await expect.poll(() => page.locator('.finder-status').innerText()).toBe('Nothing matches “zzqxv”.');
    await shot(page, 'finder-05-nothing');
    await page.keyboard.press('Escape');
    expect(await page.locator('.finder-results').count()).toBe(0);
  });

  it('lists the desks of the floor in view first, and follows a floor switch', async () => {
    const { store } = server.server;
    const floorNameOf = async () => (await floorSelect().locator('option:checked').innerText()).replace(/ \(default\)$/, '');
    const firstWhere = () => results().first().locator('.finder-where').innerText();
    const options = await floorSelect().locator('option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
    for (const floorId of options.slice(0, 2)) {
      await floorSelect().selectOption(floorId);
      // the switch has landed (the worker owns the floor shown; the URL follows it), as a person sees the floor change
      await page.waitForURL((url) => url.searchParams.get('floor') === floorId);
      const desksHere = [...store.assets.values()].filter((a) => a.subtype === 'desk' && a.parent_id === floorId && !a.unpublished);
      expect(desksHere.length).toBeGreaterThan(0);
      // (the second time the box still holds the query: the click opens its results again)
      await finder().click();
      await finder().fill('desks');
      await results().first().waitFor();
      const name = await floorNameOf();
      await expect.poll(firstWhere, { timeout: 15_000 }).toMatch(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`));
      await page.keyboard.press('Escape');
    }
    await shot(page, 'finder-07-desks-here-first');
  });

  it('goes to the finder with / right after a layer is switched on by mouse', async () => {
    const co2 = page.getByRole('checkbox', { name: 'CO₂' });
    await co2.click();
    expect(await co2.isChecked()).toBe(true);
    // the checkbox has the focus now: `/` is not typed into it
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('checkbox');
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    await co2.click();
  });
});
