// Whose history a report reads, and so who may read it (spec §6
// reportViewingRolesAtLeast). The reports are computed in the worker from the
// measurement pages, so the role gate of a report is only real where the
// server refuses those pages: a sensor's history belongs to the reports that
// read it (the same picks as worker/reports/reportScope.ts), and a caller may
// read it when they may view at least one of them. A sensor no report reads
// (satisfaction, service, devices…) has no gate. The server refuses pages by
// this rule (server/routes/sensors.ts) and the replay leaves out what it
// refuses (worker/reports/playbackReadings.ts).

import { REPORT_KINDS, type ReportKind } from '../config.js';
import { LOCATION_SENSOR_TYPE } from '../kinds.js';
import { hasRoleAtLeast, ROLE_ORDER } from '../roles.js';
import type { Id, Role } from '../types.js';
import { COMFORT_BANDS } from './environmentReport.js';

/** What of an asset says which reports read its sensors. */
export interface HistoryAsset {
  type: string;
  subtype: string | null;
  categories?: { shape?: unknown } | null;
  data_provider_refs: Readonly<Record<string, Id>>;
}

/** What of a sensor says which reports read it. */
export interface HistorySensor {
  type: string;
  local?: boolean;
}

const isDesk = (a: HistoryAsset) => a.subtype === 'desk' || a.categories?.shape === 'desk';

/**
 * Sensor id → the reports that read its history, from the assets of a location: a desk's occupancy (desk,
 * location), a room's occupancy (room, location) and reservation (room), another asset's environment sensor
 * (environment). Located people (`location` sensors) are the location report's: see `historyReportsOf`.
 */
export function historyReaders(assets: Iterable<HistoryAsset>, sensorType: (id: Id) => string | undefined): Map<Id, Set<ReportKind>> {
  const readers = new Map<Id, Set<ReportKind>>();
  const add = (id: Id | undefined, ...kinds: ReportKind[]) => {
    if (!id) return;
    let set = readers.get(id);
    if (!set) readers.set(id, (set = new Set()));
    for (const kind of kinds) set.add(kind);
  };
  for (const a of assets) {
    const refs = a.data_provider_refs ?? {};
    const desk = isDesk(a);
    const room = a.type === 'room';
    if (desk) add(refs.occupancy, 'desk', 'location');
    if (room) {
      add(refs.occupancy, 'room', 'location');
      add(refs.reservation, 'room');
    }
    if (desk || room || a.type === 'building' || a.type === 'floor') continue;
    for (const [type, id] of Object.entries(refs)) if (COMFORT_BANDS[type] && sensorType(id) === type) add(id, 'environment');
  }
  return readers;
}

/** The reports that read one sensor's history (`readers` from `historyReaders`). */
export function historyReportsOf(id: Id, sensor: HistorySensor, readers: ReadonlyMap<Id, ReadonlySet<ReportKind>>): ReportKind[] {
  const kinds = new Set(readers.get(id) ?? []);
  if (sensor.type === LOCATION_SENSOR_TYPE && !sensor.local) kinds.add('location');
  return [...kinds];
}

const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLE_ORDER as readonly string[]).includes(value);

/** Whether a report's gate lets these roles in: a gate naming no role lets nobody in (the viewer's 'No role'). */
export function gateAllows(roles: readonly Role[], minimum: unknown): boolean {
  return isRole(minimum) && hasRoleAtLeast(roles, minimum);
}

/** Whether these roles may view every report, so no history is refused (the default configuration, any role). */
export function allReportsAllowed(roles: readonly Role[], gates: Partial<Record<ReportKind, unknown>> | undefined): boolean {
  return REPORT_KINDS.every((kind) => gateAllows(roles, gates?.[kind]));
}

export type HistoryRefusal = { kind: ReportKind; minimum: Role | null };

/**
 * Null when these roles may read a history the `kinds` reports read (no report reads it, or one of them lets
 * them in); otherwise the gate to name: the report of the weakest role that would let them in (a gate naming
 * no role, `minimum: null`, only when none names one).
 */
export function historyRefusal(kinds: readonly ReportKind[], roles: readonly Role[], gates: Partial<Record<ReportKind, unknown>> | undefined): HistoryRefusal | null {
  if (kinds.length === 0 || kinds.some((kind) => gateAllows(roles, gates?.[kind]))) return null;
  let best: HistoryRefusal = { kind: kinds[0]!, minimum: null };
  for (const kind of kinds) {
    const minimum = gates?.[kind];
    if (isRole(minimum) && (best.minimum === null || ROLE_ORDER.indexOf(minimum) < ROLE_ORDER.indexOf(best.minimum))) best = { kind, minimum };
  }
  return best;
}

/** The 403 message of a refused history, in the words of the other role refusals ("Requires the edit role (…)"). */
export function historyRefusalMessage(refusal: HistoryRefusal): string {
  return refusal.minimum
    ? `Requires the ${refusal.minimum} role (reportViewingRolesAtLeast.${refusal.kind}): this is the ${refusal.kind} report's history`
    : `No role (reportViewingRolesAtLeast.${refusal.kind} names none): this is the ${refusal.kind} report's history`;
}
