#!/usr/bin/env node
// Runs ESLint from its own tool package (tools/lint: typescript-eslint needs
// the JS TypeScript API, the app builds with the native TypeScript 7; see
// docs/lint.md). Installs that package first when it is missing or older than
// its lockfile, so a fresh clone or a rebase that moved the lockfile just works.
// Extra args go to ESLint (default: the whole tree, warnings fail).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolDir = join(root, 'tools/lint');
const eslintBin = join(toolDir, 'node_modules/eslint/bin/eslint.js');

/** True when tools/lint/node_modules matches tools/lint/package-lock.json. */
function installed() {
  const hidden = join(toolDir, 'node_modules/.package-lock.json');
  if (!existsSync(eslintBin) || !existsSync(hidden)) return false;
  return statSync(hidden).mtimeMs >= statSync(join(toolDir, 'package-lock.json')).mtimeMs;
}

export function ensureLintTools() {
  if (installed()) return true;
  console.error('lint: installing tools/lint (npm ci)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: toolDir, stdio: 'inherit' });
  return r.status === 0 && existsSync(eslintBin);
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
