// Issue 12 §4 — live delivery never burns a sequence number. An edit user
// creates and rewrites 60 KB assets (far above Pusher's 10 KB message limit)
// while the engine's real session follows the location as a regular user,
// over our Pusher endpoint and over Mosquitto: the change travels in frames
// below the limit, the session reassembles it, sees no gap and never
// reconnects, and its copy equals the server's.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/shared/messages.js';
import { PUSHER_MESSAGE_LIMIT_BYTES, TIME_SYNC_INTERVAL_MS } from '../../src/shared/constants.js';
import { scopeKey, type StreamScope } from '../../src/shared/protocol.js';
import { restPaths, type WireAsset } from '../../src/shared/rest.js';
import type { Clock } from '../../src/worker/ports.js';
import { createScheduler } from '../../src/worker/scheduler.js';
import { createSession } from '../../src/worker/session/createSession.js';
import { DEFAULT_SESSION_TIMEOUTS } from '../../src/worker/session/timeouts.js';
import type { Session } from '../../src/worker/session/types.js';
import { createCorrectedClock } from '../../src/worker/sync/timeSync.js';
import { createTransport } from '../../src/worker/transports/index.js';
import { decodePacket } from '../../server/live/packetCodec.js';
import { issueToken } from '../../server/auth.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createRecordingLogger } from '../worker/sync/fakes.js';
import { createMirror } from './support/mirror.js';
import { until } from './support/attack.js';

/** the real clock, as the worker entry gives the engine (kept here so the test does not depend on where the worker keeps its own) */
const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** 60 KB of text that does not compress: about 45 KB once deflated, four or more messages' worth */
const blob = () => randomBytes(45_000).toString('base64');

describe.each(['pusher', 'mqtt'] as const)('security: a change larger than one message, over %s', (transport) => {
  let t: TestServer;
  let session: Session;
  let edit: string;
  let org: string;
  let loc: string;
  let floorId: string;
  const mirror = createMirror();
  const log = createRecordingLogger();
  const errors: unknown[] = [];
  const corrected = createCorrectedClock(systemClock);
  const scheduler = createScheduler(systemClock, () => corrected.now());
  /** every message the server sent on the location's public stream */
  const sent: string[] = [];

  const serverAsset = async (id: string) => (await (await t.api(restPaths.asset(org, loc, id), { token: edit })).json()) as WireAsset;

  beforeAll(async () => {
    t = await startTestServer({ transport });
    edit = issueToken(t.server.store, t.accounts.edit.userId).token;
    org = t.accounts.regular.organizationId;
    loc = t.server.seed.locationIds[0]!;
    floorId = [...t.server.store.assets.values()].find((a) => a.location_id === loc && a.type === 'floor' && !a.hidden && !a.unpublished)!.id;
    const publicScope: StreamScope = { kind: 'location', organizationId: org, locationId: loc };
    t.server.publisher.onPublish((scope, payloads) => { if (scopeKey(scope) === scopeKey(publicScope)) sent.push(...payloads); });
    session = createSession({
      host: t.url, clock: systemClock, corrected, scheduler, fetch: globalThis.fetch, transportFactory: createTransport,
      logger: log.logger,
      timeouts: { ...DEFAULT_SESSION_TIMEOUTS, timeSyncIntervalMs: TIME_SYNC_INTERVAL_MS },
      port: { sink: mirror.sink, settings() {}, enterOrganization() {}, enterLocation() {}, endSession() {} },
      onChange: () => undefined,
      onError: (error) => errors.push(error),
    });
    await session.signIn(t.accounts.regular.email, t.accounts.regular.password);
    await until(() => session.state().phase.name === 'live' && session.state().ctx.locationId === loc, 'the session to follow the location live');
  }, 60_000);

  afterAll(async () => {
    session?.dispose();
    scheduler.clear();
    await t?.close();
  });

  it('delivers a 60 KB asset in frames below 10 KB with no gap, no reconnect and nothing dropped', async () => {
    const from = sent.length;
    const res = await t.api(restPaths.assets(org, loc), {
      method: 'POST', token: edit,
      json: { type: 'shape', subtype: 'desk', name: 'Desk with a 60 KB note', parent_id: floorId, x: 3, y: 4, categories: { shape: 'desk' }, config: { note: blob() } },
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as WireAsset;
    expect(JSON.stringify(created).length).toBeGreaterThan(60_000);

    await until(() => mirror.get('assets').has(created.id), 'the asset to arrive');
    expect(mirror.get('assets').get(created.id)).toEqual(await serverAsset(created.id));

    // what went over the wire: several messages, each below the limit, one sequence each
    await t.server.publisher.flush();
    const messages = sent.slice(from);
    expect(messages.length).toBeGreaterThanOrEqual(4);
    for (const m of messages) expect(m.length).toBeLessThan(PUSHER_MESSAGE_LIMIT_BYTES);
    const packets = messages.map((m) => decodePacket(m));
    expect(packets.map((p) => p.stream_sequence)).toEqual(packets.map((_, i) => packets[0]!.stream_sequence + i));
    expect(packets.every((p) => p.frame !== undefined)).toBe(true);

    expect(session.state().phase.name).toBe('live');
    expect(log.messages('warn').filter((m) => m === MSG.RECONNECTING_STREAM_INVALID || m === MSG.UNINITIALIZED_STREAM || m.startsWith('Dropped'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps up when the change is repeated, interleaved with small ones, as an edit user could do on purpose', async () => {
    const desk = [...mirror.get('assets').values()].find((a) => a.name === 'Desk with a 60 KB note')!;
    const small = [...t.server.store.assets.values()].find((a) => a.location_id === loc && a.subtype === 'desk' && !a.unpublished && a.id !== desk.id)!;
    for (let i = 0; i < 3; i += 1) {
      expect((await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: edit, json: { config: { note: blob(), round: i } } })).status).toBe(200);
      expect((await t.api(restPaths.asset(org, loc, small.id), { method: 'PATCH', token: edit, json: { name: `Small desk ${i}` } })).status).toBe(200);
    }
    await until(async () => {
      const mine = mirror.get('assets').get(desk.id) as WireAsset | undefined;
      return (mine?.config as { round?: number } | undefined)?.round === 2 && mirror.get('assets').get(small.id)?.name === 'Small desk 2';
    }, 'the last rewrite to arrive');
    expect(mirror.get('assets').get(desk.id)).toEqual(await serverAsset(desk.id));
    expect(session.state().phase.name).toBe('live');
    expect(log.messages('warn').filter((m) => m === MSG.RECONNECTING_STREAM_INVALID || m.startsWith('Dropped'))).toEqual([]);
  });
});
