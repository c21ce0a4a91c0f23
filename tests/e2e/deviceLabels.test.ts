// A device marker (a tracked "First-aid kit") standing on a room's name: the
// marker is drawn over rooms, and its own name gave way to the room's (a lower
// priority), so the tag covered the room's name and the kit went unnamed. The
// room's name moves to the nearest clear place inside the room, as it does of a
// ticket's bubble, and both names are read (docs/ui.md "Names clear of bubbles
// and device markers"). In the seeded F0-R1, free (a short status line), the
// name moved off the kit stood across the room's left wall; it is now drawn a
// little smaller above the kit, inside the room, at the fitted floor and zoomed
// in with the wheel. In Chromium, by mouse. Screenshots
// test-results/e2e/device-label-clear.png, device-label-zoomed.png, device-label-both.png.

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
let kit: WireAsset;

beforeAll(async () => {
  rig = await startE2eRig({
    prepare: (s) => {
      const { store, location, floorId } = seededFirstFloor(s.server);
      const area = (a: WireAsset) => {
        const xs = a.outline!.map((p) => p[0]!);
        const ys = a.outline!.map((p) => p[1]!);
        return (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
      };
      // the floor's largest room: its name is read on the fitted floor
      room = [...store.assets.values()].filter((a) => a.type === 'room' && a.parent_id === floorId && (a.outline?.length ?? 0) > 2)
        .sort((a, b) => area(b) - area(a))[0]!;
      const xs = room.outline!.map((p) => p[0]!);
      const ys = room.outline!.map((p) => p[1]!);
      // a rectangle: its name is at its middle; the kit's tag stands on the name's first line
      const [x, y] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2 - 0.2];
      kit = [...store.assets.values()].find((a) => a.type === 'auto_tag' && a.name === 'First-aid kit' && a.location_id === location.id)!;
      kit.parent_id = floorId;
      const sensorId = kit.data_provider_refs!.location!;
      store.addMeasurement(sensorId, { x, y, floor_id: floorId, floor: 0, zones: [], time: Date.now(), valid_for: 86_400_000 });
      // the room free, whatever the hour: nothing booked and nobody in it (an occupancy reading past the meeting
      // window). Its short status line leaves the name's own width as its box's, where a move off the kit stood
      // across the room's wall
      store.addMeasurement(room.data_provider_refs.reservation!, { time: Date.now(), valid_for: 86_400_000, events: [] });
      store.addMeasurement(room.data_provider_refs.occupancy!, { time: Date.now() - 90_000, valid_for: 86_400_000, value: 0 });
    },
  });
  server = rig.server;
  ({ page } = await rig.openPage());
  await page.goto(`${rig.viewer.url}/`);
  await signIn(page, server.accounts.regular);
});

afterAll(() => rig?.close());

interface Rect { x: number; y: number; width: number; height: number }
const meet = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The room's name, the kit's tag and name and the room's outline, on screen, once the layout has settled. */
async function seen() {
  const roomName = page.locator(`text[data-label-for="${room.id}"]`);
  const kitName = page.locator(`text[data-label-for="${kit.id}"]`);
  const tag = page.locator(`g[data-asset-id="${kit.id}"] rect`).first();
  const walls = page.locator(`g[data-asset-id="${room.id}"] polygon`);
  return {
    roomName: (await roomName.isVisible()) ? await roomName.boundingBox() : null,
    kitName: (await kitName.isVisible()) ? await kitName.boundingBox() : null,
    tag: (await tag.boundingBox())!,
    walls: (await walls.boundingBox())!,
    status: await page.locator(`text[data-label-for="${room.id}"] .status-word`).textContent(),
  };
}

/** What a person reads: the room's name inside its walls, off the tag, and the kit's name shown and apart from it. */
function read(s: Awaited<ReturnType<typeof seen>>): string {
  if (!s.roomName) return "room's name hidden";
  const n = s.roomName;
  if (n.x < s.walls.x || n.x + n.width > s.walls.x + s.walls.width || n.y < s.walls.y || n.y + n.height > s.walls.y + s.walls.height) {
    return `room's name across its wall: name ${Math.round(n.x)}–${Math.round(n.x + n.width)} px, walls ${Math.round(s.walls.x)}–${Math.round(s.walls.x + s.walls.width)} px`;
  }
  if (meet(n, s.tag)) return "room's name under the tag";
  if (!s.kitName) return "kit's name hidden";
  if (meet(n, s.kitName)) return "names over each other";
  return 'both read';
}

describe("a room's name and a device marker on it", () => {
  it("keeps the room's name inside its walls and clear of the tag standing on it, drawn a little smaller so the kit's is read too", async () => {
    await page.locator(`g[data-asset-id="${kit.id}"] rect`).first().waitFor();
    // the layout tracks label boxes in short tasks: read once it has settled
    await expect.poll(async () => read(await seen()), { timeout: 10_000 }).toBe('both read');
    const fitted = await seen();
    expect(fitted.status).toBe('free');
    await shot(page, 'device-label-clear');
    // a person zooms in on the room with the wheel: the names grow with the map and still read apart, inside the room
    await page.mouse.move(fitted.walls.x + fitted.walls.width / 2, fitted.walls.y + fitted.walls.height / 2);
    for (let step = 0; step < 4; step++) {
      await page.mouse.wheel(0, -120);
      await page.waitForTimeout(150);
    }
    await expect.poll(async () => (await seen()).walls.width, { timeout: 5_000 }).toBeGreaterThan(fitted.walls.width * 1.5);
    await expect.poll(async () => read(await seen()), { timeout: 10_000 }).toBe('both read');
    await shot(page, 'device-label-zoomed');
  });

  it("names both once the kit is carried to the room's foot", async () => {
    const ys = room.outline!.map((p) => p[1]!);
    const xs = room.outline!.map((p) => p[0]!);
    const before = (await seen()).tag;
    server.server.store.addMeasurement(kit.data_provider_refs!.location!, {
      x: (Math.min(...xs) + Math.max(...xs)) / 2, y: Math.max(...ys) - 1.3, floor_id: kit.parent_id!, floor: 0, zones: [], time: Date.now(), valid_for: 86_400_000,
    });
    await expect.poll(async () => (await seen()).tag.y, { timeout: 10_000 }).toBeGreaterThan(before.y + before.height);
    await expect.poll(async () => read(await seen()), { timeout: 10_000 }).toBe('both read');
    await shot(page, 'device-label-both');
  });
});
