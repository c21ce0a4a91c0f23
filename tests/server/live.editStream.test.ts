import { describe, expect, it } from 'vitest';
import type { LiveChange, StreamScope } from '../../src/shared/protocol.js';
import { createPublisher } from '../../server/live/publisher.js';
import { decodePacket } from '../../server/live/packetCodec.js';

const LOC = { kind: 'location', organizationId: '1', locationId: '7' } as const satisfies StreamScope;
const EDIT = { ...LOC, audience: 'edit' } as const satisfies StreamScope;
const modified = (id: string, unpublished: boolean): LiveChange => ({ collection: 'assets', kind: 'modified', id, data: { id, unpublished } });

describe('publisher', () => {
  describe('publishLocation', () => {
    it('publishes the filtered changes on the public stream and the complete ones on the edit stream, each with its own sequence', async () => {
      const sent: Array<{ scope: StreamScope; payloads: string[] }> = [];
      const publisher = createPublisher({ async send(scope, payloads) { sent.push({ scope, payloads }); } });
      publisher.publishLocation(LOC, [modified('a', false)]);
      publisher.publishLocation(LOC, [{ collection: 'assets', kind: 'deleted', id: 'a' }], [modified('a', true)]);
      publisher.publishLocation(LOC, [], [modified('a', true)]);
      await publisher.flush();
      expect(publisher.position(LOC).stream_sequence).toBe(2);
      expect(publisher.position(EDIT).stream_sequence).toBe(3);
      expect(publisher.position(EDIT).stream_id).not.toBe(publisher.position(LOC).stream_id);
      const edit = sent.filter((m) => m.scope.kind === 'location' && m.scope.audience === 'edit').flatMap((m) => m.payloads.map(decodePacket));
      expect(edit.map((p) => p.stream_sequence)).toEqual([1, 2, 3]);
      expect(edit.map((p) => (p.changes[0]!.data as { unpublished: boolean }).unpublished)).toEqual([false, true, true]);
      const pub = sent.filter((m) => m.scope.kind === 'location' && !m.scope.audience).flatMap((m) => m.payloads.map(decodePacket));
      expect(pub.map((p) => p.changes[0]!.kind)).toEqual(['modified', 'deleted']);
    });

    it('refuses a scope that is not a location', () => {
      const publisher = createPublisher();
      expect(() => publisher.publishLocation({ kind: 'user', userId: '1' }, [])).toThrow(TypeError);
    });
  });
});
