#!/usr/bin/env node
// The test command: type-checks every context, lints the tree (docs/lint.md),
// runs every vitest project, and ends with the plain summary line CI reads:
// `N passed, N failed`. Each type-checked context and the lint count as one
// check each. Extra args go to vitest (e.g. `npm test -- --project unit`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';

const contexts = ['tsconfig.json', 'tsconfig.shared.json', 'tsconfig.worker.json', 'tsconfig.ui.json'];
let passed = 0;
let failed = 0;
let skipped = 0;

for (const config of contexts) {
  const r = spawnSync('node_modules/.bin/tsc', ['-p', config], { stdio: 'inherit' });
  if (r.status === 0) {
    passed += 1;
    console.log(`typecheck ${config}: ok`);
  } else {
    failed += 1;
    console.log(`typecheck ${config}: FAILED`);
  }
}

const lint = spawnSync(process.execPath, ['scripts/lint.mjs'], { stdio: 'inherit' });
if (lint.status === 0) {
  passed += 1;
  console.log('lint: ok');
} else {
  failed += 1;
  console.log('lint: FAILED');
}

mkdirSync('test-results', { recursive: true });
const out = 'test-results/vitest.json';
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)];
const run = spawnSync('node_modules/.bin/vitest', args.slice(1), { stdio: 'inherit' });
if (existsSync(out)) {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // a file that fails to load has no tests but must count as a failure
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && (file.assertionResults ?? []).every((a) => a.status !== 'failed')) failed += 1;
  }
} else {
  failed += 1;
  console.log('vitest produced no report');
}
if (run.status !== 0 && failed === 0) failed += 1;

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
