// The public API of src/shared: entity types, normalizers, base config, the
// domain rules, the live wire contract and the engine API types. Other layers
// import from here (or from a module directly); names here stay stable.

export * from './types.js';
export * from './constants.js';
export * from './messages.js';
export * from './protocol.js';
export * from './api.js';

export * from './geo.js';
export * from './time.js';
export * from './config.js';
export * from './roles.js';
export * from './query.js';
export * from './assetUpdate.js';
export * from './safeUrl.js';

export type { NormalizeContext, WarnLogger, Raw } from './normalize/primitives.js';
export { WARN } from './normalize/warnings.js';
export { normalizeList } from './normalize/list.js';
export { normalizeOrganization, normalizeLocation, normalizeBuilding, normalizeFloor } from './normalize/structure.js';
export { normalizeAsset, normalizeAssets, TIMEOUT_ACTIONS } from './normalize/asset.js';
export {
  normalizeSensor, normalizeSensors, normalizeMeasurementValue, normalizeReservationEvents,
  LOCATION_SENSOR_TYPE, RESERVATION_SENSOR_TYPE, type MeasurementMeta,
} from './normalize/sensor.js';
export {
  normalizeExternalObject, normalizeExternalObjects, normalizeUser, normalizeUsers, normalizeSettings,
  normalizeNotification, normalizeNotifications, hasSignInUser, userAssetId, manualLocationSensorId,
} from './normalize/people.js';
export { normalizeLivePacket, normalizeLiveChange } from './normalize/livePacket.js';

export * from './rules/freshness.js';
export * from './rules/reservations.js';
export * from './rules/roomStatus.js';
export * from './rules/reservationHistory.js';
export * from './rules/cleanDesk.js';
export * from './rules/location.js';
export * from './rules/wayfinding.js';
export * from './rules/route.js';
export * from './search.js';
export * from './rules/users.js';
export * from './rules/backoff.js';
