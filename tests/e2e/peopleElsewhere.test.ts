// A co-worker at another location of the organization, as a person meets them
// in the People panel in Chromium: "at <location>" instead of "not shown on a
// floor", and a way there that ends with them shown on the map. The location
// comes from the user's own location (spec §3), which the reference server
// keeps in step with their tag. Screenshots: test-results/e2e/people-elsewhere-*.png.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eRig, type E2eRig } from './rig.js';
import { shot, signIn } from './people.js';

let rig: E2eRig;

beforeAll(async () => {
  rig = await startE2eRig();
});

afterAll(async () => {
  await rig?.close();
});

describe('a co-worker at another location', () => {
  it('reads "at <location>" in the People panel, and "Go there" switches location and shows them', async () => {
    const { store, seed } = rig.server.server;
    const [here, there] = [seed.locationIds[0]!, seed.locationIds[1]!];
    // a visible co-worker whose tag is at the other location, placed there now (on a desk's spot, out of any privacy zone)
    const tag = [...store.locationTags.values()].find((t) => t.location_id === there && t.user_id && store.users.get(t.user_id)?.visible)!;
    const user = store.users.get(tag.user_id!)!;
    const desk = [...store.assets.values()].find((a) => a.location_id === there && a.subtype === 'desk' && a.parent_id)!;
    store.addMeasurement(tag.sensor_id, { time: Date.now(), valid_for: 3_600_000, x: desk.x, y: desk.y, floor_id: desk.parent_id!, zones: [] });
    const name = `${user.first_name} ${user.last_name}`;
    const thereName = store.locations.get(there)!.name;

    const { page } = await rig.openPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${rig.viewer.url}/?location=${here}`);
    await signIn(page, rig.server.accounts.regular);
    const item = page.locator('.people-finder li', { hasText: name });
    await expect.poll(() => item.locator('.person-where').textContent(), { timeout: 10_000 }).toBe(`at ${thereName}`);
    await shot(page, 'people-elsewhere-01-listed');
    await item.getByRole('button', { name: `Go to ${thereName} and show ${name}` }).click();
    // the other location, with the person shown on their floor
    await expect.poll(() => page.getByLabel('Location', { exact: true }).evaluate((el) => (el as HTMLSelectElement).value), { timeout: 10_000 }).toBe(there);
    await page.locator('.live-region').getByText(new RegExp(`^${name} is on Floor \\d+, `)).waitFor({ timeout: 15_000 });
    await expect.poll(() => new URL(page.url()).searchParams.get('floor')).toBe(desk.parent_id);
    expect(await item.locator('.person-where').textContent()).toMatch(/^on /);
    await shot(page, 'people-elsewhere-02-shown-there');
  });
});
