// The reference server's cost per change (diagnostic, no target): what one
// heartbeat, one batch of readings, one asset change and one REST read cost
// the server, for another commit's server (`git archive <ref>`, default
// main) and this tree's, each on its own 10,000-desk, 20,000-sensor seed
// (bench/lib/reopenRuns.ts REOPEN_SEED), in alternating rounds in one
// process, timed in CPU time. Written for the visibility index
// (server/store/visibilityIndex.ts), which replaced a scan of every asset on
// each change and read; a change's packets are encoded as for users (deflate
// and base64), not sent.
//   node --expose-gc --import tsx bench/serverChanges.ts [ref=main] [rounds=7]

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StoreyServer } from '../server/app.js';
import type { WireAsset } from '../src/shared/rest.js';
import { REOPEN_SEED } from './lib/reopenRuns.js';
import { cpuMs, fmt, median, publish, type BenchRow } from './lib/report.js';

const ROOT = resolve(import.meta.dirname, '..');
const [ref = 'main', roundsArg = '7'] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);

interface Side { label: string; server: StoreyServer; token: string; times: Map<string, number[]> }

interface Case {
  name: string;
  /** a REST read: sent through fastify as a request (inject) */
  read?: boolean;
  /** how many changes (or reads) one run does */
  count: number;
  run(side: Side, round: number): Promise<void> | void;
}

const locOf = (s: Side) => s.server.seed.locationIds[0]!;
const assetsOf = (s: Side) => [...s.server.store.assets.values()].filter((a) => a.location_id === locOf(s));
const publicDesks = (s: Side) => assetsOf(s).filter((a) => a.subtype === 'desk' && s.server.store.isAssetPublic(a));
const busiestFloor = (s: Side): WireAsset => {
  const counts = new Map<string, number>();
  for (const a of assetsOf(s)) if (a.parent_id) counts.set(a.parent_id, (counts.get(a.parent_id) ?? 0) + 1);
  const floors = assetsOf(s).filter((a) => a.type === 'floor' && !a.hidden);
  return floors.sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0))[0]!;
};

const cases: Case[] = [
  {
    name: 'heartbeat of a desk sensor', count: 2_000,
    run(s, round) {
      const desks = publicDesks(s);
      const t = s.server.store.clock.now();
      for (let i = 0; i < 2_000; i++) s.server.store.heartbeat(desks[(round * 2_000 + i) % desks.length]!.data_providers[0]!, t + i, 80);
    },
  },
  {
    name: 'readings, 10 a batch', count: 2_000,
    run(s, round) {
      const desks = publicDesks(s);
      const t = s.server.store.clock.now() + round * 10_000;
      for (let b = 0; b < 200; b++) {
        s.server.store.addMeasurements(Array.from({ length: 10 }, (_, i) => ({
          sensorId: desks[(b * 10 + i) % desks.length]!.data_providers[0]!, value: { time: t + b, value: (b + i + round) % 2, valid_for: 2_100_000 },
        })));
      }
    },
  },
  {
    name: 'desk renamed', count: 200,
    run(s, round) {
      const desks = publicDesks(s);
      for (let i = 0; i < 200; i++) {
        const d = desks[(round * 200 + i) % desks.length]!;
        s.server.store.updateAsset(d.id, { name: `Desk ${round}.${i}` });
      }
    },
  },
  {
    name: 'desk unpublished, then published', count: 40,
    run(s, round) {
      const desks = publicDesks(s).slice(round * 20, round * 20 + 20);
      for (const d of desks) s.server.store.updateAsset(d.id, { unpublished: true });
      for (const d of desks) s.server.store.updateAsset(d.id, { unpublished: false });
    },
  },
  {
    name: 'desk created, then deleted', count: 40,
    run(s) {
      const floor = busiestFloor(s);
      const ids = Array.from({ length: 20 }, (_, i) => s.server.store.createAsset(locOf(s), { type: 'shape', subtype: 'desk', name: `New ${i}`, parent_id: floor.id, x: 2, y: 2 }, null).id);
      for (const id of ids) s.server.store.deleteAsset(id);
    },
  },
  {
    // deleting a room moves its desks to the floor (store.deleteAsset) on this tree
    name: 'room with 5 desks created, room deleted, desks deleted', count: 120,
    run(s) {
      const floor = busiestFloor(s);
      const store = s.server.store;
      for (let r = 0; r < 10; r++) {
        const room = store.createAsset(locOf(s), { type: 'room', name: `Room ${r}`, parent_id: floor.id, x: 2, y: 2 }, null).id;
        const desks = Array.from({ length: 5 }, (_, i) => store.createAsset(locOf(s), { type: 'shape', subtype: 'desk', name: `In room ${i}`, parent_id: room, x: 2, y: 2 }, null).id);
        store.deleteAsset(room);
        for (const id of desks) store.deleteAsset(id);
      }
    },
  },
  {
    name: 'busiest floor hidden, then shown', count: 2,
    run(s) {
      const floor = busiestFloor(s);
      s.server.store.updateAsset(floor.id, { hidden: true });
      s.server.store.updateAsset(floor.id, { hidden: false });
    },
  },
  {
    name: 'GET assets as a regular user', count: 1, read: true,
    async run(s) {
      const orgId = s.server.store.locations.get(locOf(s))!.organization_id;
      const res = await s.server.app.inject({ url: `/v1/organizations/${orgId}/locations/${locOf(s)}/assets`, headers: { authorization: `Bearer ${s.token}` } });
      if (res.statusCode !== 200) throw new Error(`assets: ${res.statusCode}`);
    },
  },
  {
    name: 'GET sensors as a regular user', count: 1, read: true,
    async run(s) {
      const orgId = s.server.store.locations.get(locOf(s))!.organization_id;
      const res = await s.server.app.inject({ url: `/v1/organizations/${orgId}/locations/${locOf(s)}/sensors`, headers: { authorization: `Bearer ${s.token}` } });
      if (res.statusCode !== 200) throw new Error(`sensors: ${res.statusCode}`);
    },
  },
];

async function main(): Promise<void> {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  const other = mkdtempSync(join(tmpdir(), 'storey-serverchanges-src-'));
  execFileSync('sh', ['-c', `git archive ${commit} server src/shared | tar -x -C '${other}'`], { cwd: ROOT });
  symlinkSync(join(ROOT, 'node_modules'), join(other, 'node_modules'));
  const sides: Side[] = [];
  try {
    for (const [label, root] of [[`server at ${commit}`, other], ['server, this tree', ROOT]] as const) {
      const { startStoreyServer } = await import(pathToFileURL(join(root, 'server/app.ts')).href) as typeof import('../server/app.js');
      const server = await startStoreyServer({ host: '127.0.0.1', port: 0, transport: 'pusher', simulate: false, seed: REOPEN_SEED });
      const account = server.seed.accounts.regular;
      const login = await server.app.inject({
        method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email: account.email, password: account.password }).toString(),
      });
      // the send to the Pusher endpoint (an HTTP request per packet through the SDK) does not depend on
      // what changed: left out, so the table shows the store's own work (visibility, packet encoding)
      server.publisher.setSink(null);
      sides.push({ label, server, token: (login.json() as { token: string }).token, times: new Map() });
    }
    // one warm-up round each, then rounds in turns (which side goes first alternates)
    for (const side of sides) for (const c of cases) await c.run(side, ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of cases) {
        for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
          await side.server.publisher.flush();
          // what earlier cases left for the collector is not this case's cost
          (globalThis as { gc?: () => void }).gc?.();
          const t0 = cpuMs();
          await c.run(side, round);
          await side.server.publisher.flush();
          const per = ((cpuMs() - t0) * 1000) / c.count;
          side.times.set(c.name, [...(side.times.get(c.name) ?? []), per]);
        }
      }
    }
    const [base, mine] = sides as [Side, Side];
    const rows: BenchRow[] = cases.map((c) => {
      const before = median(base.times.get(c.name)!);
      const after = median(mine.times.get(c.name)!);
      return {
        bench: 'serverChanges', case: c.name, size: '10k desks, 20k sensors', value: after, unit: 'µs',
        baseline: before, baselineLabel: `µs at ${commit}`, ratio: after / before, target: 'report', pass: null,
      };
    });
    publish(`The reference server's CPU per change or read: this tree vs ${commit} (medians of ${ROUNDS} alternating rounds)`, rows, [
      'CPU time of the whole process per change (per request for the reads) after a forced GC; publishing encodes packets (deflate + base64), their send is left out',
      `runs of each case, this tree: ${cases.map((c) => `${c.name} ${mine.times.get(c.name)!.map((v) => fmt(v)).join('/')}`).join('; ')}`,
    ]);
  } finally {
    for (const side of sides) await side.server.close();
    rmSync(other, { recursive: true, force: true });
  }
}

await main();
