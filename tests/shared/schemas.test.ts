import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import * as accounts from '../../src/shared/schemas/accounts.js';
import * as assets from '../../src/shared/schemas/assets.js';
import * as live from '../../src/shared/schemas/live.js';
import * as organizations from '../../src/shared/schemas/organizations.js';
import * as people from '../../src/shared/schemas/people.js';
import * as sensors from '../../src/shared/schemas/sensors.js';

const modules = { accounts, assets, live, organizations, people, sensors };
const schemas = Object.entries(modules).flatMap(([file, mod]) =>
  Object.entries(mod).filter(([, value]) => typeof value === 'object' && value !== null).map(([name, schema]) => [`${file}.${name}`, schema] as const));

describe('schemas', () => {
  it('are plain JSON Schema that ajv compiles, even in strict mode', () => {
    expect(schemas.length).toBeGreaterThan(40);
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    for (const [name, schema] of schemas) expect(() => ajv.compile(schema as object), name).not.toThrow();
  });

  it('refuse a field a request body does not declare', () => {
    const ajv = new Ajv({ strict: false });
    expect(ajv.validate(assets.UpdateAssetRequest, { name: 'Desk 4' })).toBe(true);
    for (const field of ['version', 'creation_timestamp', 'update_timestamp', 'owner_id', 'id', 'uuid', 'location_id']) {
      expect(ajv.validate(assets.UpdateAssetRequest, { name: 'Desk 4', [field]: 1 }), field).toBe(false);
    }
    expect(ajv.validate(people.UpdateUserRequest, { avatar_url: 'https://x.example/a.png' })).toBe(false);
  });

  it('describe the live packet, its frames included', () => {
    const ajv = new Ajv({ strict: false });
    expect(ajv.validate(live.LivePacket, { stream_id: 's', stream_sequence: 1, changes: [{ collection: 'assets', kind: 'deleted', id: '4' }] })).toBe(true);
    expect(ajv.validate(live.LivePacket, { stream_id: 's', stream_sequence: 2, changes: [], frame: { index: 0, count: 3, data: 'eJz' } })).toBe(true);
    expect(ajv.validate(live.LivePacket, { stream_id: 's', stream_sequence: 0, changes: [] })).toBe(false);
    expect(ajv.validate(live.LivePacket, { stream_id: 's', stream_sequence: 2, changes: [], frame: { index: 0, count: 1, data: '' } })).toBe(false);
    expect(ajv.validate(live.LiveChange, { collection: 'secrets', kind: 'created', id: '1' })).toBe(false);
  });
});
