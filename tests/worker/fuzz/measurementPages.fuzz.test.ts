import { describe, expect, it } from 'vitest';
import { MalformedPageError } from '../../../src/worker/rest/measurements.js';
import { createRestClient } from '../../../src/worker/rest/restClient.js';
import { createRng, WRONG_VALUES, type Rng } from '../../helpers/fuzz.js';
import { table, writeCounts } from './counts.js';

// Issue 11 §5: seeded sequences of measurement history pages, good ones and
// hostile ones mixed, through the real REST client and pager
// (measurementsAll). Each sequence either resolves with exactly the rows of
// the pages it read, all of them well formed, or rejects with
// MalformedPageError on a malformed page — never a raw TypeError, never a
// request past the pages served, never a polluted prototype.

const SEED = 11;
const SEQUENCES = 400;
const COLUMNS = ['time', 'sensor_id', 'valid_for', 'value', 'battery_level'];

const PAGE_FAMILIES = [
  'not JSON', 'HTML page', 'JSON scalar', 'list instead of a page', 'columns not names', 'rows not a list',
  'a row not a list', 'a row of the wrong length', 'has_more_results not a boolean', 'columns changed',
  'time not advancing', 'time not a number', 'prototype keys', 'huge page',
] as const;
type PageFamily = (typeof PAGE_FAMILIES)[number];
/** families whose page is not the shape the pager reads: they must reject */
const MALFORMED = new Set<PageFamily>([
  'not JSON', 'HTML page', 'JSON scalar', 'list instead of a page', 'columns not names', 'rows not a list',
  'a row not a list', 'a row of the wrong length', 'has_more_results not a boolean', 'columns changed',
]);

interface Served { text: string; contentType: string; family: PageFamily | 'good'; rows: unknown[][] | null }

function goodRows(rng: Rng, from: number, n: number): unknown[][] {
  return Array.from({ length: n }, (_, i) => [from + i * 10, `s${rng.int(4)}`, 600_000, rng.int(2), rng.int(100)]);
}

function page(rows: unknown[][], more: boolean, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ columns: COLUMNS, rows, has_more_results: more, ...extra });
}

function hostilePage(rng: Rng, family: PageFamily, from: number, more: boolean): Served {
  const rows = goodRows(rng, from, 1 + rng.int(5));
  const json = (v: unknown, kept: unknown[][] | null = null): Served => ({ text: JSON.stringify(v), contentType: 'application/json', family, rows: kept });
  switch (family) {
    case 'not JSON': return { text: rng.pick(['{"columns":[', '{', 'nul', '\u0000']), contentType: 'application/json', family, rows: null };
    case 'HTML page': return { text: '<!doctype html><html><body>502 Bad Gateway</body></html>', contentType: rng.pick(['text/html', 'application/json']), family, rows: null };
    case 'JSON scalar': return json(rng.pick([null, 0, true, 'ok', '']));
    case 'list instead of a page': return json(rng.pick([[], rows, [{ columns: COLUMNS, rows }]]));
    case 'columns not names': return json({ columns: rng.pick<unknown>([null, 'time', [1, 2, 3, 4, 5], { 0: 'time' }]), rows, has_more_results: more });
    case 'rows not a list': return json({ columns: COLUMNS, rows: rng.pick<unknown>([null, 'rows', { 0: rows[0] }, 7]), has_more_results: more });
    case 'a row not a list': return json({ columns: COLUMNS, rows: [...rows, rng.pick(WRONG_VALUES.filter((v) => !Array.isArray(v)))], has_more_results: more });
    case 'a row of the wrong length': return json({ columns: COLUMNS, rows: [...rows, rng.pick([[], [from], [...rows[0]!, 'extra']])], has_more_results: more });
    case 'has_more_results not a boolean': return json({ columns: COLUMNS, rows, has_more_results: rng.pick<unknown>(['yes', 1, null, {}]) });
    case 'columns changed': return json({ columns: ['time', 'value'], rows: rows.map((r) => [r[0], r[3]]), has_more_results: more });
    // well formed, but the pager must stop rather than ask for the same page forever
    case 'time not advancing': return json({ columns: COLUMNS, rows: rows.map((r) => [0, ...r.slice(1)]), has_more_results: true }, rows.map((r) => [0, ...r.slice(1)]));
    case 'time not a number': {
      const odd = rows.map((r) => [rng.pick(WRONG_VALUES), ...r.slice(1)]);
      return json({ columns: COLUMNS, rows: odd, has_more_results: true }, odd);
    }
    case 'prototype keys': {
      const text = `{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"columns":${JSON.stringify(COLUMNS)},"rows":${JSON.stringify(rows)},"has_more_results":${more}}`;
      return { text, contentType: 'application/json', family, rows };
    }
    case 'huge page': {
      const many = goodRows(rng, from, 5_000 + rng.int(15_000));
      return { text: page(many, more), contentType: 'application/json', family, rows: many };
    }
  }
}

describe('measurement pages fuzz', () => {
  it(`pages through ${SEQUENCES} seeded sequences with good and hostile pages: exact rows or MalformedPageError, nothing else`, async () => {
    const rng = createRng(SEED);
    const perFamily = Object.fromEntries([...PAGE_FAMILIES, 'good'].map((f) => [f, { served: 0, rejected: 0 }])) as Record<PageFamily | 'good', { served: number; rejected: number }>;
    const outcomes = { resolved: 0, rejected: 0 };
    const wrong: string[] = [];
    for (let n = 0; n < SEQUENCES; n++) {
      // one to four pages; each good, or hostile one time in two; the last says there is no more
      const length = 1 + rng.int(4);
      const planned: Served[] = [];
      let time = 1_000;
      for (let i = 0; i < length; i++) {
        const more = i < length - 1;
        const family = PAGE_FAMILIES[(n + i) % PAGE_FAMILIES.length]!;
        // columns change only against an earlier page; on the first one they are simply the columns
        if (rng.next() < 0.5 || (family === 'columns changed' && i === 0)) {
          const rows = goodRows(rng, time, 1 + rng.int(6));
          planned.push({ text: page(rows, more), contentType: 'application/json', family: 'good', rows });
        } else {
          planned.push(hostilePage(rng, family, time, more));
        }
        time += 1_000;
      }
      const served: Served[] = [];
      let pastTheEnd = 0;
      const fetch = (async () => {
        const next = planned[served.length];
        if (!next) { pastTheEnd += 1; return new Response(page([], false), { headers: { 'content-type': 'application/json' } }); }
        served.push(next);
        return new Response(next.text, { headers: { 'content-type': next.contentType } });
      }) as typeof globalThis.fetch;
      const rest = createRestClient({ host: 'http://api.test', fetch, token: () => 'tok' });
      const outcome = await rest.measurementsAll('1', '2', 'occupancy', { start: 0 }).then(
        (result) => ({ ok: true as const, result }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      for (const s of served) perFamily[s.family].served += 1;
      const last = served.at(-1)!;
      if (outcome.ok) {
        outcomes.resolved += 1;
        const bad = served.find((s) => s.family !== 'good' && MALFORMED.has(s.family));
        if (bad) wrong.push(`#${n}: resolved over a ${bad.family} page`);
        const expected = served.flatMap((s) => s.rows ?? []);
        if (JSON.stringify(outcome.result.rows) !== JSON.stringify(expected)) wrong.push(`#${n}: rows differ from the pages read`);
        if (pastTheEnd > 1) wrong.push(`#${n}: asked ${pastTheEnd} times past the last page`);
      } else {
        outcomes.rejected += 1;
        perFamily[last.family].rejected += 1;
        if (!(outcome.error instanceof MalformedPageError)) wrong.push(`#${n}: ${last.family} rejected with ${String(outcome.error)}`);
        else if (last.family === 'good' || !MALFORMED.has(last.family)) wrong.push(`#${n}: rejected a ${last.family} page`);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(wrong.slice(0, 5)).toEqual([]);
    // every family was served, and every malformed one rejected each time it was read
    for (const f of PAGE_FAMILIES) {
      expect(perFamily[f].served, f).toBeGreaterThan(0);
      expect(perFamily[f].rejected, f).toBe(MALFORMED.has(f) ? perFamily[f].served : 0);
    }
    const summary = `Seed ${SEED}: **${SEQUENCES} sequences of 1-4 pages, ${outcomes.resolved} resolved with exactly the rows read, ${outcomes.rejected} rejected with \`MalformedPageError\`, 0 raw errors**.`;
    writeCounts('measurementPages', { seed: SEED, sequences: SEQUENCES, ...outcomes, perFamily }, `${summary}\n\n${table(
      ['page', 'served', 'rejected'],
      (['good', ...PAGE_FAMILIES] as const).map((f) => [f, perFamily[f].served, perFamily[f].rejected]),
    )}`);
  }, 60_000);
});
