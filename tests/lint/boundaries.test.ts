// The lint guards the design (DESIGN §1-2, docs/lint.md): scratch files that
// break each rule are written where the rule applies (inside src/ and server/),
// linted with the same command `npm test` runs, and removed again. Allowed
// uses sit beside the violations, so a rule that flags everything fails too.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SCRATCH = '__lint_scratch__';
const scratchDirs = ['src/shared', 'src/worker', 'src/ui', 'server', 'tests'].map((d) => join(root, d, SCRATCH));

const FILES: Record<string, string> = {
  'src/shared/__lint_scratch__/layers.ts': `
import { createEngine } from '../../worker/engine.js';
import type { EngineDeps } from '../../worker/engine.js';
import { App } from '../../ui/App.js';
import { createServer } from '../../../server/app.js';
import { startTestServer } from '../../../tests/helpers/server.js';
import { SPEC_MESSAGES } from '../messages.js';
export const used = [createEngine, App, createServer, startTestServer, SPEC_MESSAGES] as unknown as EngineDeps;
`,
  'src/shared/__lint_scratch__/time.ts': `
export const a = Date.now();
export const b = new Date();
export const c = new Date(0);
export const d = performance.now();
setTimeout(() => undefined, 1);
export function later(clock: { setTimeout(fn: () => void, ms: number): unknown }) { return clock.setTimeout(() => undefined, 1); }
queueMicrotask(() => undefined);
`,
  'src/worker/__lint_scratch__/adapters.ts': `
import mqtt from 'mqtt';
import * as Comlink from 'comlink';
import { expose } from 'comlink';
import { App } from '../../ui/App.js';
import { parseAsset } from '../../shared/normalize/asset.js';
import { createScheduler } from '../scheduler.js';
export const used = [mqtt, expose, App, parseAsset, createScheduler];
export const pako = import('pako');
Comlink.expose({});
self.postMessage('hello');
globalThis.setTimeout(() => undefined, 1);
const id = setInterval(() => undefined, 1000);
clearInterval(id);
`,
  'src/ui/__lint_scratch__/Scratch.tsx': `
import { useEffect, useState } from 'react';
import { openDB } from 'idb';
import { createEngine } from '../../worker/engine.js';
import type { EngineDeps } from '../../worker/engine.js';
import { SELF_KEY } from '../../shared/api.js';
export const used: unknown[] = [openDB, createEngine, SELF_KEY];
export const engine = new Worker(new URL('../../worker/entry.ts', import.meta.url), { type: 'module' });
export const engine2 = new Worker(new URL('../../worker/engine.ts', import.meta.url), { type: 'module' });
export function Scratch({ deps, on }: { deps: EngineDeps; on: boolean }) {
  const [count, setCount] = useState(0);
  if (on) useState(1);
  useEffect(() => {
    const t = setTimeout(() => setCount(count + 1), 1000);
    return () => clearTimeout(t);
  }, []);
  return <p>{String(deps)}{count}</p>;
}
`,
  'server/__lint_scratch__/layers.ts': `
import { deflate } from 'pako';
import { createEngine } from '../../src/worker/engine.js';
import { App } from '../../src/ui/App.js';
import { SPEC_MESSAGES } from '../../src/shared/messages.js';
import { createServer } from '../app.js';
export const used = [deflate, createEngine, App, SPEC_MESSAGES, createServer, Date.now(), setTimeout];
`,
  'src/worker/__lint_scratch__/recommended.ts': `
export function parse(text: string): any { return JSON.parse(text); }
const unused = 1;
export function onEvent(_event: unknown) { const { drop: _drop, ...rest } = { drop: 1, keep: 2 }; return rest; }
`,
  'tests/__lint_scratch__/fake.ts': `
export const fake = { connect: () => undefined } as any;
const unusedInTest = 1;
`,
  'src/worker/__lint_scratch__/directives.ts': `
// eslint-disable-next-line no-restricted-globals
export const a = setTimeout;
// eslint-disable-next-line no-restricted-properties -- nothing here needs it
export const b = 1;
`,
};

const M = {
  shared: 'src/shared imports nothing of ours: no worker, ui or server (DESIGN §1)',
  worker: 'src/worker imports src/shared and itself only, never ui or server (DESIGN §1)',
  ui: 'src/ui imports src/shared; of the worker only types (`import type`) and the entry URL via `new Worker(new URL(...))` (DESIGN §1)',
  workerUrl: "src/ui starts the worker from its entry only: `new Worker(new URL('../../worker/entry.ts', import.meta.url))` (DESIGN §1)",
  server: 'server imports src/shared, never src/worker or src/ui (DESIGN §1)',
  adapter: 'Only adapter files import mqtt, pusher-js, idb or pako; go through the port instead (DESIGN §1, docs/lint.md)',
  expose: 'Only the worker entry (src/worker/entry.ts) calls Comlink.expose (DESIGN §1)',
  self: 'Only the worker entry (src/worker/entry.ts) touches `self` (DESIGN §1)',
  timer: 'Worker and shared code schedule through the injected clock (`clock.setTimeout`), never a global timer (DESIGN §2)',
  now: 'Worker and shared code read time only through the injected clock (`clock.now()` or the corrected now), never the wall clock (DESIGN §2)',
};

interface Finding { line: number; rule: string | null; message: string; severity: number }
let findings: Record<string, Finding[]> = {};
let status: number | null = null;
let output = '';

/** The findings of one scratch file on one source line (1-based, the file's own numbering). */
function at(file: string, line: number): Array<{ rule: string | null; message: string }> {
  return (findings[file] ?? []).filter((f) => f.line === line).map(({ rule, message }) => ({ rule, message }));
}
const sourceOf = (file: string) => FILES[file]!.replace(/^\n/, '');
const lineOf = (file: string, text: string) => sourceOf(file).split('\n').findIndex((l) => l.includes(text)) + 1;
const on = (file: string, text: string) => at(file, lineOf(file, text));

function removeScratch() {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
}

describe('lint', () => {
  beforeAll(() => {
    removeScratch();
    for (const file of Object.keys(FILES)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), sourceOf(file));
    }
    const r = spawnSync(process.execPath, ['scripts/lint.mjs', '--format', 'json', ...Object.keys(FILES)], { cwd: root, encoding: 'utf8' });
    status = r.status;
    output = r.stdout;
    const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ line: number; ruleId: string | null; message: string; severity: number }> }>;
    findings = Object.fromEntries(results.map((res) => [
      relative(root, res.filePath),
      res.messages.map((m) => ({ line: m.line, rule: m.ruleId, message: m.message, severity: m.severity })),
    ]));
  }, 120_000);
  afterAll(removeScratch);

  it('fails the lint command on a deliberate violation', () => {
    expect(output).not.toBe('');
    expect(status).toBe(1);
  });

  describe('import boundaries (DESIGN §1)', () => {
    const f = 'src/shared/__lint_scratch__/layers.ts';
    it('keeps src/shared from importing worker, ui, server or tests, even as a type', () => {
      for (const text of ["from '../../worker/engine.js';\nimport type", "import type { EngineDeps }", '../../ui/App.js', '../../../server/app.js', 'tests/helpers/server.js']) {
        const line = text.includes('\n') ? lineOf(f, text.split('\n')[0]!) : lineOf(f, text);
        expect(at(f, line)).toEqual([{ rule: 'boundaries/dependencies', message: M.shared }]);
      }
    });
    it('lets src/shared import itself', () => {
      expect(on(f, '../messages.js')).toEqual([]);
    });

    it('keeps src/worker from importing ui, and lets it import shared and itself', () => {
      const w = 'src/worker/__lint_scratch__/adapters.ts';
      expect(on(w, '../../ui/App.js')).toEqual([{ rule: 'boundaries/dependencies', message: M.worker }]);
      expect(on(w, '../../shared/normalize/asset.js')).toEqual([]);
      expect(on(w, '../scheduler.js')).toEqual([]);
    });

    it('lets src/ui import the worker only as types and start it from its entry URL', () => {
      const u = 'src/ui/__lint_scratch__/Scratch.tsx';
      expect(on(u, "import { createEngine } from '../../worker/engine.js'")).toEqual([{ rule: 'boundaries/dependencies', message: M.ui }]);
      expect(on(u, 'import type { EngineDeps }')).toEqual([]);
      expect(on(u, '../../shared/api.js')).toEqual([]);
      expect(on(u, 'worker/entry.ts')).toEqual([]);
      expect(on(u, 'worker/engine.ts')).toEqual([{ rule: 'no-restricted-syntax', message: M.workerUrl }]);
    });

    it('keeps server from importing worker or ui, and lets it import shared', () => {
      const s = 'server/__lint_scratch__/layers.ts';
      expect(on(s, 'src/worker/engine.js')).toEqual([{ rule: 'boundaries/dependencies', message: M.server }]);
      expect(on(s, 'src/ui/App.js')).toEqual([{ rule: 'boundaries/dependencies', message: M.server }]);
      expect(on(s, 'src/shared/messages.js')).toEqual([]);
      expect(on(s, "from '../app.js'")).toEqual([]);
    });

    it('lets only adapter files import mqtt, pusher-js, idb or pako, statically or lazily', () => {
      expect(on('src/worker/__lint_scratch__/adapters.ts', "from 'mqtt'")).toEqual([{ rule: 'boundaries/dependencies', message: M.adapter }]);
      expect(on('src/worker/__lint_scratch__/adapters.ts', "import('pako')")).toEqual([{ rule: 'boundaries/dependencies', message: M.adapter }]);
      expect(on('src/ui/__lint_scratch__/Scratch.tsx', "from 'idb'")).toEqual([{ rule: 'boundaries/dependencies', message: M.adapter }]);
      expect(on('server/__lint_scratch__/layers.ts', "from 'pako'")).toEqual([{ rule: 'boundaries/dependencies', message: M.adapter }]);
      // other libraries stay free
      expect(on('src/ui/__lint_scratch__/Scratch.tsx', "from 'react'")).toEqual([]);
    });

    it('lets only the worker entry touch self or call Comlink.expose', () => {
      const w = 'src/worker/__lint_scratch__/adapters.ts';
      expect(on(w, "import * as Comlink from 'comlink'")).toEqual([]);
      expect(on(w, 'Comlink.expose({})')).toEqual([{ rule: 'no-restricted-properties', message: `'Comlink.expose' is restricted from being used. ${M.expose}` }]);
      expect(on(w, "import { expose } from 'comlink'")).toEqual([{ rule: 'no-restricted-syntax', message: M.expose }]);
      expect(on(w, "self.postMessage('hello')")).toEqual([{ rule: 'no-restricted-globals', message: `Unexpected use of 'self'. ${M.self}` }]);
    });
  });

  describe('time through the injected clock (DESIGN §2)', () => {
    const t = 'src/shared/__lint_scratch__/time.ts';
    it('refuses the wall clock in shared and worker code', () => {
      expect(on(t, 'Date.now()')).toEqual([{ rule: 'no-restricted-properties', message: `'Date.now' is restricted from being used. ${M.now}` }]);
      expect(on(t, 'new Date();')).toEqual([{ rule: 'no-restricted-syntax', message: M.now }]);
      expect(on(t, 'performance.now()')).toEqual([{ rule: 'no-restricted-properties', message: `'performance.now' is restricted from being used. ${M.now}` }]);
    });
    it('refuses global timers, however reached', () => {
      const w = 'src/worker/__lint_scratch__/adapters.ts';
      expect(on(t, 'setTimeout(() => undefined, 1);')).toEqual([{ rule: 'no-restricted-globals', message: `Unexpected use of 'setTimeout'. ${M.timer}` }]);
      expect(on(w, 'globalThis.setTimeout')).toEqual([{ rule: 'no-restricted-properties', message: `'globalThis.setTimeout' is restricted from being used. ${M.timer}` }]);
      expect(on(w, 'setInterval(')).toEqual([{ rule: 'no-restricted-globals', message: `Unexpected use of 'setInterval'. ${M.timer}` }]);
      expect(on(w, 'clearInterval(')).toEqual([{ rule: 'no-restricted-globals', message: `Unexpected use of 'clearInterval'. ${M.timer}` }]);
    });
    it('allows a date from a value, an injected clock and queueMicrotask', () => {
      expect(on(t, 'new Date(0)')).toEqual([]);
      expect(on(t, 'clock.setTimeout')).toEqual([]);
      expect(on(t, 'queueMicrotask')).toEqual([]);
    });
    it('leaves timers to the UI, which is not engine code', () => {
      const u = 'src/ui/__lint_scratch__/Scratch.tsx';
      expect(on(u, 'const t = setTimeout').filter((x) => x.rule?.startsWith('no-restricted'))).toEqual([]);
    });
    it('allows Date.now and setTimeout in server code, which has its own clock', () => {
      expect(on('server/__lint_scratch__/layers.ts', 'Date.now()').filter((x) => x.rule !== 'boundaries/dependencies')).toEqual([]);
    });
  });

  describe('react hooks (src/ui)', () => {
    const u = 'src/ui/__lint_scratch__/Scratch.tsx';
    it('refuses a conditional hook', () => {
      expect(on(u, 'if (on) useState(1)').map((x) => x.rule)).toContain('react-hooks/rules-of-hooks');
    });
    it('refuses an effect that hides a dependency (a warning, and warnings fail)', () => {
      expect(on(u, '}, []);')).toEqual([{
        rule: 'react-hooks/exhaustive-deps',
        message: "React Hook useEffect has a missing dependency: 'count'. Either include it or remove the dependency array. You can also do a functional update 'setCount(c => ...)' if you only need 'count' in the 'setCount' call.",
      }]);
    });
  });

  describe('typescript-eslint recommended', () => {
    const r = 'src/worker/__lint_scratch__/recommended.ts';
    it('refuses any and unused bindings in app code', () => {
      expect(on(r, 'string): any').map((x) => x.rule)).toEqual(['@typescript-eslint/no-explicit-any']);
      expect(on(r, 'const unused = 1')).toEqual([{ rule: '@typescript-eslint/no-unused-vars', message: "'unused' is assigned a value but never used. Allowed unused vars must match /^_/u." }]);
    });
    it('lets `_name` and a field dropped by a rest pattern go unused', () => {
      expect(on(r, 'onEvent(_event')).toEqual([]);
    });
    it('lets test fakes cast to any, but not leave bindings unused', () => {
      const t = 'tests/__lint_scratch__/fake.ts';
      expect(on(t, 'as any')).toEqual([]);
      expect(on(t, 'unusedInTest').map((x) => x.rule)).toEqual(['@typescript-eslint/no-unused-vars']);
    });
  });

  describe('eslint-disable comments', () => {
    const d = 'src/worker/__lint_scratch__/directives.ts';
    it('must say why', () => {
      expect(at(d, 1).map((x) => x.rule)).toEqual(['@eslint-community/eslint-comments/require-description']);
    });
    it('must silence something', () => {
      expect(at(d, 3)).toEqual([{ rule: null, message: "Unused eslint-disable directive (no problems were reported from 'no-restricted-properties')." }]);
    });
  });
});
