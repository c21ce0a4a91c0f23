// The fuzz tests' counts, written to docs/reliability-counts.json and, as
// tables, into docs/reliability.md between `<!-- counts:NAME -->` markers, so
// the page quotes numbers from a run of the suite, never from memory. Each
// test writes its own section; content is deterministic for the fixed seeds,
// so the files change only when behaviour does.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const JSON_FILE = resolve(process.cwd(), 'docs/reliability-counts.json');
const PAGE = resolve(process.cwd(), 'docs/reliability.md');

function writeIfChanged(file: string, text: string): void {
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
}

/** A markdown table: a header row and rows of cells. */
export function table(header: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.map((c) => (typeof c === 'number' ? c.toLocaleString('en-US') : c)).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function writeCounts(section: string, counts: unknown, markdown: string): void {
  const current = existsSync(JSON_FILE) ? (JSON.parse(readFileSync(JSON_FILE, 'utf8')) as Record<string, unknown>) : {};
  current[section] = counts;
  const sorted = Object.fromEntries(Object.keys(current).sort().map((k) => [k, current[k]]));
  writeIfChanged(JSON_FILE, `${JSON.stringify(sorted, null, 2)}\n`);

  const page = readFileSync(PAGE, 'utf8');
  const start = `<!-- counts:${section} -->`;
  const end = `<!-- /counts:${section} -->`;
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/reliability.md has no ${start} … ${end} section`);
  writeIfChanged(PAGE, `${page.slice(0, from + start.length)}\n${markdown}\n${page.slice(to)}`);
}
