#!/usr/bin/env node
// Runs ESLint from its own tool package (tools/lint: typescript-eslint needs
// the JS TypeScript API, the app builds with the native TypeScript 7; see
// docs/lint.md). Installs that package first when it is missing or was
// installed from another lockfile, so a fresh clone or a rebase that changed
// the lockfile just works.
// Extra args go to ESLint (default: the whole tree, warnings fail).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolDir = join(root, 'tools/lint');
const eslintBin = join(toolDir, 'node_modules/eslint/bin/eslint.js');

const lockfile = join(toolDir, 'package-lock.json');
/** Written after an install: the lockfile it installed, so a rebase that rewrites it unchanged costs nothing. */
const stamp = join(toolDir, 'node_modules/.storey-lockfile-sha1');
const lockHash = () => createHash('sha1').update(readFileSync(lockfile)).digest('hex');

/** True when tools/lint/node_modules was installed from the current tools/lint/package-lock.json. */
function installed() {
  return existsSync(eslintBin) && existsSync(stamp) && readFileSync(stamp, 'utf8') === lockHash();
}

export function ensureLintTools() {
  if (installed()) return true;
  console.error('lint: installing tools/lint (npm ci)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // npm's report goes to stderr: stdout carries ESLint's own output (JSON
  // with --format json), which callers parse.
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: toolDir, stdio: [0, 2, 2] });
  if (r.status !== 0 || !existsSync(eslintBin)) return false;
  writeFileSync(stamp, lockHash());
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!ensureLintTools()) {
    console.error('lint: could not install tools/lint; run `npm ci` in tools/lint');
    process.exit(2);
  }
  const args = process.argv.slice(2);
  const r = spawnSync(process.execPath, [eslintBin, '--max-warnings', '0', ...(args.length ? args : ['.'])], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
