// Sensors of a location, their measurement history in pages of columns and
// rows (docs/protocol.md §4), and POST /v2/measurements which ingests
// readings and publishes them live.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { MEASUREMENT_PAGE_LIMIT } from '../../src/shared/constants.js';
import type { MeasurementsResponse, WireMeasurementValue, WireSensor } from '../../src/shared/rest.js';
import { Params } from '../../src/shared/schemas/common.js';
import {
  CreateSensorRequest, IngestMeasurementsRequest, IngestMeasurementsResponse, MeasurementsParams, MeasurementsQuery, SensorsQuery,
  UpdateSensorRequest,
} from '../../src/shared/schemas/sensors.js';
import { resolveConfig } from '../../src/shared/config.js';
import { allReportsAllowed, historyReaders, historyRefusal, historyRefusalMessage, historyReportsOf } from '../../src/shared/reports/historyAccess.js';
import { rolesOf } from '../auth.js';
import { firstUnkeptReading } from '../store/historyLimit.js';
import { pageMeasurements } from '../store/measurementPages.js';
import { HISTORY_MAX_ROWS } from '../store/store.js';
import type { RouteContext } from './context.js';
import { type Hidden, isPositionHidden, isSensorHidden, namesGoneZone, publicSensor, publicZones } from '../store/visibility.js';
import type { WireLocation, WireUser } from '../../src/shared/rest.js';
import {
  HttpError, canReachOrganization, currentUser, hiddenFor, listValidity, locationFor, locationScopeFor, notFound, requireRole, setStreamHeaders,
} from './guard.js';

export async function sensorRoutes(fastify: FastifyInstance, { store, validators }: RouteContext): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const base = '/v1/organizations/:orgId/locations/:locId/sensors';
  /** a sensor serving an asset the caller may not see answers like one that does not exist */
  const sensorIn = (user: WireUser, locId: string, id: string) => {
    const s = store.sensors.get(id);
    if (!s || s.location_id !== locId || isSensorHidden(s, hiddenFor(store, user, locId))) throw notFound('Sensor');
    return s;
  };

  app.get(base, {
    schema: { params: Params('orgId', 'locId'), querystring: SensorsQuery },
  }, async (req, reply) => {
    const { orgId, locId } = req.params;
    const { include_inactive: all } = req.query;
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    const scope = locationScopeFor(store, user, locId);
    setStreamHeaders(store, reply, scope);
    if (validators.revalidate(req, reply, listValidity(store, scope))) return reply;
    const hidden = hiddenFor(store, user, locId);
    const out: WireSensor[] = [];
    for (const s of store.sensors.values()) if (s.location_id === locId && (all || s.active) && !isSensorHidden(s, hidden)) out.push(publicSensor(s, hidden));
    return out;
  });

  app.post(base, { schema: { params: Params('orgId', 'locId'), body: CreateSensorRequest } }, async (req, reply) => {
    const { orgId, locId } = req.params;
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    requireRole(user, 'edit');
    const body = req.body;
    if (body.asset_id && store.assets.get(body.asset_id)?.location_id !== locId) throw new HttpError(400, 'body/asset_id is not an asset of this location');
    return reply.code(201).send(store.createSensor(locId, body));
  });

  app.get(`${base}/:sensorId`, { schema: { params: Params('orgId', 'locId', 'sensorId') } }, async (req) => {
    const { orgId, locId, sensorId } = req.params;
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    return publicSensor(sensorIn(user, locId, sensorId), hiddenFor(store, user, locId));
  });

  app.patch(`${base}/:sensorId`, { schema: { params: Params('orgId', 'locId', 'sensorId'), body: UpdateSensorRequest } }, async (req) => {
    const { orgId, locId, sensorId } = req.params;
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    sensorIn(user, locId, sensorId);
    requireRole(user, 'edit');
    const body = req.body;
    if (body.asset_id && store.assets.get(body.asset_id)?.location_id !== locId) throw new HttpError(400, 'body/asset_id is not an asset of this location');
    return store.updateSensor(sensorId, body);
  });

  app.delete(`${base}/:sensorId`, { schema: { params: Params('orgId', 'locId', 'sensorId') } }, async (req, reply) => {
    const { orgId, locId, sensorId } = req.params;
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    sensorIn(user, locId, sensorId);
    requireRole(user, 'edit');
    store.deleteSensor(sensorId);
    return reply.code(204).send();
  });

  /**
   * The sensors of a page the caller may read under the reports' role gates (reportViewingRolesAtLeast of the
   * location, docs/security.md "Report roles"): a history some report reads is read by who may view one of
   * those reports. Naming a sensor whose history is refused answers 403; a page of the whole type leaves such
   * sensors out, and answers 403 when the caller may read none of the type's sensors it has. Null: all of the type.
   */
  const reportHistoryOf = (user: WireUser, loc: WireLocation, type: string, asked: readonly string[] | null, hidden: Hidden): readonly string[] | null => {
    const roles = rolesOf(user.permissions);
    const gates = resolveConfig(null, { location: loc, organization: store.organizations.get(loc.organization_id) }).reportViewingRolesAtLeast;
    if (allReportsAllowed(roles, gates)) return asked;
    const ofType = [...store.sensors.values()].filter((s) => s.location_id === loc.id && s.type === type && !isSensorHidden(s, hidden));
    const assets = [...store.assets.values()].filter((a) => a.location_id === loc.id);
    const readers = historyReaders(assets, (id) => store.sensors.get(id)?.type);
    const refusals = new Map(ofType.map((s) => [s.id, historyRefusal(historyReportsOf(s.id, s, readers), roles, gates)]));
    if (asked) {
      for (const id of asked) {
        const refusal = refusals.get(id);
        if (refusal) throw new HttpError(403, historyRefusalMessage(refusal));
      }
      return asked;
    }
    const readable = ofType.filter((s) => !refusals.get(s.id)).map((s) => s.id);
    const refused = ofType.map((s) => refusals.get(s.id)).find((r) => r);
    if (readable.length === 0 && refused) throw new HttpError(403, historyRefusalMessage(refused));
    return readable.length === ofType.length ? null : readable;
  };

  app.get('/v1/organizations/:orgId/locations/:locId/measurements/:type', {
    schema: { params: MeasurementsParams, querystring: MeasurementsQuery },
  }, async (req): Promise<MeasurementsResponse> => {
    const { orgId, locId, type } = req.params;
    const q = req.query;
    const user = currentUser(req);
    const loc = locationFor(store, user, orgId, locId);
    const start = q.start ?? 0;
    const end = q.end ?? store.clock.now() + 1;
    if (end < start) throw new HttpError(400, 'querystring/end must not be before start');
    // readings of sensors serving hidden assets only for the edit role: the page is of the sensors the caller may see
    const hidden = hiddenFor(store, user, locId);
    // the reports' role gates first, over the sensors the caller may see (a hidden one answers like an unknown one)
    let sensorIds = reportHistoryOf(user, loc, type, q.sensor_id ?? null, hidden);
    if (hidden.sensors.size > 0 || hidden.assets.size > 0 || hidden.goneSensors.size > 0 || hidden.goneAssets.size > 0) {
      const visible = [...store.sensors.values()].filter((s) => s.location_id === locId && s.type === type && !isSensorHidden(s, hidden)).map((s) => s.id);
      const asked = sensorIds ? new Set(sensorIds) : null;
      sensorIds = asked ? visible.filter((id) => asked.has(id)) : visible;
    }
    const page = pageMeasurements(store, locId, type, {
      start, end, limit: q.limit ?? MEASUREMENT_PAGE_LIMIT, sensorIds, ignorePreviousValidity: !!q.ignore_previous_validity,
    });
    // a tag's reading on a hidden floor or in a hidden zone stays in the page (so paging advances) without where it was;
    // one in a zone deleted while hidden keeps where it was without naming that zone
    const floorAt = page.columns.indexOf('floor_id');
    if (floorAt < 0 || (hidden.assets.size === 0 && hidden.goneAssets.size === 0)) return page;
    const zonesAt = page.columns.indexOf('zones');
    const position = ['x', 'y', 'floor_id', 'floor', 'zones'].map((c) => page.columns.indexOf(c)).filter((i) => i >= 0);
    const rows = page.rows.map((row) => {
      const zones = zonesAt < 0 ? undefined : row[zonesAt];
      if (isPositionHidden({ floor_id: row[floorAt] as string, zones: Array.isArray(zones) ? zones as string[] : undefined }, hidden)) {
        const copy = [...row];
        for (const i of position) copy[i] = null;
        return copy;
      }
      if (!namesGoneZone(zones, hidden)) return row;
      const copy = [...row];
      copy[zonesAt] = publicZones(zones as string[], hidden);
      return copy;
    });
    return { ...page, rows };
  });

  app.post('/v2/measurements', {
    schema: { body: IngestMeasurementsRequest, response: { 200: IngestMeasurementsResponse } },
  }, async (req) => {
    const user = currentUser(req);
    requireRole(user, 'edit');
    const { measurements } = req.body;
    // check everything before storing anything, so a bad item changes nothing
    for (const [i, m] of measurements.entries()) {
      const sensor = store.sensors.get(m.sensor_id);
      const loc = sensor ? store.locations.get(sensor.location_id) : undefined;
      if (!sensor || !loc || !canReachOrganization(user, loc.organization_id)) {
        throw new HttpError(400, `body/measurements/${i}/sensor_id: unknown sensor ${m.sensor_id}`);
      }
    }
    // a reading of any age is taken (docs/server.md "Late readings"), but not one the store would drop at once
    const unkept = firstUnkeptReading(measurements.map((m) => ({ sensorId: m.sensor_id, time: m.value.time })), (id) => store.history.get(id), HISTORY_MAX_ROWS);
    if (unkept >= 0) {
      const { sensor_id: sensorId, value } = measurements[unkept]!;
      throw new HttpError(422, `body/measurements/${unkept}/value/time: ${new Date(value.time).toISOString()} is older than the ${HISTORY_MAX_ROWS} newest readings this server keeps for sensor ${sensorId}; nothing was stored`);
    }
    store.addMeasurements(measurements.map((m) => ({ sensorId: m.sensor_id, value: m.value as WireMeasurementValue })));
    return { accepted: measurements.length };
  });
}
