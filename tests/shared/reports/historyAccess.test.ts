import { describe, expect, it } from 'vitest';
import {
  allReportsAllowed, gateAllows, historyReaders, historyRefusal, historyRefusalMessage, historyReportsOf, type HistoryAsset,
} from '../../../src/shared/reports/historyAccess.js';

const asset = (a: Partial<HistoryAsset> & Pick<HistoryAsset, 'type'>): HistoryAsset => ({ subtype: null, data_provider_refs: {}, ...a });
const TYPES: Record<string, string> = { occ1: 'occupancy', occ2: 'occupancy', res2: 'reservation', co2a: 'co2', co2b: 'co2', hum: 'humidity', sat: 'satisfaction' };

describe('whose history a report reads', () => {
  const readers = historyReaders([
    asset({ type: 'furniture', subtype: 'desk', data_provider_refs: { occupancy: 'occ1' } }),
    asset({ type: 'room', data_provider_refs: { occupancy: 'occ2', reservation: 'res2', co2: 'co2b' } }),
    asset({ type: 'sensor', subtype: 'air', data_provider_refs: { co2: 'co2a', humidity: 'hum', satisfaction: 'sat' } }),
    // a ref naming a sensor of another type is not that type's history
    asset({ type: 'sensor', data_provider_refs: { co2: 'hum' } }),
  ], (id) => TYPES[id]);
  const kinds = (id: string, type = TYPES[id]!) => historyReportsOf(id, { type }, readers).sort();

  it('picks them as the reports’ scopes do', () => {
    expect(kinds('occ1')).toEqual(['desk', 'location']);
    expect(kinds('occ2')).toEqual(['location', 'room']);
    expect(kinds('res2')).toEqual(['room']);
    expect(kinds('co2a')).toEqual(['environment']);
    expect(kinds('hum')).toEqual(['environment']);
    // a room's own air sensor is in no report (the environment report groups sensors standing in rooms)
    expect(kinds('co2b')).toEqual([]);
    expect(kinds('sat')).toEqual([]);
    expect(historyReportsOf('tag', { type: 'location' }, readers)).toEqual(['location']);
    expect(historyReportsOf('manual', { type: 'location', local: true }, readers)).toEqual([]);
  });

  it('lets a caller read what one of its reports lets them view, and names the weakest gate otherwise', () => {
    const gates = { desk: 'edit', location: 'admin', room: 'regular', environment: 'nobody' };
    expect(historyRefusal(['desk', 'location'], ['regular'], gates)).toEqual({ kind: 'desk', minimum: 'edit' });
    expect(historyRefusal(['desk', 'location'], ['edit', 'regular'], gates)).toBeNull();
    expect(historyRefusal(['location', 'room'], ['regular'], gates)).toBeNull();
    expect(historyRefusal(['environment'], ['admin'], gates)).toEqual({ kind: 'environment', minimum: null });
    expect(historyRefusal([], [], gates)).toBeNull();
    expect(historyRefusalMessage({ kind: 'desk', minimum: 'edit' })).toBe('Requires the edit role (reportViewingRolesAtLeast.desk): this is the desk report\'s history');
    expect(historyRefusalMessage({ kind: 'environment', minimum: null })).toBe('No role (reportViewingRolesAtLeast.environment names none): this is the environment report\'s history');
  });

  it('skips the check only when every gate lets the caller in', () => {
    const regular = { desk: 'regular', location: 'regular', room: 'regular', environment: 'regular' };
    expect(allReportsAllowed(['regular'], regular)).toBe(true);
    expect(allReportsAllowed([], regular)).toBe(false);
    expect(allReportsAllowed(['admin'], { ...regular, room: 'nobody' })).toBe(false);
    expect(allReportsAllowed(['admin'], undefined)).toBe(false);
    expect(gateAllows(['service'], 'regular')).toBe(true);
    expect(gateAllows(['service'], 'edit')).toBe(false);
  });
});
