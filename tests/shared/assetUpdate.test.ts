import { describe, expect, it } from 'vitest';
import { ASSET_UPDATE_EXCLUDED_FIELDS, assetUpdatePayload } from '../../src/shared/assetUpdate.js';

describe('assetUpdate', () => {
  describe('assetUpdatePayload', () => {
    it('leaves out version, creation_timestamp, update_timestamp, owner_id, id and uuid', () => {
      expect(ASSET_UPDATE_EXCLUDED_FIELDS).toEqual(['version', 'creation_timestamp', 'update_timestamp', 'owner_id', 'id', 'uuid']);
      const payload = assetUpdatePayload({
        id: '1', uuid: 'u', version: 3, creation_timestamp: 1, update_timestamp: 2, owner_id: 9,
        name: 'Desk 1', coords: [1, 2, 0], speech_bubble: 'hi',
      });
      expect(payload).toEqual({ name: 'Desk 1', coords: [1, 2, 0], speech_bubble: 'hi' });
    });

    it('leaves out client-derived fields and does not touch the asset', () => {
      const asset = { id: '1', name: 'Room', shape: { center: [0, 0], width: 1, depth: 1, area: 1, size: 1 }, local: false };
      expect(assetUpdatePayload(asset)).toEqual({ name: 'Room' });
      expect(asset.id).toBe('1');
    });
  });
});
