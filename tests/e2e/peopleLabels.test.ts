// Co-workers in a meeting room, on its name: an avatar is drawn over rooms, and
// its own name gave way to the room's (a lower priority) while the disc stood on
// the room's name, so "F0-R1" read "F R1". A room's name now keeps clear of a
// co-worker as of a device marker (docs/ui.md "Names clear of co-workers"):
// inside its walls, off the avatars; when they leave, it goes back. In Chromium,
// by mouse and wheel. Screenshots test-results/e2e/people-label-clear.png,
// people-label-zoomed.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireAsset } from '../../src/shared/rest.js';
import type { TestServer } from '../helpers/server.js';
import { type E2eRig, seededFirstFloor, startE2eRig } from './rig.js';
import { shot, signIn } from './people.js';

let rig: E2eRig;
let server: TestServer;
let page: Page;
let room: WireAsset;
let floorId = '';
const inMeeting: Array<{ sensorId: string; name: string }> = [];

beforeAll(async () => {
  rig = await startE2eRig({
    prepare: (s) => {
      const first = seededFirstFloor(s.server);
      const { store, location } = first;
      floorId = first.floorId;
      room = [...store.assets.values()].find((a) => a.type === 'room' && a.parent_id === floorId && a.name.endsWith('-R1'))!;
      const xs = room.outline!.map((p) => p[0]!);
      const ys = room.outline!.map((p) => p[1]!);
      const [x, y] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
      // two visible co-workers in the meeting: one on the room's name, one beside it
      const tags = [...store.locationTags.values()].filter((t) => t.location_id === location.id && t.user_id && store.users.get(t.user_id)?.visible).slice(0, 2);
      tags.forEach((tag, i) => {
        const user = store.users.get(tag.user_id!)!;
        inMeeting.push({ sensorId: tag.sensor_id, name: `${user.first_name} ${user.last_name}` });
        store.addMeasurement(tag.sensor_id, { time: Date.now(), valid_for: 3_600_000, x: x - 0.3 + i * 1.8, y: y - 0.3 + i * 1.2, floor_id: floorId, zones: [] });
      });
    },
  });
  server = rig.server;
  ({ page } = await rig.openPage({ viewport: { width: 1366, height: 768 } }));
  await page.goto(`${rig.viewer.url}/`);
  await signIn(page, server.accounts.regular);
});

afterAll(() => rig?.close());

interface Rect { x: number; y: number; width: number; height: number }
const meet = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** What a person reads of the room's name: inside its walls, clear of every avatar and shown name in the meeting. */
async function roomNameRead(): Promise<string> {
  const name = page.locator(`text[data-label-for="${room.id}"]`);
  if (!(await name.isVisible())) return 'hidden';
  const n = (await name.boundingBox())!;
  const walls = (await page.locator(`g[data-asset-id="${room.id}"] polygon`).boundingBox())!;
  if (n.x < walls.x || n.x + n.width > walls.x + walls.width || n.y < walls.y || n.y + n.height > walls.y + walls.height) return 'across its wall';
  for (const { name: who } of inMeeting) {
    const person = page.locator('g[data-kind="employee"]', { hasText: who });
    const disc = (await person.locator('circle').first().boundingBox())!;
    if (meet(n, disc)) return `under ${who}'s avatar`;
    const label = person.locator('text[data-label-for]');
    if ((await label.isVisible()) && meet(n, (await label.boundingBox())!)) return `over ${who}'s name`;
  }
  return 'read';
}

describe("a room's name and co-workers in the meeting", () => {
  it("keeps the room's name inside its walls and clear of the avatars standing on it, fitted and zoomed in", async () => {
    for (const { name } of inMeeting) await page.locator('g[data-kind="employee"]', { hasText: name }).waitFor();
    // the layout tracks label boxes in short tasks: read once it has settled
    await expect.poll(roomNameRead, { timeout: 10_000 }).toBe('read');
    await shot(page, 'people-label-clear');
    const walls = (await page.locator(`g[data-asset-id="${room.id}"] polygon`).boundingBox())!;
    await page.mouse.move(walls.x + walls.width / 2, walls.y + walls.height / 2);
    for (let step = 0; step < 4; step++) {
      await page.mouse.wheel(0, -120);
      await page.waitForTimeout(150);
    }
    await expect.poll(async () => (await page.locator(`g[data-asset-id="${room.id}"] polygon`).boundingBox())!.width, { timeout: 5_000 })
      .toBeGreaterThan(walls.width * 1.5);
    await expect.poll(roomNameRead, { timeout: 10_000 }).toBe('read');
    await shot(page, 'people-label-zoomed');
  });

  it('puts the name back at its place once the meeting is over and they walk out', async () => {
    const name = page.locator(`text[data-label-for="${room.id}"]`);
    expect(await name.getAttribute('transform')).not.toBeNull();
    for (const [i, { sensorId }] of inMeeting.entries()) {
      server.server.store.addMeasurement(sensorId, { time: Date.now(), valid_for: 3_600_000, x: 20 + i * 2, y: 20, floor_id: floorId, zones: [] });
    }
    await expect.poll(() => name.getAttribute('transform'), { timeout: 10_000 }).toBeNull();
    expect(await name.isVisible()).toBe(true);
  });
});
