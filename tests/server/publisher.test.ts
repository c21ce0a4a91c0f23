import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PUSHER_MESSAGE_LIMIT_BYTES } from '../../src/shared/constants.js';
import type { LiveChange, StreamScope } from '../../src/shared/protocol.js';
import { decodePacket, encodeChanges, encodePacket } from '../../server/live/packetCodec.js';
import { createPublisher } from '../../server/live/publisher.js';

const scope: StreamScope = { kind: 'location', organizationId: '1', locationId: '2' };
const change = (i: number): LiveChange => ({ collection: 'measurements', kind: 'created', id: String(i), data: { sensor_id: String(i), type: 'co2', value: { time: i * 7919, valid_for: 1000 + i, value: Math.sin(i) } } });

describe('packetCodec', () => {
  describe('encodePacket', () => {
    it('is base64 of zlib-deflated JSON that decodes back to the packet', () => {
      const packet = { stream_id: 'abc', stream_sequence: 3, changes: [change(1)] };
      const payload = encodePacket(packet);
      expect(payload).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(Buffer.from(payload, 'base64')[0]).toBe(0x78);
      expect(decodePacket(payload)).toEqual(packet);
    });
  });
  describe('encodeChanges', () => {
    it('splits a large batch into messages below 10 KB with consecutive sequences, keeping order', () => {
      const changes = Array.from({ length: 4000 }, (_, i) => change(i));
      const payloads = encodeChanges('s', 11, changes);
      expect(payloads.length).toBeGreaterThan(1);
      expect(payloads.every((p) => p.length < PUSHER_MESSAGE_LIMIT_BYTES)).toBe(true);
      const packets = payloads.map(decodePacket);
      expect(packets.map((p) => p.stream_sequence)).toEqual(packets.map((_, i) => 11 + i));
      expect(packets.flatMap((p) => p.changes)).toEqual(changes);
    });
    it('splits a single change too large for one message over frames below 10 KB, one sequence each', () => {
      const big: LiveChange = { collection: 'assets', kind: 'modified', id: '1', data: { blob: Array.from({ length: 20_000 }, (_, i) => (i * 2654435761) % 1e9).join(',') } };
      const payloads = encodeChanges('s', 1, [big]);
      expect(payloads.length).toBeGreaterThan(1);
      const frames = payloads.map((p) => decodePacket(p));
      for (const p of payloads) expect(p.length).toBeLessThan(PUSHER_MESSAGE_LIMIT_BYTES);
      expect(frames.map((f) => [f.stream_sequence, f.frame?.index, f.frame?.count, f.changes.length]))
        .toEqual(frames.map((_, i) => [1 + i, i, payloads.length, 0]));
      const joined = frames.map((f) => f.frame!.data).join('');
      expect(JSON.parse(inflateSync(Buffer.from(joined, 'base64')).toString('utf8'))).toEqual([big]);
    });
  });
});

describe('publisher', () => {
  describe('publish', () => {
    it('starts each stream at sequence 0 and advances it once per message, synchronously', () => {
      const publisher = createPublisher();
      expect(publisher.position(scope).stream_sequence).toBe(0);
      publisher.publish(scope, [change(1)]);
      expect(publisher.position(scope).stream_sequence).toBe(1);
      const payloads = publisher.publish(scope, Array.from({ length: 4000 }, (_, i) => change(i)));
      expect(publisher.position(scope).stream_sequence).toBe(1 + payloads.length);
      expect(publisher.position({ kind: 'user', userId: '9' }).stream_sequence).toBe(0);
    });
    it('gives every scope and every process its own random stream id', () => {
      const a = createPublisher();
      const b = createPublisher();
      expect(a.position(scope).stream_id).not.toBe(a.position({ kind: 'organization', organizationId: '1' }).stream_id);
      expect(a.position(scope).stream_id).not.toBe(b.position(scope).stream_id);
      expect(a.position(scope).stream_id).toBe(a.position({ ...scope }).stream_id);
    });
    it('hands messages to the sink in sequence order even when a send is slow', async () => {
      const seen: number[] = [];
      const publisher = createPublisher({
        async send(_scope, payloads) {
          const first = decodePacket(payloads[0]!).stream_sequence;
          await new Promise((r) => setTimeout(r, first === 1 ? 30 : 0));
          seen.push(...payloads.map((p) => decodePacket(p).stream_sequence));
        },
      });
      publisher.publish(scope, [change(1)]);
      publisher.publish(scope, [change(2)]);
      publisher.publish(scope, [change(3)]);
      await publisher.flush();
      expect(seen).toEqual([1, 2, 3]);
    });
    it('keeps sending after a sink failure and records the error', async () => {
      let calls = 0;
      const publisher = createPublisher({ async send() { calls += 1; if (calls === 1) throw new Error('broker down'); } });
      publisher.publish(scope, [change(1)]);
      publisher.publish(scope, [change(2)]);
      await publisher.flush();
      expect(calls).toBe(2);
      expect(publisher.errors.map((e) => e.message)).toEqual(['broker down']);
    });
    it('publishes nothing and keeps its position while muted', () => {
      const publisher = createPublisher();
      publisher.setMuted(true);
      expect(publisher.publish(scope, [change(1)])).toEqual([]);
      publisher.setMuted(false);
      expect(publisher.position(scope).stream_sequence).toBe(0);
    });
  });
});
