// Sensor bodies and the measurement calls (spec §7 …/sensors,
// …/measurements/{type}, POST /v2/measurements; docs/protocol.md §4).

import { Type, type Static } from 'typebox';
import { MEASUREMENT_PAGE_LIMIT } from '../constants.js';
import { CLOSED, Id, IdList, Nullable, NullableText, Params, Text, Time } from './common.js';

/** POST …/sensors (edit) */
export const CreateSensorRequest = Type.Object({
  type: Text(64, 1),
  subtype: Type.Optional(NullableText),
  legacy_id: Type.Optional(NullableText),
  asset_id: Type.Optional(Nullable(Id)),
  unit: Type.Optional(NullableText),
  virtual_sensor_id: Type.Optional(Nullable(Id)),
  vendor_id: Type.Optional(NullableText),
  active: Type.Optional(Type.Boolean()),
}, CLOSED);
export type CreateSensorRequest = Static<typeof CreateSensorRequest>;
export const UpdateSensorRequest = Type.Partial(CreateSensorRequest, CLOSED);
export type UpdateSensorRequest = Static<typeof UpdateSensorRequest>;

export const SensorsQuery = Type.Object({ include_inactive: Type.Optional(Type.Boolean()) }, CLOSED);
export type SensorsQuery = Static<typeof SensorsQuery>;

/**
 * A measurement type in a path: a word, never a name of Object.prototype
 * (`constructor`, `toString`, …), which must not reach a lookup table.
 */
export const MeasurementType = Type.String({
  pattern: '^(?!(?:constructor|hasOwnProperty|isPrototypeOf|propertyIsEnumerable|toLocaleString|toString|valueOf)$)[A-Za-z][A-Za-z0-9_-]{0,63}$',
});
export const MeasurementsParams = Type.Object({ ...Params('orgId', 'locId').properties, type: MeasurementType }, CLOSED);

/** GET …/measurements/{type} query. Times are ms epoch; `limit` ≤ MEASUREMENT_PAGE_LIMIT (20000). */
export const MeasurementsQuery = Type.Object({
  start: Type.Optional(Time),
  end: Type.Optional(Time),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MEASUREMENT_PAGE_LIMIT })),
  /** repeat the key for several sensors */
  sensor_id: Type.Optional(Type.Array(Id, { maxItems: 20_000 })),
  /** false (default): also return, per sensor, the last row before start still valid at start */
  ignore_previous_validity: Type.Optional(Type.Boolean()),
}, CLOSED);

/**
 * Rows sorted by time, then sensor_id. A page never splits one time between
 * pages, so the next page starts at `last row time + 1` with
 * ignore_previous_validity=true.
 */
export const MeasurementsResponse = Type.Object({
  columns: Type.Array(Type.String()),
  rows: Type.Array(Type.Array(Type.Unknown())),
  has_more_results: Type.Boolean(),
});
export type MeasurementsResponse = Static<typeof MeasurementsResponse>;

/** One reading as POST /v2/measurements takes it; other fields of a value pass through. */
export const IngestMeasurementValue = Type.Object({
  time: Time,
  valid_for: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
  valid_to: Type.Optional(Time),
  battery_level: Type.Optional(Nullable(Type.Number())),
  events: Type.Optional(Nullable(Type.Array(Type.Unknown(), { maxItems: 1_000 }))),
  value: Type.Optional(Type.Unknown()),
  x: Type.Optional(Type.Number()),
  y: Type.Optional(Type.Number()),
  floor_id: Type.Optional(Id),
  floor: Type.Optional(Type.Integer()),
  zones: Type.Optional(IdList),
});

/** POST /v2/measurements (edit role): ingest and publish. */
export const IngestMeasurementsRequest = Type.Object({
  measurements: Type.Array(Type.Object({ sensor_id: Id, value: IngestMeasurementValue }, CLOSED), { minItems: 1, maxItems: 10_000 }),
}, CLOSED);
export type IngestMeasurementsRequest = Static<typeof IngestMeasurementsRequest>;
export const IngestMeasurementsResponse = Type.Object({ accepted: Type.Integer() });
export type IngestMeasurementsResponse = Static<typeof IngestMeasurementsResponse>;
