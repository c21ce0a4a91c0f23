// Caps on what one caller can pile up on the server (docs/security.md
// "Sessions per user" and "Sockets nobody signed in"): sessions per user
// (a script that knows a password signing in over and over, from any number
// of addresses), and sockets on our Pusher endpoint that no session was ever
// bound to (anyone may open one). Until 2026-11-25 neither had a bound.
// A session ended past the cap loses its live access at once, on our Pusher
// endpoint and on the real Mosquitto.

import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MQTT_PROTOCOL_VERSION } from '../../src/shared/constants.js';
import { pusherChannel } from '../../src/shared/protocol.js';
import { restPaths } from '../../src/shared/rest.js';
import type { Settings } from '../../src/shared/types.js';
import { MAX_SESSIONS_PER_USER, hashPassword, issueToken } from '../../server/auth.js';
import { PUSHER_OVER_CAPACITY_CODE, PUSHER_UNAUTHORIZED_CODE } from '../../server/live/pusherServer.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { settingsOf } from './support/listen.js';
import { until } from './support/attack.js';

interface RawSocket { id: string | null; frames: Array<{ event: string; data: unknown }>; ws: WebSocket; closed: number | null }

/** a raw socket on our Pusher endpoint, as a script opens it */
async function openSocket(pc: NonNullable<Settings['pusher_config']>, sockets: WebSocket[]): Promise<RawSocket> {
  const ws = new WebSocket(`ws://${pc.ws_host}:${pc.ws_port}/app/${pc.app_key}?protocol=7&client=raw`);
  sockets.push(ws);
  const s: RawSocket = { id: null, frames: [], ws, closed: null };
  ws.on('message', (m) => s.frames.push(JSON.parse(m.toString()) as RawSocket['frames'][number]));
  ws.on('close', (code) => { s.closed = code; });
  await until(() => s.frames.length > 0 || s.closed !== null, 'the connection');
  const first = s.frames[0];
  if (first?.event === 'pusher:connection_established') s.id = (JSON.parse(first.data as string) as { socket_id: string }).socket_id;
  return s;
}

describe('security: sessions per user', () => {
  let t: TestServer;
  let org: string;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    t = await startTestServer();
    org = t.accounts.regular.organizationId;
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await t?.close();
  });

  /** a request the session makes: 200 while it lasts, 401 once it ended */
  const settings = (token: string) => t.api(restPaths.organizations(), { token });

  it(`ends the oldest session, its live socket too, when a user signs in more than ${MAX_SESSIONS_PER_USER} times; the others and a display stay`, async () => {
    const s = t.server.store;
    const user = s.createUser(org, { email: 'many.sessions@storey.test', permissions: ['USER_UPDATE_SELF'] });
    s.credentials.set(user.id, { passwordHash: hashPassword('many-sessions-pass-1') });
    const login = async (extra: Record<string, string> = {}) => {
      const res = await t.api(restPaths.login(), { method: 'POST', form: { email: user.email, password: 'many-sessions-pass-1', ...extra } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { token: string }).token;
    };
    const display = await login({ client: 'display' });
    const oldest = await login();
    // the oldest session follows the user's stream on a socket of its own
    const pc = (await settingsOf(t, oldest)).pusher_config!;
    const live = await openSocket(pc, sockets);
    const channel = pusherChannel({ kind: 'user', userId: user.id });
    const auth = await t.api(restPaths.pusherAuth(), { method: 'POST', token: oldest, json: { socket_id: live.id, channel_name: channel } });
    expect(auth.status).toBe(200);
    live.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth: ((await auth.json()) as { auth: string }).auth } }));
    await until(() => live.frames.some((f) => f.event === 'pusher_internal:subscription_succeeded'), 'the subscription');
    // the sessions of its other devices, up to the cap
    const others = Array.from({ length: MAX_SESSIONS_PER_USER - 1 }, () => issueToken(s, user.id).token);
    expect((await settings(oldest)).status).toBe(200);

    const newest = await login();
    expect((await settings(oldest)).status).toBe(401);
    await until(() => live.closed !== null, 'the oldest session’s socket closed');
    expect(live.closed).toBe(PUSHER_UNAUTHORIZED_CODE);
    for (const token of [others[0]!, others.at(-1)!, newest, display]) expect((await settings(token)).status).toBe(200);
    expect([...s.tokens.values()].filter((r) => r.userId === user.id && !r.display)).toHaveLength(MAX_SESSIONS_PER_USER);
  });
});

describe('security: sessions per user, on the real Mosquitto', () => {
  let t: TestServer;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    t = await startTestServer({ transport: 'mqtt' });
  }, 30_000);
  afterAll(async () => {
    for (const c of clients) await c.endAsync(true).catch(() => undefined);
    await t?.close();
  });

  it('deletes the broker client of the session a sign-in past the cap ends: dropped at once, its credentials refused', async () => {
    const s = t.server.store;
    const user = s.createUser(t.accounts.regular.organizationId, { email: 'many.brokers@storey.test', permissions: ['USER_UPDATE_SELF'] });
    s.credentials.set(user.id, { passwordHash: hashPassword('many-brokers-pass-1') });
    const login = async () => {
      const res = await t.api(restPaths.login(), { method: 'POST', form: { email: user.email, password: 'many-brokers-pass-1' } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { token: string }).token;
    };
    const connect = async (config: NonNullable<Settings['mqtt_config']>) => {
      const client = await mqtt.connectAsync(config.mqtt_url!, {
        protocolVersion: MQTT_PROTOCOL_VERSION, username: config.username, password: config.password, clientId: config.client_id, reconnectPeriod: 0,
      });
      clients.push(client);
      const live = { closed: false };
      client.on('close', () => { live.closed = true; });
      return { client, live };
    };
    const oldest = await login();
    const oldConfig = (await settingsOf(t, oldest)).mqtt_config!;
    const old = await connect(oldConfig);
    for (let i = 0; i < MAX_SESSIONS_PER_USER - 2; i += 1) issueToken(s, user.id);
    const kept = await login();
    const keptLive = await connect((await settingsOf(t, kept)).mqtt_config!);
    expect(old.live.closed).toBe(false);

    await login();
    await until(() => old.live.closed, 'the broker to drop the ended session’s client');
    await expect(connect(oldConfig)).rejects.toThrow();
    expect(keptLive.live.closed).toBe(false);
  });
});

describe('security: sockets nobody signed in on our Pusher endpoint', () => {
  const TIMEOUT_MS = 600;
  const PER_ADDRESS = 3;
  let t: TestServer;
  let token: string;
  let userId: string;
  let pc: NonNullable<Settings['pusher_config']>;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    t = await startTestServer({ pusherSockets: { unauthenticatedTimeoutMs: TIMEOUT_MS, maxUnauthenticatedPerAddress: PER_ADDRESS } });
    token = await t.signIn('regular');
    userId = t.accounts.regular.userId;
    pc = (await settingsOf(t, token)).pusher_config!;
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await t?.close();
  });

  const bind = async (s: RawSocket) => {
    const res = await t.api(restPaths.pusherAuth(), { method: 'POST', token, json: { socket_id: s.id, channel_name: pusherChannel({ kind: 'user', userId }) } });
    expect(res.status).toBe(200);
  };

  it('closes a socket no session was bound to after the time allowed, and keeps one that was', async () => {
    const idle = await openSocket(pc, sockets);
    const signed = await openSocket(pc, sockets);
    expect(idle.id && signed.id).toBeTruthy();
    await bind(signed);
    await until(() => idle.closed !== null, 'the idle socket closed', TIMEOUT_MS * 10);
    expect(idle.closed).toBe(PUSHER_UNAUTHORIZED_CODE);
    expect(idle.frames.at(-1)).toMatchObject({ event: 'pusher:error', data: { code: PUSHER_UNAUTHORIZED_CODE } });
    await new Promise((r) => setTimeout(r, TIMEOUT_MS));
    expect(signed.closed).toBeNull();
    signed.ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
    await until(() => signed.frames.some((f) => f.event === 'pusher:pong'), 'the signed socket answers');
  });

  it(`refuses a socket past ${PER_ADDRESS} not signed in from one address (4100, try later), and takes one again once they are`, async () => {
    const held: RawSocket[] = [];
    for (let i = 0; i < PER_ADDRESS; i += 1) held.push(await openSocket(pc, sockets));
    expect(held.every((s) => s.id && s.closed === null)).toBe(true);
    const refused = await openSocket(pc, sockets);
    await until(() => refused.closed !== null, 'the refused socket closed');
    expect(refused.id).toBeNull();
    expect(refused.closed).toBe(PUSHER_OVER_CAPACITY_CODE);
    expect(refused.frames[0]).toMatchObject({ event: 'pusher:error', data: { code: PUSHER_OVER_CAPACITY_CODE } });
    // one signs in, another leaves: two places free
    await bind(held[0]!);
    held[1]!.ws.close();
    await until(() => held[1]!.closed !== null, 'the socket left');
    const next = [await openSocket(pc, sockets), await openSocket(pc, sockets)];
    expect(next.every((s) => s.id && s.closed === null)).toBe(true);
    const again = await openSocket(pc, sockets);
    await until(() => again.closed !== null, 'the socket past the cap closed');
    expect(again.closed).toBe(PUSHER_OVER_CAPACITY_CODE);
  });
});
