import { describe, expect, it } from 'vitest';
import { pusherChannel, type LiveChange, type StreamScope } from '../../src/shared/protocol.js';
import { createPublisher } from '../../server/live/publisher.js';
import { decodePacket } from '../../server/live/packetCodec.js';

const LOC = { kind: 'location', organizationId: '1', locationId: '7' } as const satisfies StreamScope;
const EDIT = { ...LOC, audience: 'edit' } as const satisfies StreamScope;
const modified = (id: string, unpublished: boolean): LiveChange => ({ collection: 'assets', kind: 'modified', id, data: { id, unpublished } });

describe('publisher', () => {
  describe('publishAudiences', () => {
    it('publishes the filtered changes on the public stream and the complete ones on the edit stream, each with its own sequence', async () => {
      const sent: Array<{ scope: StreamScope; payloads: string[] }> = [];
      const publisher = createPublisher({ async send(scope, payloads) { sent.push({ scope, payloads }); } });
      publisher.publishAudiences(LOC, [modified('a', false)]);
      publisher.publishAudiences(LOC, [{ collection: 'assets', kind: 'deleted', id: 'a' }], [modified('a', true)]);
      publisher.publishAudiences(LOC, [], [modified('a', true)]);
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

    it('feeds an organization\'s shared and edit streams the same way', async () => {
      const ORG = { kind: 'organization', organizationId: '1' } as const satisfies StreamScope;
      const sent: Array<{ scope: StreamScope; payloads: string[] }> = [];
      const publisher = createPublisher({ async send(scope, payloads) { sent.push({ scope, payloads }); } });
      const user = (floor: string | null): LiveChange => ({ collection: 'users', kind: 'modified', id: '5', data: { id: '5', location: floor && { floor_id: floor } } });
      publisher.publishAudiences(ORG, [user(null)], [user('9')]);
      await publisher.flush();
      expect(sent.map((m) => pusherChannel(m.scope))).toEqual(['private-eb-changes-1', 'private-eb-edit-1']);
      expect(sent.map((m) => decodePacket(m.payloads[0]!).changes[0]!.data)).toEqual([
        { id: '5', location: null }, { id: '5', location: { floor_id: '9' } },
      ]);
      expect(publisher.position({ ...ORG, audience: 'edit' }).stream_id).not.toBe(publisher.position(ORG).stream_id);
    });

    it('refuses a user scope', () => {
      const publisher = createPublisher();
      expect(() => publisher.publishAudiences({ kind: 'user', userId: '1' }, [])).toThrow(TypeError);
    });
  });
});
