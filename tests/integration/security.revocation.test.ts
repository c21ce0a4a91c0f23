// Issue 12 §2 — revocation is immediate, played against the real reference
// server with its own Pusher endpoint (pusher-js clients) and against the
// real Mosquitto (mqtt.js clients): deleting a user, taking a permission
// away, changing or resetting a password and signing out end the sessions'
// tokens and cut their live connections at once; MQTT client ids are bound
// to their credentials, so nobody can kick another user off.

import 'fake-indexeddb/auto';
import mqtt, { type MqttClient } from 'mqtt';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MQTT_PROTOCOL_VERSION, ROLE_PERMISSIONS } from '../../src/shared/constants.js';
import { PUSHER_EVENT, mqttTopicFilter, pusherChannel, type StreamScope } from '../../src/shared/protocol.js';
import { restPaths } from '../../src/shared/rest.js';
import type { Role, Settings } from '../../src/shared/types.js';
import { createEngine } from '../../src/worker/engine.js';
import { systemClock } from '../../src/worker/systemClock.js';
import { createIdbStorage } from '../../src/worker/storage/idbStorage.js';
import { createTransport } from '../../src/worker/transports/index.js';
import { hashPassword, issueToken } from '../../server/auth.js';
import { createPusherTransport } from '../../server/live/pusherTransport.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createTestLogger } from '../worker/engine/harness.js';
import { until } from './support/attack.js';

const PERMISSIONS: Record<Role, string[]> = {
  admin: Object.values(ROLE_PERMISSIONS),
  edit: [ROLE_PERMISSIONS.edit, ROLE_PERMISSIONS.regular],
  service: [ROLE_PERMISSIONS.service, ROLE_PERMISSIONS.regular],
  regular: [ROLE_PERMISSIONS.regular],
};
const NOT_AUTHORIZED = 135;
/** long enough for a packet published now to have arrived on loopback */
const SETTLE_MS = 300;
const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));

/** A fresh user with a password and `sessions` open sessions. */
function makeVictim(t: TestServer, role: Role, sessions = 1) {
  const s = t.server.store;
  const email = `victim.${role}.${s.users.size + 1}.${Date.now()}@storey.test`;
  const user = s.createUser(t.accounts.admin.organizationId, { email, first_name: 'Victim', permissions: PERMISSIONS[role] });
  const password = 'victim-password-1';
  s.credentials.set(user.id, { passwordHash: hashPassword(password) });
  const tokens = Array.from({ length: sessions }, () => issueToken(s, user.id).token);
  return { user, email, password, tokens };
}

const works = async (t: TestServer, token: string) => (await t.api(restPaths.notifications(), { token })).status;

/** Renames a visible desk of the first location through the API, as the edit user: one packet on every location stream. */
async function touchLocation(t: TestServer, editToken: string, name: string): Promise<void> {
  const org = t.accounts.edit.organizationId;
  const loc = t.server.seed.locationIds[0]!;
  const desk = [...t.server.store.assets.values()].find((a) => a.location_id === loc && a.subtype === 'desk' && !a.unpublished)!;
  const res = await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: editToken, json: { name } });
  expect(res.status).toBe(200);
  await t.server.publisher.flush();
}

describe('security: revocation over the own Pusher endpoint', () => {
  let t: TestServer;
  let admin: string;
  let edit: string;
  let org: string;
  let loc: string;
  const clients: Pusher[] = [];

  /** A pusher-js client of `token`, subscribed to `scope`; collects packets and connection states. */
  async function follow(token: string, scope: StreamScope) {
    const settings = (await (await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${token}` } })).json()) as Settings;
    const pc = settings.pusher_config!;
    const client = new Pusher(pc.app_key, {
      cluster: pc.cluster, wsHost: pc.ws_host, wsPort: pc.ws_port, forceTLS: false, enabledTransports: ['ws'],
      channelAuthorization: { endpoint: `${t.baseUrl}/pusher/auth`, transport: 'ajax', headers: { Authorization: `Bearer ${token}` } },
    });
    clients.push(client);
    const live = { packets: 0, states: [] as string[], subscribed: false };
    client.connection.bind('state_change', (c: { current: string }) => live.states.push(c.current));
    const channel = client.subscribe(pusherChannel(scope));
    channel.bind(PUSHER_EVENT, () => { live.packets += 1; });
    await new Promise<void>((resolve, reject) => {
      channel.bind('pusher:subscription_succeeded', () => { live.subscribed = true; resolve(); });
      channel.bind('pusher:subscription_error', (e: { status: number }) => reject(new Error(`subscription refused: ${e.status}`)));
    });
    return { client, live, dropped: () => client.connection.state !== 'connected' };
  }

  const editScope = (): StreamScope => ({ kind: 'location', organizationId: org, locationId: loc, audience: 'edit' });
  const publicScope = (): StreamScope => ({ kind: 'location', organizationId: org, locationId: loc });

  beforeAll(async () => {
    t = await startTestServer();
    admin = issueToken(t.server.store, t.accounts.admin.userId).token;
    edit = issueToken(t.server.store, t.accounts.edit.userId).token;
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await t?.close();
  });

  it('deleting a user ends every session at once and closes their sockets, the edit stream included', async () => {
    const victim = makeVictim(t, 'edit', 2);
    const socket = await follow(victim.tokens[0]!, editScope());
    await touchLocation(t, edit, 'Desk before');
    await until(() => socket.live.packets >= 1, 'a packet before the deletion');
    expect((await t.api(restPaths.user(org, victim.user.id), { method: 'DELETE', token: admin })).status).toBe(204);
    expect(await works(t, victim.tokens[0]!)).toBe(401);
    expect(await works(t, victim.tokens[1]!)).toBe(401);
    await until(() => socket.dropped(), 'the socket to be closed');
    const seen = socket.live.packets;
    await touchLocation(t, edit, 'Desk after');
    await settle();
    expect(socket.live.packets).toBe(seen);
    const auth = await t.api(restPaths.pusherAuth(), { method: 'POST', token: victim.tokens[0]!, form: { socket_id: '1.2', channel_name: pusherChannel(editScope()) } });
    expect(auth.status).toBe(401);
  });

  it('taking a permission away ends every session and the edit stream; a new session gets only the public one', async () => {
    const victim = makeVictim(t, 'edit');
    const socket = await follow(victim.tokens[0]!, editScope());
    const res = await t.api(restPaths.user(org, victim.user.id), { method: 'PATCH', token: admin, json: { permissions: PERMISSIONS.regular } });
    expect(res.status).toBe(200);
    expect(await works(t, victim.tokens[0]!)).toBe(401);
    await until(() => socket.dropped(), 'the edit socket to be closed');
    const seen = socket.live.packets;
    await touchLocation(t, edit, 'Desk demoted');
    await settle();
    expect(socket.live.packets).toBe(seen);
    const fresh = await t.signIn({ email: victim.email, password: victim.password, userId: victim.user.id, organizationId: org });
    await expect(follow(fresh, editScope())).rejects.toThrow('subscription refused: 403');
    const again = await follow(fresh, publicScope());
    expect(again.live.subscribed).toBe(true);
  });

  it('changing one’s password ends the other sessions and their sockets; the current one keeps working', async () => {
    const victim = makeVictim(t, 'regular', 2);
    const [current, other] = victim.tokens as [string, string];
    const mine = await follow(current, publicScope());
    const theirs = await follow(other, publicScope());
    const res = await t.api(restPaths.userPassword(org, victim.user.id), { method: 'POST', token: current, json: { old_password: victim.password, password: 'brand-new-password' } });
    expect(res.status).toBe(204);
    expect(await works(t, other)).toBe(401);
    expect(await works(t, current)).toBe(200);
    await until(() => theirs.dropped(), 'the other session’s socket to be closed');
    const before = mine.live.packets;
    await touchLocation(t, edit, 'Desk after password');
    await until(() => mine.live.packets > before, 'the current session to keep receiving');
    expect(mine.dropped()).toBe(false);
  });

  it('a password reset by mailed code or by an admin ends every session of the user', async () => {
    const recovered = makeVictim(t, 'regular', 2);
    const socket = await follow(recovered.tokens[0]!, publicScope());
    expect((await t.api(restPaths.recoverPassword(), { method: 'POST', form: { email: recovered.email } })).status).toBe(202);
    const mail = t.server.outbox.latest(recovered.email)!;
    expect((await t.api(restPaths.userPassword(org, recovered.user.id), { method: 'POST', json: { code: mail.code, password: 'recovered-password' } })).status).toBe(204);
    for (const token of recovered.tokens) expect(await works(t, token)).toBe(401);
    await until(() => socket.dropped(), 'the socket to be closed after recovery');

    const reset = makeVictim(t, 'service', 2);
    expect((await t.api(restPaths.userPassword(org, reset.user.id), { method: 'POST', token: admin, json: { password: 'set-by-the-admin' } })).status).toBe(204);
    for (const token of reset.tokens) expect(await works(t, token)).toBe(401);
  });

  it('signing out ends that session and its socket, and only that one', async () => {
    const victim = makeVictim(t, 'regular', 2);
    const [leaving, staying] = victim.tokens as [string, string];
    const gone = await follow(leaving, publicScope());
    const kept = await follow(staying, publicScope());
    const res = await t.api(restPaths.logout(), { method: 'POST', token: leaving });
    expect(res.status).toBe(204);
    expect(res.headers.get('set-cookie')).toMatch(/storey_session=;.*Expires=Thu, 01 Jan 1970/i);
    expect(await works(t, leaving)).toBe(401);
    expect(await works(t, staying)).toBe(200);
    expect((await t.api(restPaths.logout(), { method: 'POST', token: leaving })).status).toBe(401);
    await until(() => gone.dropped(), 'the signed-out socket to be closed');
    const before = kept.live.packets;
    await touchLocation(t, edit, 'Desk after sign-out');
    await until(() => kept.live.packets > before, 'the other session to keep receiving');
  });

  it('closes a user’s sockets through the SDK’s user termination, as with hosted Pusher', async () => {
    const victim = makeVictim(t, 'regular');
    const socket = await follow(victim.tokens[0]!, publicScope());
    const { appId, key, secret, cluster } = t.server.pusher;
    // a transport that knows only the HTTP API, like one publishing to hosted Pusher
    const hostedLike = createPusherTransport({ appId, key, secret, cluster, selfHosted: { host: '127.0.0.1', port: Number(new URL(t.url).port) } });
    await hostedLike.revoke({ userId: victim.user.id, sessionIds: [], reason: 'deleted', wholeUser: true });
    await until(() => socket.dropped(), 'the user’s socket to be closed');
  });

  it('refuses a termination request not signed with the app secret, closing nothing', async () => {
    const victim = makeVictim(t, 'regular');
    const socket = await follow(victim.tokens[0]!, publicScope());
    const appId = t.server.pusher.appId;
    const forged = await fetch(`${t.url}/apps/${appId}/users/${victim.user.id}/terminate_connections?auth_key=${t.server.pusher.key}&auth_timestamp=${Math.floor(Date.now() / 1000)}&auth_version=1.0&auth_signature=${'0'.repeat(64)}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
    });
    expect(forged.status).toBe(401);
    await settle();
    expect(socket.dropped()).toBe(false);
  });

  it('the engine’s sign-out ends its session on the server', async () => {
    const victim = makeVictim(t, 'regular', 0);
    const engine = createEngine({
      clock: systemClock, fetch: (input, init) => globalThis.fetch(input, init), transportFactory: createTransport,
      storage: createIdbStorage({ name: 'storey-security-signout' }), logger: createTestLogger(),
    });
    try {
      await engine.init({ host: t.url });
      expect((await engine.signIn(victim.email, victim.password)).ok).toBe(true);
      const sessions = () => [...t.server.store.tokens.values()].filter((r) => r.userId === victim.user.id).length;
      expect(sessions()).toBe(1);
      await engine.signOut();
      await until(() => sessions() === 0, 'the server to end the session');
    } finally {
      await engine.dispose();
    }
  });
});

describe('security: revocation and client ids over Mosquitto', () => {
  let t: TestServer;
  let admin: string;
  let edit: string;
  let org: string;
  let loc: string;
  const clients: MqttClient[] = [];

  async function settingsOf(token: string): Promise<NonNullable<Settings['mqtt_config']>> {
    const res = await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as Settings).mqtt_config!;
  }

  /** An mqtt.js client with `config`'s credentials (and its bound client id unless another is given). */
  async function connect(config: NonNullable<Settings['mqtt_config']>, clientId = config.client_id) {
    const client = await mqtt.connectAsync(config.mqtt_url!, {
      protocolVersion: MQTT_PROTOCOL_VERSION, username: config.username, password: config.password, clientId, reconnectPeriod: 0,
    });
    clients.push(client);
    const live = { messages: 0, closed: false };
    client.on('message', () => { live.messages += 1; });
    client.on('close', () => { live.closed = true; });
    return { client, live };
  }
  const subscribe = (client: MqttClient, filter: string) =>
    client.subscribeAsync(filter, { qos: 1 }).then((granted) => granted.map((g) => g.qos), (err: { packet?: { granted?: number[] } }) => err.packet?.granted ?? [-1]);
  const editFilter = () => mqttTopicFilter({ kind: 'location', organizationId: org, locationId: loc, audience: 'edit' });
  const publicFilter = () => mqttTopicFilter({ kind: 'location', organizationId: org, locationId: loc });

  beforeAll(async () => {
    t = await startTestServer({ transport: 'mqtt' });
    admin = issueToken(t.server.store, t.accounts.admin.userId).token;
    edit = issueToken(t.server.store, t.accounts.edit.userId).token;
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
  }, 30_000);
  afterAll(async () => {
    for (const c of clients) await c.endAsync(true).catch(() => undefined);
    await t?.close();
  });

  it('deleting a user disconnects their broker client at once and refuses its credentials afterwards', async () => {
    const victim = makeVictim(t, 'edit');
    const config = await settingsOf(victim.tokens[0]!);
    const { client, live } = await connect(config);
    expect(await subscribe(client, editFilter())).toEqual([1]);
    expect((await t.api(restPaths.user(org, victim.user.id), { method: 'DELETE', token: admin })).status).toBe(204);
    await until(() => live.closed, 'the broker to drop the deleted user');
    const seen = live.messages;
    await touchLocation(t, edit, 'Desk after mqtt delete');
    await settle();
    expect(live.messages).toBe(seen);
    await expect(connect(config)).rejects.toThrow();
  });

  it('taking the edit permission away drops the client on the edit topics; new credentials are refused them', async () => {
    const victim = makeVictim(t, 'edit');
    const { client, live } = await connect(await settingsOf(victim.tokens[0]!));
    expect(await subscribe(client, editFilter())).toEqual([1]);
    expect((await t.api(restPaths.user(org, victim.user.id), { method: 'PATCH', token: admin, json: { permissions: PERMISSIONS.regular } })).status).toBe(200);
    await until(() => live.closed, 'the broker to drop the demoted user');
    expect((await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${victim.tokens[0]!}` } })).status).toBe(401);
    const fresh = issueToken(t.server.store, victim.user.id).token;
    const again = await connect(await settingsOf(fresh));
    expect(await subscribe(again.client, editFilter())).toEqual([NOT_AUTHORIZED]);
    expect(await subscribe(again.client, publicFilter())).toEqual([1]);
  });

  it('changing one’s password drops the other sessions’ clients and keeps the current one', async () => {
    const victim = makeVictim(t, 'regular', 2);
    const [current, other] = victim.tokens as [string, string];
    const mine = await connect(await settingsOf(current));
    const theirs = await connect(await settingsOf(other));
    expect(await subscribe(mine.client, publicFilter())).toEqual([1]);
    expect(await subscribe(theirs.client, publicFilter())).toEqual([1]);
    const res = await t.api(restPaths.userPassword(org, victim.user.id), { method: 'POST', token: current, json: { old_password: victim.password, password: 'new-mqtt-password' } });
    expect(res.status).toBe(204);
    await until(() => theirs.live.closed, 'the other session’s client to be dropped');
    const before = mine.live.messages;
    await touchLocation(t, edit, 'Desk after mqtt password');
    await until(() => mine.live.messages > before, 'the current session to keep receiving');
    expect(mine.live.closed).toBe(false);
  });

  it('signing out drops that session’s client', async () => {
    const victim = makeVictim(t, 'regular');
    const { live } = await connect(await settingsOf(victim.tokens[0]!));
    expect((await t.api(restPaths.logout(), { method: 'POST', token: victim.tokens[0]! })).status).toBe(204);
    await until(() => live.closed, 'the signed-out client to be dropped');
  });

  it('binds each credential to its client id, so another user cannot kick a client off by reusing its id', async () => {
    const victim = makeVictim(t, 'regular');
    const attacker = makeVictim(t, 'regular');
    const victimConfig = await settingsOf(victim.tokens[0]!);
    const target = await connect(victimConfig);
    expect(await subscribe(target.client, publicFilter())).toEqual([1]);
    const attackerConfig = await settingsOf(attacker.tokens[0]!);
    await expect(connect(attackerConfig, victimConfig.client_id)).rejects.toThrow(/Not authorized|Bad User Name or Password|135|134/i);
    await expect(connect(attackerConfig, `mqttjs_${Math.random().toString(16).slice(2, 10)}`)).rejects.toThrow();
    await settle();
    expect(target.live.closed).toBe(false);
    const before = target.live.messages;
    await touchLocation(t, edit, 'Desk after takeover attempt');
    await until(() => target.live.messages > before, 'the victim to keep receiving');
    const own = await connect(attackerConfig);
    expect(own.client.connected).toBe(true);
  });

  it('gives every connection of one session its own client id, so two tabs do not kick each other', async () => {
    const victim = makeVictim(t, 'regular');
    const first = await settingsOf(victim.tokens[0]!);
    const second = await settingsOf(victim.tokens[0]!);
    expect(first.client_id).not.toBe(second.client_id);
    const a = await connect(first);
    const b = await connect(second);
    await settle();
    expect([a.live.closed, b.live.closed]).toEqual([false, false]);
  });
});
