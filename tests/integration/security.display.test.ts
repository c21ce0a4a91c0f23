// Room display tokens against the real server (docs/security.md "Room
// displays"): a display signs in once with `client=display`; its token reads
// and books, is kept alive by use, lapses when unused, and cannot write
// anything else, as an attacker holding a stolen wall tablet would try.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, type ManualClock } from '../../server/clock.js';
import { DISPLAY_TOKEN_IDLE_MS, DISPLAY_TOKEN_REFUSED, TOKEN_LIFETIME_MS } from '../../server/auth.js';
import type { LoginResponse } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { storeFingerprint } from './support/attack.js';

/** the writes a display needs (docs/security.md "Room displays") */
const DISPLAY_MAY = new Set(['POST /v1/booking', 'POST /v1/pusher/auth', 'POST /v1/logout']);

const T0 = Date.UTC(2025, 2, 12, 8, 0, 0);
const DAY = 24 * 3600 * 1000;

let t: TestServer;
let clock: ManualClock;

beforeAll(async () => {
  clock = createManualClock(T0);
  t = await startTestServer({ clock });
});
afterAll(async () => { await t?.close(); });

async function signInDisplay(): Promise<LoginResponse> {
  const res = await t.api('/login', { method: 'POST', form: { email: t.accounts.regular.email, password: t.accounts.regular.password, client: 'display' } });
  expect(res.status).toBe(200);
  return (await res.json()) as LoginResponse;
}

function aRoom() {
  const { store, seed } = t.server;
  const room = [...store.assets.values()].find((a) => a.type === 'room' && a.location_id === seed.locationIds[0] && a.data_providers.some((id) => store.sensors.get(id)?.type === 'reservation'))!;
  return { room, path: `/organizations/${seed.organizationId}/locations/${seed.locationIds[0]}` };
}

describe('room display tokens', () => {
  it('are issued for the idle window instead of the usual lifetime, and only when asked for', async () => {
    const display = await signInDisplay();
    expect(display.expires_at).toBe(T0 + DISPLAY_TOKEN_IDLE_MS);
    const plain = await t.api('/login', { method: 'POST', form: { email: t.accounts.regular.email, password: t.accounts.regular.password } });
    expect(((await plain.json()) as LoginResponse).expires_at).toBe(T0 + TOKEN_LIFETIME_MS);
    const other = await t.api('/login', { method: 'POST', form: { email: t.accounts.regular.email, password: t.accounts.regular.password, client: 'admin' } });
    expect(other.status).toBe(400);
  });

  it('read the location and book a room', async () => {
    const { token } = await signInDisplay();
    const { room, path } = aRoom();
    expect((await t.api(`${t.url}/v2/settings`, { token })).status).toBe(200);
    expect((await t.api(`${path}/assets`, { token })).status).toBe(200);
    const start = clock.now() + 3 * 3600_000;
    const res = await t.api('/booking', { method: 'POST', token, json: { room_id: room.id, start, end: start + 15 * 60_000, subject: 'Booked at the display' } });
    expect(res.status).toBe(201);
  });

  it('refuse every other write with 403, and change nothing', async () => {
    const { token } = await signInDisplay();
    const { room, path } = aRoom();
    const before = JSON.stringify(t.server.store.assets.get(room.id));
    const attempts: Array<[string, string, unknown]> = [
      ['PATCH', `${path}/assets/${room.id}`, { name: 'Hacked' }],
      ['POST', `${path}/assets`, { type: 'ticket', name: 'x', parent_id: room.parent_id }],
      ['DELETE', `${path}/assets/${room.id}`, undefined],
      ['PUT', `${path}/assets/${room.id}/vote`, { direction: 1 }],
      ['PATCH', `/organizations/${t.server.seed.organizationId}/users/${t.accounts.regular.userId}`, { first_name: 'Hacked' }],
      ['POST', `${t.url}/v2/measurements`, { measurements: [] }],
      ['DELETE', `/booking?room_id=${room.id}&booking_ref=bk-0`, undefined],
    ];
    for (const [method, url, json] of attempts) {
      const res = await t.api(url, { method, token, json });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(DISPLAY_TOKEN_REFUSED);
    }
    expect(JSON.stringify(t.server.store.assets.get(room.id))).toBe(before);
    expect(t.server.store.users.get(t.accounts.regular.userId)!.first_name).not.toBe('Hacked');
  });

  it('can call no write route of the server but booking, its live channels and signing out, changing nothing', async () => {
    const { token } = await signInDisplay();
    const { store, seed, pusher } = t.server;
    const { room } = aRoom();
    const values: Record<string, string> = {
      orgId: seed.organizationId, locId: seed.locationIds[0]!, assetId: room.id, sensorId: room.data_providers[0]!,
      id: t.accounts.regular.userId, userId: t.accounts.regular.userId, appId: pusher.appId, name: 'photo',
    };
    const before = storeFingerprint(t);
    const sessions = store.tokens.size;
    const writes = t.server.routes.filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method));
    expect(writes.length).toBeGreaterThan(30);
    for (const route of writes) {
      if (DISPLAY_MAY.has(`${route.method} ${route.url}`)) continue;
      const path = route.url.replace(/:(\w+)/g, (_, name: string) => values[name] ?? '1');
      const res = await fetch(`${t.url}${path}`, {
        method: route.method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}',
      });
      expect(res.status, `${route.method} ${route.url}`).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(DISPLAY_TOKEN_REFUSED);
    }
    expect(storeFingerprint(t)).toBe(before);
    expect(store.tokens.size).toBe(sessions);
  });

  it('sign out ends only the display’s own session', async () => {
    const first = await signInDisplay();
    const second = await signInDisplay();
    const person = await t.signIn('regular');
    const works = async (token: string) => (await t.api(`${t.url}/v2/settings`, { token })).status;
    expect((await t.api('/logout', { method: 'POST', token: first.token })).status).toBe(204);
    expect(await works(first.token)).toBe(401);
    expect(await works(second.token)).toBe(200);
    expect(await works(person)).toBe(200);
  });

  it('stay alive for months while the display keeps using them', async () => {
    const { token } = await signInDisplay();
    for (let day = 0; day < 200; day += 30) {
      clock.advance(30 * DAY);
      expect((await t.api(`${t.url}/v2/settings`, { token })).status, `after ${day + 30} days`).toBe(200);
    }
  });

  it('lapse once unused for the idle window', async () => {
    const { token } = await signInDisplay();
    clock.advance(DISPLAY_TOKEN_IDLE_MS + 1);
    expect((await t.api(`${t.url}/v2/settings`, { token })).status).toBe(401);
  });
});
