// The lint that guards the design (DESIGN §1, STYLE §7): import boundaries
// between shared, worker, ui and server; adapter-only libraries; the worker
// entry as the only owner of `self` and Comlink.expose; time only through the
// injected clock; the React hooks rules. Kept here, beside its own TypeScript
// 6 (typescript-eslint needs the JS compiler API; the app builds with the
// native TypeScript 7). Why and how: docs/lint.md.

import boundaries from 'eslint-plugin-boundaries';
import comments from '@eslint-community/eslint-plugin-eslint-comments';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Files that may import a technology's library (STYLE: adapters named for the technology). */
export const ADAPTER_FILES = [
  'src/worker/transports/mqttTransport.ts',
  'src/worker/transports/pusherTransport.ts',
  'src/worker/storage/idbStorage.ts',
  'src/worker/storage/idbPageCache.ts',
  'src/worker/decode.ts',
  'server/live/mqttTransport.ts',
  'server/live/packetCodec.ts',
];
export const ADAPTER_LIBRARIES = ['mqtt', 'mqtt/**', 'pusher-js', 'pusher-js/**', 'idb', 'idb/**', 'pako', 'pako/**'];
export const WORKER_ENTRY = 'src/worker/entry.ts';
/** The one place worker and shared code may read the wall clock and the global timers. */
export const CLOCK_ADAPTER = 'src/worker/systemClock.ts';

export const MESSAGES = {
  sharedImports: 'src/shared imports nothing of ours: no worker, ui or server (DESIGN §1)',
  workerImports: 'src/worker imports src/shared and itself only, never ui or server (DESIGN §1)',
  uiImports:
    'src/ui imports src/shared; of the worker only types (`import type`) and the entry URL via `new Worker(new URL(...))` (DESIGN §1)',
  workerUrl: 'src/ui starts the worker from its entry only: `new Worker(new URL(\'../../worker/entry.ts\', import.meta.url))` (DESIGN §1)',
  serverImports: 'server imports src/shared, never src/worker or src/ui (DESIGN §1)',
  adapterOnly:
    'Only adapter files import mqtt, pusher-js, idb or pako; go through the port instead (DESIGN §1, docs/lint.md)',
  comlinkExpose: 'Only the worker entry (src/worker/entry.ts) calls Comlink.expose (DESIGN §1)',
  self: 'Only the worker entry (src/worker/entry.ts) touches `self` (DESIGN §1)',
  timer: 'Worker and shared code schedule through the injected clock (`clock.setTimeout`), never a global timer (DESIGN §2)',
  now: 'Worker and shared code read time only through the injected clock (`clock.now()` or the corrected now), never the wall clock (DESIGN §2)',
};

const GLOBAL_TIMERS = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'requestAnimationFrame', 'cancelAnimationFrame'];
const TIMER_OWNERS = ['globalThis', 'self', 'window'];

/**
 * The global-access rules for one kind of file. Built here, not stacked per
 * glob, because flat config replaces a rule's options instead of merging them.
 */
function globalsRules({ self, comlinkExpose, clock, workerUrl = false }) {
  const globals = [];
  const properties = [];
  const syntax = [];
  if (self) globals.push({ name: 'self', message: MESSAGES.self });
  if (comlinkExpose) {
    properties.push({ object: 'Comlink', property: 'expose', message: MESSAGES.comlinkExpose });
    syntax.push({ selector: "ImportDeclaration[source.value='comlink'] ImportSpecifier[imported.name='expose']", message: MESSAGES.comlinkExpose });
  }
  if (workerUrl) {
    // boundaries sees imports; the worker's URL is a string, so this guards it
    syntax.push({ selector: "NewExpression[callee.name='URL'] > Literal[value=/\\bworker\\b/]:not([value=/worker.entry[.]ts$/])", message: MESSAGES.workerUrl });
  }
  if (clock) {
    for (const name of GLOBAL_TIMERS) {
      globals.push({ name, message: MESSAGES.timer });
      for (const object of TIMER_OWNERS) properties.push({ object, property: name, message: MESSAGES.timer });
    }
    properties.push({ object: 'Date', property: 'now', message: MESSAGES.now });
    properties.push({ object: 'performance', property: 'now', message: MESSAGES.now });
    syntax.push({ selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: MESSAGES.now });
    syntax.push({ selector: "CallExpression[callee.name='Date']", message: MESSAGES.now });
  }
  return {
    'no-restricted-globals': ['error', ...globals],
    'no-restricted-properties': ['error', ...properties],
    'no-restricted-syntax': ['error', ...syntax],
  };
}

const layer = (type) => ({ to: { element: { type } } });
const LOCAL = { to: { module: { origin: 'local' } } };

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', 'dist/**', 'test-results/**', '.tmp/**', 'tools/lint/node_modules/**'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    // typescript-eslint's recommended set, without type information (tsc 7 checks types)
    extends: [tseslint.configs.recommended],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    plugins: { '@eslint-community/eslint-comments': comments },
    rules: {
      // `_name` marks a deliberate unused binding; `{ omit, ...rest }` drops a field
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true,
      }],
      // a disable says why (`-- reason`); an unused one is an error (linterOptions)
      '@eslint-community/eslint-comments/require-description': ['error', { ignore: [] }],
      '@eslint-community/eslint-comments/no-unlimited-disable': 'error',
    },
  },
  {
    // fakes stand in for libraries' objects; a cast to `any` there is the point, not a hole
    files: ['tests/**/*.{ts,tsx}', 'bench/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': process.cwd(),
      'boundaries/elements': [
        { type: 'shared', pattern: 'src/shared', partialMatch: false },
        { type: 'worker', pattern: 'src/worker', partialMatch: false },
        { type: 'ui', pattern: 'src/ui', partialMatch: false },
        { type: 'server', pattern: 'server', partialMatch: false },
      ],
      'boundaries/files': [
        { category: 'adapter', pattern: ADAPTER_FILES },
      ],
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/legacy-templates': false,
      'import/resolver': { typescript: {} },
    },
    rules: {
      'boundaries/dependencies': ['error', {
        default: 'disallow',
        checkAllOrigins: true,
        // src and server never reach into tests, bench or scripts
        checkUnknownLocals: true,
        policies: [
          // libraries and Node built-ins are free, except the adapters' own
          { allow: { to: { module: { origin: ['external', 'core'] } } } },
          { disallow: { to: { module: { source: ADAPTER_LIBRARIES } } }, message: MESSAGES.adapterOnly },
          { from: { file: { categories: 'adapter' } }, allow: { to: { module: { source: ADAPTER_LIBRARIES } } } },
          // our own files: each layer refuses everything local (with its rule
          // as the message), then allows what DESIGN §1 allows; the last match wins
          { from: { element: { type: 'shared' } }, disallow: LOCAL, message: MESSAGES.sharedImports },
          { from: { element: { type: 'shared' } }, allow: layer('shared') },
          { from: { element: { type: 'worker' } }, disallow: LOCAL, message: MESSAGES.workerImports },
          { from: { element: { type: 'worker' } }, allow: [layer('worker'), layer('shared')] },
          { from: { element: { type: 'ui' } }, disallow: LOCAL, message: MESSAGES.uiImports },
          { from: { element: { type: 'ui' } }, allow: [layer('ui'), layer('shared')] },
          { from: { element: { type: 'ui' } }, allow: { ...layer('worker'), dependency: { kind: 'type' } } },
          { from: { element: { type: 'server' } }, disallow: LOCAL, message: MESSAGES.serverImports },
          { from: { element: { type: 'server' } }, allow: [layer('server'), layer('shared')] },
        ],
      }],
    },
  },
  // time and globals, per kind of file
  { files: ['src/shared/**/*.ts', 'src/worker/**/*.ts'], rules: globalsRules({ self: true, comlinkExpose: true, clock: true }) },
  { files: [WORKER_ENTRY], rules: globalsRules({ self: false, comlinkExpose: false, clock: true }) },
  { files: [CLOCK_ADAPTER], rules: globalsRules({ self: true, comlinkExpose: true, clock: false }) },
  { files: ['src/ui/**/*.{ts,tsx}'], rules: globalsRules({ self: true, comlinkExpose: true, clock: false, workerUrl: true }) },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // the rules of hooks and exhaustive deps; not the React Compiler's own
    // diagnostics (refs, purity, set-state-in-effect, …): the app does not
    // compile with it, and they refuse patterns that are correct without it
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
