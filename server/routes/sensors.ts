// Sensors of a location, their measurement history in pages of columns and
// rows (docs/protocol.md §4), and POST /v2/measurements which ingests
// readings and publishes them live.

import type { FastifyInstance } from 'fastify';
import { MEASUREMENT_PAGE_LIMIT } from '../../src/shared/constants.js';
import type {
  CreateSensorRequest, IngestMeasurementsRequest, IngestMeasurementsResponse, MeasurementsResponse, UpdateSensorRequest, WireSensor,
} from '../../src/shared/rest.js';
import { pageMeasurements } from '../store/measurementPages.js';
import type { RouteContext } from './context.js';
import { HttpError, canReachOrganization, currentUser, locationFor, locationScopeFor, notFound, requireRole, setStreamHeaders } from './guard.js';
import { idList, idParam, nullableString, objectSchema, params, timeSchema } from './schemas.js';

const sensorProps = {
  type: { type: 'string', minLength: 1, maxLength: 64 }, subtype: nullableString, legacy_id: nullableString,
  asset_id: { anyOf: [idParam, { type: 'null' }] }, unit: nullableString, virtual_sensor_id: { anyOf: [idParam, { type: 'null' }] },
  vendor_id: nullableString, active: { type: 'boolean' },
};

const measurementValueSchema = {
  type: 'object',
  required: ['time'],
  properties: {
    time: timeSchema, valid_for: { type: ['number', 'null'], minimum: 0 }, valid_to: timeSchema,
    battery_level: { type: ['number', 'null'] }, events: { type: ['array', 'null'], maxItems: 1_000 },
    x: { type: 'number' }, y: { type: 'number' }, floor_id: idParam, floor: { type: 'integer' }, zones: idList,
  },
} as const;

export async function sensorRoutes(app: FastifyInstance, { store }: RouteContext): Promise<void> {
  const base = '/v1/organizations/:orgId/locations/:locId/sensors';
  const sensorIn = (locId: string, id: string) => {
    const s = store.sensors.get(id);
    if (!s || s.location_id !== locId) throw notFound('Sensor');
    return s;
  };

  app.get(base, {
    schema: { params: params('orgId', 'locId'), querystring: objectSchema({ include_inactive: { type: 'boolean' } }) },
  }, async (req, reply) => {
    const { orgId, locId } = req.params as { orgId: string; locId: string };
    const { include_inactive: all } = req.query as { include_inactive?: boolean };
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    const out: WireSensor[] = [];
    for (const s of store.sensors.values()) if (s.location_id === locId && (all || s.active)) out.push(s);
    setStreamHeaders(store, reply, locationScopeFor(store, user, locId));
    return out;
  });

  app.post(base, { schema: { params: params('orgId', 'locId'), body: objectSchema(sensorProps, ['type']) } }, async (req, reply) => {
    const { orgId, locId } = req.params as { orgId: string; locId: string };
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    requireRole(user, 'edit');
    const body = req.body as CreateSensorRequest;
    if (body.asset_id && store.assets.get(body.asset_id)?.location_id !== locId) throw new HttpError(400, 'body/asset_id is not an asset of this location');
    return reply.code(201).send(store.createSensor(locId, body));
  });

  app.get(`${base}/:sensorId`, { schema: { params: params('orgId', 'locId', 'sensorId') } }, async (req) => {
    const { orgId, locId, sensorId } = req.params as { orgId: string; locId: string; sensorId: string };
    locationFor(store, currentUser(req), orgId, locId);
    return sensorIn(locId, sensorId);
  });

  app.patch(`${base}/:sensorId`, { schema: { params: params('orgId', 'locId', 'sensorId'), body: objectSchema(sensorProps) } }, async (req) => {
    const { orgId, locId, sensorId } = req.params as { orgId: string; locId: string; sensorId: string };
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    sensorIn(locId, sensorId);
    requireRole(user, 'edit');
    const body = req.body as UpdateSensorRequest;
    if (body.asset_id && store.assets.get(body.asset_id)?.location_id !== locId) throw new HttpError(400, 'body/asset_id is not an asset of this location');
    return store.updateSensor(sensorId, body);
  });

  app.delete(`${base}/:sensorId`, { schema: { params: params('orgId', 'locId', 'sensorId') } }, async (req, reply) => {
    const { orgId, locId, sensorId } = req.params as { orgId: string; locId: string; sensorId: string };
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    sensorIn(locId, sensorId);
    requireRole(user, 'edit');
    store.deleteSensor(sensorId);
    return reply.code(204).send();
  });

  app.get('/v1/organizations/:orgId/locations/:locId/measurements/:type', {
    schema: {
      params: objectSchema({ orgId: idParam, locId: idParam, type: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } }, ['orgId', 'locId', 'type']),
      querystring: objectSchema({
        start: timeSchema, end: timeSchema, limit: { type: 'integer', minimum: 1, maximum: MEASUREMENT_PAGE_LIMIT },
        sensor_id: { type: 'array', items: idParam, maxItems: 20_000 }, ignore_previous_validity: { type: 'boolean' },
      }),
    },
  }, async (req): Promise<MeasurementsResponse> => {
    const { orgId, locId, type } = req.params as { orgId: string; locId: string; type: string };
    const q = req.query as { start?: number; end?: number; limit?: number; sensor_id?: string[]; ignore_previous_validity?: boolean };
    locationFor(store, currentUser(req), orgId, locId);
    const start = q.start ?? 0;
    const end = q.end ?? store.clock.now() + 1;
    if (end < start) throw new HttpError(400, 'querystring/end must not be before start');
    return pageMeasurements(store, locId, type, {
      start, end, limit: q.limit ?? MEASUREMENT_PAGE_LIMIT, sensorIds: q.sensor_id ?? null, ignorePreviousValidity: !!q.ignore_previous_validity,
    });
  });

  app.post('/v2/measurements', {
    schema: {
      body: objectSchema({
        measurements: {
          type: 'array', minItems: 1, maxItems: 10_000,
          items: objectSchema({ sensor_id: idParam, value: measurementValueSchema }, ['sensor_id', 'value']),
        },
      }, ['measurements']),
    },
  }, async (req): Promise<IngestMeasurementsResponse> => {
    const user = currentUser(req);
    requireRole(user, 'edit');
    const { measurements } = req.body as IngestMeasurementsRequest;
    // check everything before storing anything, so a bad item changes nothing
    for (const [i, m] of measurements.entries()) {
      const sensor = store.sensors.get(m.sensor_id);
      const loc = sensor ? store.locations.get(sensor.location_id) : undefined;
      if (!sensor || !loc || !canReachOrganization(user, loc.organization_id)) {
        throw new HttpError(400, `body/measurements/${i}/sensor_id: unknown sensor ${m.sensor_id}`);
      }
    }
    store.addMeasurements(measurements.map((m) => ({ sensorId: m.sensor_id, value: m.value })));
    return { accepted: measurements.length };
  });
}
