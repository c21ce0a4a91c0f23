import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PUSHER_MESSAGE_LIMIT_BYTES } from '../../../src/shared/constants.js';
import type { LiveChange, LivePacket } from '../../../src/shared/protocol.js';
import { decodePacket, decodePayload } from '../../../src/worker/decode.js';
import { createFrameAssembler } from '../../../src/worker/sync/frames.js';
import { encodeChanges } from '../../../server/live/packetCodec.js';
import { createRecordingLogger } from './fakes.js';

/** A desk whose config carries `bytes` of incompressible text: far above one message once deflated. */
const bigChange = (id: string, bytes: number): LiveChange => ({
  collection: 'assets', kind: 'modified', id, data: { id, name: 'Big desk', config: { blob: randomBytes(bytes).toString('base64') } },
});
const small = (id: string): LiveChange => ({ collection: 'assets', kind: 'deleted', id });

function setup() {
  const log = createRecordingLogger();
  const frames = createFrameAssembler({ decode: (text) => decodePayload(text, log.logger), logger: log.logger });
  /** what the server sent, decoded as the worker decodes it and passed through the assembler */
  const receive = (payloads: string[]): LivePacket[] => payloads.map((p) => frames.accept(decodePacket(p, log.logger)!));
  return { log, frames, receive };
}

describe('frames', () => {
  describe('createFrameAssembler', () => {
    it('passes packets without frames through untouched', () => {
      const { receive, log } = setup();
      const payloads = encodeChanges('s1', 4, [small('1'), small('2')]);
      expect(receive(payloads)).toEqual([{ stream_id: 's1', stream_sequence: 4, changes: [small('1'), small('2')] }]);
      expect(log.messages('warn')).toEqual([]);
    });

    it('reassembles a 60 KB change sent in frames below 10 KB, giving it to the last frame and empty packets before', () => {
      const { receive, log } = setup();
      const big = bigChange('7', 45_000);
      const payloads = encodeChanges('s1', 10, [small('1'), big, small('2')]);
      expect(payloads.length).toBeGreaterThanOrEqual(6);
      for (const p of payloads) expect(p.length).toBeLessThan(PUSHER_MESSAGE_LIMIT_BYTES);
      const out = receive(payloads);
      // every message keeps its own sequence, so the stream validator sees no gap
      expect(out.map((p) => p.stream_sequence)).toEqual(payloads.map((_, i) => 10 + i));
      const withChanges = out.filter((p) => p.changes.length > 0);
      expect(withChanges.map((p) => p.changes)).toEqual([[small('1')], [big], [small('2')]]);
      expect(out.at(-2)!.changes).toEqual([big]);
      expect(out.slice(1, -2).every((p) => p.changes.length === 0 && p.frame === undefined)).toBe(true);
      expect(log.messages('warn')).toEqual([]);
    });

    it('drops a change whose frame went missing, with a warning, and still passes every sequence on', () => {
      const { receive, log } = setup();
      const payloads = encodeChanges('s1', 1, [bigChange('7', 40_000)]);
      const lost = [...payloads.slice(0, 1), ...payloads.slice(2)];
      const out = receive(lost);
      expect(out.map((p) => p.stream_sequence)).toEqual([1, ...payloads.slice(2).map((_, i) => 3 + i)]);
      expect(out.every((p) => p.changes.length === 0)).toBe(true);
      expect(log.messages('warn')).toEqual(['Dropped an incomplete framed change: a frame is missing or out of order']);
    });

    it('keeps the frames of different streams apart', () => {
      const { receive } = setup();
      const a = encodeChanges('a', 1, [bigChange('1', 30_000)]);
      const b = encodeChanges('b', 50, [bigChange('2', 30_000)]);
      const interleaved = a.flatMap((p, i) => (b[i] ? [p, b[i]] : [p])).concat(b.slice(a.length));
      const done = receive(interleaved).filter((p) => p.changes.length > 0);
      expect(done.map((p) => [p.stream_id, p.changes[0]!.id])).toEqual(expect.arrayContaining([['a', '1'], ['b', '2']]));
      expect(done).toHaveLength(2);
    });

    it('starts over when a new framed change begins before the last one ended', () => {
      const { receive, log } = setup();
      const first = encodeChanges('s1', 1, [bigChange('1', 30_000)]);
      const second = encodeChanges('s1', 1 + first.length - 1, [bigChange('2', 30_000)]);
      const out = receive([...first.slice(0, -1), ...second]);
      expect(out.filter((p) => p.changes.length > 0).map((p) => p.changes[0]!.id)).toEqual(['2']);
      expect(log.messages('warn')).toContain('Dropped an incomplete framed change: a new one started');
    });

    it('drops joined frames that do not decode to a list of changes', () => {
      const { frames, log } = setup();
      const frame = (index: number, data: string): LivePacket => ({ stream_id: 's', stream_sequence: 1 + index, changes: [], frame: { index, count: 2, data } });
      expect(frames.accept(frame(0, 'not-'))).toEqual({ stream_id: 's', stream_sequence: 1, changes: [] });
      expect(frames.accept(frame(1, 'base64!'))).toEqual({ stream_id: 's', stream_sequence: 2, changes: [] });
      expect(log.messages('warn')).toContain('Dropped a framed change: its frames do not decode to a list of changes');
    });
  });

  describe('decodePacket', () => {
    it('drops a packet whose frame is malformed, so the next one shows the gap', () => {
      const log = createRecordingLogger();
      const bad = encodeChanges('s', 1, [bigChange('1', 30_000)]).map((p) => decodePacket(p, log.logger)!)[0]!;
      const encode = (packet: unknown) => deflateSync(JSON.stringify(packet)).toString('base64');
      expect(decodePacket(encode({ ...bad, frame: { ...bad.frame, count: 1 } }), log.logger)).toBeNull();
      expect(decodePacket(encode({ ...bad, frame: { ...bad.frame, data: 42 } }), log.logger)).toBeNull();
      expect(decodePacket(encode(bad), log.logger)).toEqual(bad);
    });
  });
});
