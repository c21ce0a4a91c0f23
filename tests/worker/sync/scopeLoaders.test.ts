import { describe, expect, it } from 'vitest';
import { createRestClient } from '../../../src/worker/rest/restClient.js';
import { scopeLoaders, UnexpectedAnswerError } from '../../../src/worker/sync/scopeLoaders.js';
import type { StreamScope } from '../../../src/shared/protocol.js';

// Issue 11 §2: an initial load answered with something that is not what the
// load returns — an HTML page with 200, another content type, an object
// where a list belongs, no stream position — is a failed load, never an
// empty one (an empty initial load deletes everything, spec §4).

const HOST = 'http://api.test';
const POSITION = { 'x-stream-id': 's1', 'x-stream-sequence': '4' };

function loaderFor(scope: StreamScope, collection: string, reply: () => Response) {
  const fetch = (async () => reply()) as typeof globalThis.fetch;
  const rest = createRestClient({ host: HOST, fetch, token: () => 't' });
  return scopeLoaders(rest, scope, () => undefined).find((l) => l.collection === collection)!;
}

const LOC: StreamScope = { kind: 'location', organizationId: '1', locationId: '10' };
const ORG: StreamScope = { kind: 'organization', organizationId: '1' };

describe('scopeLoaders', () => {
  it('loads a JSON list with its stream position', async () => {
    const load = loaderFor(LOC, 'assets', () => new Response('[{"id":"a1"}]', { headers: { 'content-type': 'application/json', ...POSITION } }));
    await expect(load.load()).resolves.toEqual({ items: [{ id: 'a1' }], position: { stream_id: 's1', stream_sequence: 4 } });
  });

  it.each([
    ['an HTML page answered 200', '<html><body>Portal login</body></html>', { 'content-type': 'text/html', ...POSITION }, 'a JSON list'],
    ['a list in another content type', '[{"id":"a1"}]', { 'content-type': 'text/plain', ...POSITION }, 'a JSON list'],
    ['an object where a list belongs', '{"id":"a1"}', { 'content-type': 'application/json', ...POSITION }, 'a JSON list'],
    ['JSON that does not parse', '[{"id":', { 'content-type': 'application/json', ...POSITION }, 'a JSON list'],
    ['a list without stream position headers', '[{"id":"a1"}]', { 'content-type': 'application/json' }, 'x-stream-id and x-stream-sequence headers'],
    ['a list with a malformed sequence', '[]', { 'content-type': 'application/json', 'x-stream-id': 's1', 'x-stream-sequence': '-1' }, 'x-stream-id and x-stream-sequence headers'],
  ])('fails a load answered with %s', async (_, body, headers, expected) => {
    const load = loaderFor(LOC, 'sensors', () => new Response(body, { headers }));
    const error = await load.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect((error as Error).message).toBe(`Unexpected answer to /organizations/1/locations/10/sensors: expected ${expected}`);
  });

  it('fails an organization answered with a list, or without a position', async () => {
    const list = loaderFor(ORG, 'organizations', () => new Response('[{"id":"1"}]', { headers: { 'content-type': 'application/json', ...POSITION } }));
    await expect(list.load()).rejects.toThrow('Unexpected answer to /organizations/1: expected an organization');
    const bare = loaderFor(ORG, 'organizations', () => new Response('{"id":"1","locations":["10"]}', { headers: { 'content-type': 'application/json' } }));
    await expect(bare.load()).rejects.toThrow('expected x-stream-id and x-stream-sequence headers');
  });

  it('learns location ids only from ids, skipping what is not one', async () => {
    const seen: string[][] = [];
    const fetch = (async () => new Response('[{"id":10},{"id":{"$gt":1}},{"name":"x"},null,"11",{"id":"12"}]', { headers: { 'content-type': 'application/json', ...POSITION } })) as typeof globalThis.fetch;
    const rest = createRestClient({ host: HOST, fetch, token: () => 't' });
    const load = scopeLoaders(rest, ORG, (ids) => seen.push(ids)).find((l) => l.collection === 'locations')!;
    await load.load();
    expect(seen).toEqual([['10', '11', '12']]);
  });
});
