// The fuzz tests' counts, written to docs/reliability-counts.json so
// docs/reliability.md quotes numbers from a run of the suite. Each test
// writes its own section; content is deterministic for the fixed seeds.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const FILE = resolve(process.cwd(), 'docs/reliability-counts.json');

export function writeCounts(section: string, counts: unknown): void {
  const current = existsSync(FILE) ? (JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>) : {};
  current[section] = counts;
  const sorted = Object.fromEntries(Object.keys(current).sort().map((k) => [k, current[k]]));
  const text = `${JSON.stringify(sorted, null, 2)}\n`;
  if (!existsSync(FILE) || readFileSync(FILE, 'utf8') !== text) writeFileSync(FILE, text);
}
