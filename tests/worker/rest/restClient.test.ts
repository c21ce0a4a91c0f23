import { describe, expect, it } from 'vitest';
import { createRestClient, assetUpdatePayload } from '../../../src/worker/rest/restClient.js';
import { HttpError } from '../../../src/worker/rest/httpError.js';
import { MEASUREMENT_PAGE_LIMIT } from '../../../src/shared/constants.js';
import { createFakeFetch } from '../sync/fakes.js';

function client(token: string | null = 'tok') {
  const api = createFakeFetch();
  const rest = createRestClient({ host: 'http://api.test/', fetch: api.fetch, token: () => token });
  return { api, rest };
}

describe('restClient', () => {
  describe('requests', () => {
    it('uses the base {host}/v{version} and v2 for settings and measurement ingest', async () => {
      const api = createFakeFetch();
      const rest = createRestClient({ host: 'http://api.test', version: 3, fetch: api.fetch, token: () => null });
      api.on('GET', '/v3/organizations', () => ({ body: [] }));
      api.on('GET', '/v2/settings', () => ({ body: { user: { id: '1' } } }));
      api.on('POST', '/v2/measurements', () => ({ body: { accepted: 1 } }));
      await rest.organizations();
      await rest.settings();
      await rest.ingestMeasurements({ measurements: [{ sensor_id: '1', value: { time: 1, valid_for: 1 } }] });
      expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v3/organizations', 'GET /v2/settings', 'POST /v2/measurements']);
      expect(rest.baseUrl).toBe('http://api.test/v3');
    });

    it('sends a bearer header only when a token exists', async () => {
      const withToken = client('abc');
      withToken.api.on('GET', '/v1/organizations', () => ({ body: [] }));
      await withToken.rest.organizations();
      expect(withToken.api.calls[0]!.headers.authorization).toBe('Bearer abc');
      const without = client(null);
      without.api.on('GET', '/v1/organizations', () => ({ body: [] }));
      await without.rest.organizations();
      expect(without.api.calls[0]!.headers.authorization).toBeUndefined();
    });

    it('includes credentials for /v2/settings only', async () => {
      const { api, rest } = client();
      api.on('GET', '/v2/settings', () => ({ body: {} }));
      api.on('GET', '/v1/notifications', () => ({ body: [] }));
      await rest.settings();
      await rest.notifications();
      expect(api.calls[0]!.init.credentials).toBe('include');
      expect(api.calls[1]!.init.credentials).toBeUndefined();
    });

    it('posts form bodies for login, openid_login, signup and recover_password', async () => {
      const { api, rest } = client(null);
      for (const path of ['/v1/login', '/v1/openid_login', '/v1/signup', '/v1/recover_password']) api.on('POST', path, () => ({ body: {} }));
      await rest.login('a@b.c', 'p w&d');
      await rest.openIdLogin('jwt.token');
      await rest.signup('a@b.c');
      await rest.recoverPassword('a@b.c');
      expect(api.calls.map((c) => c.headers['content-type'])).toEqual(Array(4).fill('application/x-www-form-urlencoded'));
      expect(api.calls.map((c) => c.body)).toEqual(['email=a%40b.c&password=p+w%26d', 'id_token=jwt.token', 'email=a%40b.c', 'email=a%40b.c']);
    });

    it('asks auth_uri with the email as query', async () => {
      const { api, rest } = client(null);
      api.on('GET', '/v1/auth_uri', (req) => ({ body: { uri: req.query.get('email') } }));
      await expect(rest.authUri('a+b@c.d')).resolves.toEqual({ uri: 'a+b@c.d' });
    });

    it('sends the query parameters the spec names', async () => {
      const { api, rest } = client();
      api.on('GET', '/v1/organizations/1/locations/2/assets', () => ({ body: [] }));
      api.on('GET', '/v1/organizations/1/locations/2/sensors', () => ({ body: [] }));
      api.on('GET', '/v1/external_objects', () => ({ body: [] }));
      api.on('GET', '/v1/organizations/1/locations/2/measurements/co2', () => ({ body: { columns: [], rows: [], has_more_results: false } }));
      await rest.assets('1', '2', { type: 'room,zone', filter_expired: true });
      await rest.sensors('1', '2', { include_inactive: true });
      await rest.externalObjects({ location_id: '2', organization_id: '1' });
      await rest.measurements('1', '2', 'co2', { start: 5, limit: 20000, end: 9, sensor_id: ['s1', 's2'], ignore_previous_validity: true });
      expect(api.calls.map((c) => c.query.toString())).toEqual([
        'type=room%2Czone&filter_expired=true',
        'include_inactive=true',
        'location_id=2&organization_id=1',
        'start=5&limit=20000&end=9&sensor_id=s1&sensor_id=s2&ignore_previous_validity=true',
      ]);
    });

    it('puts images as a blob with their content type', async () => {
      const { api, rest } = client();
      api.on('PUT', '/v1/organizations/1/locations/2/assets/3/images/plan.png', () => ({ body: { name: 'plan.png' } }));
      const image = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
      await rest.putAssetImage('1', '2', '3', 'plan.png', image);
      expect(api.calls[0]!.headers['content-type']).toBe('image/png');
      expect(api.calls[0]!.body).toBe(image);
    });

    it('strips the fields spec §3 excludes from an asset update', async () => {
      const { api, rest } = client();
      api.on('PATCH', '/v1/organizations/1/locations/2/assets/3', (req) => ({ body: JSON.parse(String(req.body)) }));
      const sent = await rest.updateAsset('1', '2', '3', {
        id: '3', uuid: 'u', version: 2, creation_timestamp: 1, update_timestamp: 2, owner_id: '9', name: 'Desk', x: 4,
      });
      expect(sent).toEqual({ name: 'Desk', x: 4 });
      expect(assetUpdatePayload({ location_id: '2', y: 1 })).toEqual({ y: 1 });
    });
  });

  describe('errors', () => {
    it('throws a non-OK response as an HttpError with status and parsed body', async () => {
      const { api, rest } = client();
      api.on('GET', '/v1/organizations/5', () => ({ status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'not yours' } }));
      const error = await rest.organization('5').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ name: 'HttpError', status: 403, body: { message: 'not yours' }, response: { path: '/organizations/5' } });
      expect((error as HttpError).message).toBe('403 Forbidden: not yours');
    });

    it('lets a network failure through as it is', async () => {
      const { api, rest } = client();
      api.on('GET', '/v1/current_time', () => { throw new TypeError('fetch failed'); });
      await expect(rest.currentTime()).rejects.toThrow(TypeError);
    });
  });

  describe('load', () => {
    it('reads the stream position from x-stream-id and x-stream-sequence', async () => {
      const { api, rest } = client();
      api.on('GET', '/v1/notifications', () => ({ body: [], headers: { 'x-stream-id': 'abc', 'x-stream-sequence': '42' } }));
      api.on('GET', '/v1/organizations', () => ({ body: [] }));
      await expect(rest.load('/notifications')).resolves.toMatchObject({ position: { stream_id: 'abc', stream_sequence: 42 } });
      await expect(rest.load('/organizations')).resolves.toMatchObject({ position: null });
    });
  });

  describe('measurementsAll', () => {
    it('pages with limit 20000, advancing start past the last time until has_more_results is false, reporting progress', async () => {
      const { api, rest } = client();
      const queries: string[] = [];
      api.on('GET', '/v1/organizations/1/locations/2/measurements/occupancy', (req) => {
        queries.push(req.query.toString());
        const start = Number(req.query.get('start'));
        const pages: Record<number, { rows: unknown[][]; more: boolean }> = {
          100: { rows: [[100, 's1', 1, 1, null], [150, 's1', 1, 0, null]], more: true },
          151: { rows: [[151, 's1', 1, 1, null], [170, 's2', 1, 1, null]], more: true },
          171: { rows: [[200, 's2', 1, 0, null]], more: false },
        };
        const page = pages[start]!;
        return { body: { columns: ['time', 'sensor_id', 'valid_for', 'value', 'battery_level'], rows: page.rows, has_more_results: page.more } };
      });
      const progress: unknown[] = [];
      const result = await rest.measurementsAll('1', '2', 'occupancy', { start: 100, end: 300, sensorIds: ['s1', 's2'] }, (p) => progress.push(p));
      expect(queries).toEqual([
        `start=100&limit=${MEASUREMENT_PAGE_LIMIT}&end=300&sensor_id=s1&sensor_id=s2`,
        'start=151&limit=20000&end=300&sensor_id=s1&sensor_id=s2&ignore_previous_validity=true',
        'start=171&limit=20000&end=300&sensor_id=s1&sensor_id=s2&ignore_previous_validity=true',
      ]);
      expect(result.rows.map((r) => r[0])).toEqual([100, 150, 151, 170, 200]);
      expect(result).toMatchObject({ pages: 3, has_more_results: false });
      expect(progress).toEqual([
        { what: 'measurements:occupancy', done: 2, total: null },
        { what: 'measurements:occupancy', done: 4, total: null },
        { what: 'measurements:occupancy', done: 5, total: 5 },
      ]);
    });
  });
});
