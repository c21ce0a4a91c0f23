import { describe, expect, it } from 'vitest';
import { deflate, gzip } from 'pako';
import { base64ToBytes, decodePacket } from '../../../src/worker/decode.js';
import { createRecordingLogger, encode } from './fakes.js';

describe('decode', () => {
  describe('decodePacket', () => {
    it('decodes base64 of deflated JSON into a live packet', () => {
      const { logger } = createRecordingLogger();
      const packet = { stream_id: 's', stream_sequence: 3, changes: [{ collection: 'assets', kind: 'deleted', id: '9' }] };
      expect(decodePacket(encode(packet), logger)).toEqual(packet);
    });

    it('keeps non-ASCII text intact', () => {
      const { logger } = createRecordingLogger();
      const packet = { stream_id: 's', stream_sequence: 1, changes: [{ collection: 'assets', kind: 'modified', id: '1', data: { name: 'Sörens Büro ☕' } }] };
      expect(decodePacket(encode(packet), logger)).toEqual(packet);
    });

    it('drops bad base64, bad zlib, bad JSON and a non-string with a warning each', () => {
      const { logger, messages } = createRecordingLogger();
      expect(decodePacket('%%%', logger)).toBeNull();
      expect(decodePacket(Buffer.from('not zlib').toString('base64'), logger)).toBeNull();
      expect(decodePacket(Buffer.from(deflate('{nope')).toString('base64'), logger)).toBeNull();
      expect(decodePacket({ payload: 'x' }, logger)).toBeNull();
      expect(messages('warn')).toEqual([
        'Dropped live payload: cannot decode', 'Dropped live payload: cannot decode',
        'Dropped live payload: cannot decode', 'Dropped live payload: not a base64 string',
      ]);
    });

    it('drops one malformed change but keeps the packet, so the stream has no gap', () => {
      const { logger, messages } = createRecordingLogger();
      const packet = decodePacket(encode({ stream_id: 's', stream_sequence: 2, changes: [{ collection: 'nope', kind: 'created', id: '1' }, { collection: 'assets', kind: 'created', id: 2 }] }), logger);
      expect(packet).toEqual({ stream_id: 's', stream_sequence: 2, changes: [{ collection: 'assets', kind: 'created', id: '2' }] });
      expect(messages('warn')).toHaveLength(1);
    });
  });

  describe('one inflater for every payload (issue 14)', () => {
    const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
    const packet = (sequence: number, changes: number) => ({
      stream_id: 's', stream_sequence: sequence,
      changes: Array.from({ length: changes }, (_, i) => ({ collection: 'assets', kind: 'deleted', id: `${sequence}-${i}-${'x'.repeat(i % 50)}` })),
    });

    it('decodes payloads one after another, small and large, zlib and gzip, whatever came before', () => {
      const { logger, messages } = createRecordingLogger();
      // the second inflates to far more than the first buffers hold (~150 KB of JSON)
      const packets = [packet(1, 3), packet(2, 3_000), packet(3, 1), packet(4, 40)];
      for (const p of packets) expect(decodePacket(encode(p), logger)).toEqual(p);
      const zipped = packet(5, 200);
      expect(decodePacket(base64(gzip(JSON.stringify(zipped))), logger)).toEqual(zipped);
      expect(decodePacket(encode(packets[0]), logger)).toEqual(packets[0]);
      expect(messages('warn')).toEqual([]);
    });

    it('takes the next payload after one cut short or corrupt', () => {
      const { logger, messages } = createRecordingLogger();
      const whole = deflate(JSON.stringify(packet(1, 500)));
      expect(decodePacket(base64(whole.subarray(0, whole.length >> 1)), logger)).toBeNull();
      const corrupt = whole.slice();
      corrupt[corrupt.length >> 1] ^= 0xff;
      corrupt[(corrupt.length >> 1) + 1] ^= 0xff;
      expect(decodePacket(base64(corrupt), logger)).toBeNull();
      expect(messages('warn')).toEqual(['Dropped live payload: cannot decode', 'Dropped live payload: cannot decode']);
      expect(decodePacket(encode(packet(2, 20)), logger)).toEqual(packet(2, 20));
    });
  });

  describe('base64ToBytes', () => {
    it('matches Node Buffer decoding', () => {
      const bytes = new Uint8Array(256).map((_, i) => i);
      expect(base64ToBytes(Buffer.from(bytes).toString('base64'))).toEqual(bytes);
    });
  });
});
