import { describe, expect, it } from 'vitest';
import { deflate } from 'pako';
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

  describe('base64ToBytes', () => {
    it('matches Node Buffer decoding', () => {
      const bytes = new Uint8Array(256).map((_, i) => i);
      expect(base64ToBytes(Buffer.from(bytes).toString('base64'))).toEqual(bytes);
    });
  });
});
