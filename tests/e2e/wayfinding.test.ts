// Directions between floors and buildings in real Chromium against the
// reference server (wayfinding enabled in the demo organization): asked from
// the finder by keyboard (Shift+Enter) and by mouse (Directions), listed in
// numbered words, drawn on each floor the route crosses.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireAsset } from '../../src/shared/rest.js';
import type { TestServer } from '../helpers/server.js';
import { shot, signIn } from './people.js';
import { startE2eRig, type E2eRig } from './rig.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;
let startFloor: WireAsset;
let destination: WireAsset;
let destinationFloor: WireAsset;

const finder = () => page.getByRole('combobox', { name: 'Find desks, rooms, people and more' });
const floorSelect = () => page.getByLabel('Floor', { exact: true });
const panel = () => page.getByRole('region', { name: /^Directions to / });

/**
 * How much of the route drawn on this floor a person cannot see: points along
 * each walk and the step marks that lie outside the map or under the
 * directions panel or a legend. -1 when nothing is drawn.
 */
const hiddenRoutePoints = () => page.evaluate(() => {
  const svg = document.querySelector<SVGSVGElement>('svg.floor-svg')!;
  const map = svg.getBoundingClientRect();
  const covers = [...document.querySelectorAll('.route-panel, .map-legends > *')].map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0);
  const points: Array<[number, number]> = [];
  for (const line of document.querySelectorAll<SVGLineElement>('.route-overlay .route-line')) {
    const m = line.getScreenCTM()!;
    const [x1, y1, x2, y2] = [line.x1, line.y1, line.x2, line.y2].map((a) => a.baseVal.value) as [number, number, number, number];
    for (let i = 0; i <= 10; i++) {
      const p = new DOMPoint(x1 + ((x2 - x1) * i) / 10, y1 + ((y2 - y1) * i) / 10).matrixTransform(m);
      points.push([p.x, p.y]);
    }
  }
  for (const mark of document.querySelectorAll('.route-overlay .route-step circle, .route-overlay .route-arrival')) {
    const r = mark.getBoundingClientRect();
    points.push([r.x + r.width / 2, r.y + r.height / 2]);
  }
  if (points.length === 0) return -1;
  const inside = (r: DOMRect, [x, y]: [number, number]) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  return points.filter((p) => !inside(map, p) || covers.some((r) => inside(r, p))).length;
});

beforeAll(async () => {
  rig = await startE2eRig({ server: { simulate: false } });
  ({ server } = rig);
  const { store, seed } = server.server;
  const location = store.locations.get(seed.locationIds[0]!)!;
  const [a, b] = location.buildings.map((id) => store.assets.get(id)!);
  startFloor = store.assets.get(a!.floors![1]!)!;
  destinationFloor = store.assets.get(b!.floors![1]!)!;
  destination = [...store.assets.values()].find((x) => x.subtype === 'desk' && x.parent_id === destinationFloor.id && !x.unpublished)!;
  // the signed-in person stands on the first building's upper floor (their manual location)
  const token = await server.signIn('regular');
  const res = await server.api(`/organizations/${seed.organizationId}/users/${server.accounts.regular.userId}`, {
    method: 'PATCH', token, json: { location: { location_id: location.id, floor_id: startFloor.id, x: 20, y: 12, time: Date.now() } },
  });
  expect(res.status).toBeLessThan(300);
  ({ page } = await rig.openPage());
  await page.goto(`${rig.viewer.url}/`);
  await signIn(page, server.accounts.regular);
  await page.locator('g.asset-room').first().waitFor();
});

afterAll(() => rig?.close());

describe('directions in Chromium', () => {
  it('by keyboard: Shift+Enter on a finder result lists the way to another building in numbered words and draws it here', async () => {
    await page.keyboard.press('/');
    await page.keyboard.type(`desk ${destination.name.split(' ')[1]}`);
    const wanted = page.locator(`[data-result-key="a:${destination.id}"]`);
    await wanted.waitFor();
    for (let i = 0; i < 10 && (await wanted.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+Enter');
    await panel().waitFor();
    const steps = panel().locator('.route-steps li');
    await steps.first().waitFor();
    const words = await panel().locator('.route-text').allInnerTexts();
    expect(words[0]).toMatch(/^Walk \d+ m to the (lift|stairs)$/);
    expect(words).toContain('Take the lift to Floor 0');
    expect(words).toContain(`Go through the passage to ${store().assets.get(destinationFloor.parent_id!)!.name}, Floor 0`);
    expect(words).toContain('Take the lift to Floor 1');
    expect(words.at(-1)).toBe(`Walk ${words.at(-1)!.match(/\d+/)![0]} m to ${destination.name}`);
    // the way starts on the person's floor, drawn with its numbered steps
    await expect.poll(() => floorSelect().inputValue(), { timeout: 5000 }).toBe(startFloor.id);
    await page.locator('.route-overlay .route-step[data-step="1"]').waitFor();
    expect(await page.locator('.route-overlay .route-line').count()).toBeGreaterThan(0);
    // the floor is fitted beside the directions and above the legends: the whole route is in sight
    const directions = (await panel().boundingBox())!;
    await expect.poll(async () => (await page.locator('polygon.floor-outline').boundingBox())!.x, { timeout: 3000 }).toBeGreaterThanOrEqual(directions.x + directions.width);
    await expect.poll(hiddenRoutePoints, { timeout: 3000 }).toBe(0);
    await shot(page, 'route-01-start-floor');
  });

  it('by mouse: a step shows its floor, where the route arrives and goes on', async () => {
    const last = panel().locator('.route-steps li').last();
    await last.getByRole('button').click();
    await expect.poll(() => floorSelect().inputValue(), { timeout: 5000 }).toBe(destinationFloor.id);
    await page.locator('.route-overlay .route-arrival').first().waitFor();
    expect(await last.getAttribute('class')).toBe('here');
    await expect.poll(hiddenRoutePoints, { timeout: 3000 }).toBe(0);
    await shot(page, 'route-02-destination-floor');
  });

  it('Escape closes the directions; Directions in a finder row opens them by mouse', async () => {
    await panel().locator('h2').focus();
    const narrowed = (await page.locator('polygon.floor-outline').boundingBox())!;
    await page.keyboard.press('Escape');
    expect(await panel().count()).toBe(0);
    expect(await page.locator('.route-overlay').count()).toBe(0);
    // the floor takes the room the directions gave back
    await expect.poll(async () => (await page.locator('polygon.floor-outline').boundingBox())!.width, { timeout: 3000 }).toBeGreaterThan(narrowed.width);
    await finder().click();
    await finder().fill('meeting rooms');
    const row = page.getByRole('listbox', { name: 'Results' }).getByRole('option').first();
    await row.waitFor();
    await row.locator('.finder-route').click();
    await panel().waitFor();
    await panel().locator('.route-steps li').first().waitFor();
    await shot(page, 'route-03-by-mouse');
  });
});

describe('directions from a chosen asset', () => {
  it('starts from the asset highlighted on the map when chosen as the start', async () => {
    const { store: s, seed } = server.server;
    const location = s.locations.get(seed.locationIds[0]!)!;
    const groundA = s.assets.get(location.buildings[0]!)!.floors![0]!;
    const start = [...s.assets.values()].find((x) => x.subtype === 'desk' && x.parent_id === groundA && !x.unpublished)!;
    await panel().getByRole('button', { name: 'Close directions' }).click();
    // show the start desk (highlighted), then ask the way from it
    await finder().click();
    await finder().fill(`desk ${start.name.split(' ')[1]}`);
    const startRow = page.locator(`[data-result-key="a:${start.id}"]`);
    await startRow.click();
    await expect.poll(() => page.locator(`[data-asset-id="${start.id}"]`).getAttribute('class'), { timeout: 5000 }).toContain('highlighted');
    await finder().click();
    await finder().fill(`desk ${destination.name.split(' ')[1]}`);
    await page.locator(`[data-result-key="a:${destination.id}"] .finder-route`).click();
    await panel().waitFor();
    await shot(page, 'route-04a-before-from');
    await panel().getByRole('combobox', { name: 'Start from' }).selectOption({ label: start.name }, { timeout: 5000 });
    await expect.poll(async () => (await panel().locator('.route-text').allInnerTexts())[0], { timeout: 5000 }).toMatch(/^Walk \d+ m to the passage$/);
    await expect.poll(() => floorSelect().inputValue(), { timeout: 5000 }).toBe(groundA);
    await shot(page, 'route-04-from-asset');
  });
});

function store() {
  return server.server.store;
}
