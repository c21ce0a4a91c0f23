import { describe, expect, it } from 'vitest';
import { normalizeLivePacket } from '../../../src/shared/normalize/livePacket.js';
import { WARN } from '../../../src/shared/normalize/warnings.js';
import { recordingContext } from '../helpers.js';

describe('normalizeLivePacket', () => {
  it('keeps stream_id, stream_sequence and valid changes', () => {
    const { ctx, warn } = recordingContext();
    const packet = { stream_id: 's1', stream_sequence: 3, changes: [{ collection: 'assets', kind: 'modified', id: 5, data: { id: 5 } }] };
    expect(normalizeLivePacket(packet, ctx)).toEqual({
      stream_id: 's1', stream_sequence: 3, changes: [{ collection: 'assets', kind: 'modified', id: '5', data: { id: 5 } }],
    });
    expect(warn).not.toHaveBeenCalled();
  });

  it('drops a bad change but keeps the packet, so the stream still advances', () => {
    const { ctx, messages } = recordingContext();
    const p = normalizeLivePacket({
      stream_id: 's1', stream_sequence: 4,
      changes: [{ collection: 'spaceships', kind: 'created', id: 1 }, { collection: 'assets', kind: 'exploded', id: 1 }, { collection: 'assets', kind: 'deleted' }, 'x', { collection: 'sensors', kind: 'deleted', id: 'a' }],
    }, ctx)!;
    expect(p.changes).toEqual([{ collection: 'sensors', kind: 'deleted', id: 'a' }]);
    expect(messages()).toHaveLength(4);
    expect(messages()[2]).toBe(WARN.changeMalformed('no id'));
  });

  it('drops a packet without a usable stream position', () => {
    const { ctx, messages } = recordingContext();
    expect(normalizeLivePacket({ stream_sequence: 1, changes: [] }, ctx)).toBeNull();
    expect(normalizeLivePacket({ stream_id: 's', stream_sequence: 0, changes: [] }, ctx)).toBeNull();
    expect(normalizeLivePacket({ stream_id: 's', stream_sequence: 1.5, changes: [] }, ctx)).toBeNull();
    expect(normalizeLivePacket({ stream_id: 's', stream_sequence: 1 }, ctx)).toBeNull();
    expect(normalizeLivePacket(null, ctx)).toBeNull();
    expect(messages()).toHaveLength(5);
  });
});
