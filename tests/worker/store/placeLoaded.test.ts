import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// Placing assets by their location sensors' values once walked a live Set
// that placing itself empties and refills, and never ended (issue 11 §1).
// An endless loop cannot be interrupted inside the test's own thread, so the
// case runs in a child process that must finish within a few seconds.

const SCRIPT = `
import { applyBatch } from './src/worker/store/applyBatch.js';
import { createStore } from './src/worker/store/store.js';
import { locationBatches, locationScope, ORG_ID, LOCATION_ID, measurement } from './tests/worker/engine/harness.js';
const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const store = createStore();
store.organizationId = ORG_ID;
store.locationId = LOCATION_ID;
const logger = { debug() {}, info() {}, warn() {}, error(...a) { console.error(...a); } };
const options = { logger, now: () => T0, manualLocationTimeoutMs: 432e5 };
// one location sensor feeds two assets; its value names no floor
const value = { time: T0, valid_for: 60000, value: 1, x: 7, y: 8 };
const assets = ['a1', 'a2'].map((id) => ({ id, type: 'auto_tag', name: id, parent_id: 'f1', data_providers: ['tag'] }));
const sensors = [{ id: 'tag', type: 'location', last_measurement: value }];
for (const b of locationBatches(assets, sensors)) applyBatch(store, b, options);
const initial = ['a1', 'a2'].map((id) => [store.assets.get(id).x, store.assets.get(id).y, store.floorOf.get(id)]);
applyBatch(store, measurement('tag', 'location', { ...value, time: T0 + 1, x: 9, y: 10 }), options);
const live = ['a1', 'a2'].map((id) => [store.assets.get(id).x, store.assets.get(id).y, store.floorOf.get(id)]);
// and a value on a floor outside the loaded location
applyBatch(store, measurement('tag', 'location', { ...value, time: T0 + 2, x: 11, y: 12, floor_id: 'elsewhere' }), options);
const outside = ['a1', 'a2'].map((id) => [store.assets.get(id).x, store.assets.get(id).y, store.floorOf.get(id)]);
console.log(JSON.stringify({ initial, live, outside }));
`;

function runIsolated(script: string, timeoutMs: number): Promise<{ code: number | null; out: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd() });
    let out = '';
    child.stdout.on('data', (d) => { out += String(d); });
    child.stderr.on('data', (d) => { out += String(d); });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    child.on('exit', (code) => { clearTimeout(timer); resolve({ code, out, timedOut }); });
  });
}

describe('store', () => {
  describe('applyBatch placing loaded assets', () => {
    it('places every asset of a location sensor that feeds two of them, without a floor in the value, and finishes', async () => {
      const result = await runIsolated(SCRIPT, 15_000);
      expect(result.timedOut).toBe(false);
      expect(result.code).toBe(0);
      const { initial, live, outside } = JSON.parse(result.out.trim().split('\n').pop()!);
      expect(initial).toEqual([[7, 8, 'f1'], [7, 8, 'f1']]);
      expect(live).toEqual([[9, 10, 'f1'], [9, 10, 'f1']]);
      // a floor outside the location keeps the asset on its floor, at the new position
      expect(outside).toEqual([[11, 12, 'f1'], [11, 12, 'f1']]);
    }, 20_000);
  });
});
