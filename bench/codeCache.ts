// Which scripts V8's code cache serves on a warm load in this Chromium (a
// diagnostic, not a target; docs/bench.md "The engine worker's start"): a
// synthetic page whose service worker precaches, at install, a page module, a
// classic page script, a module worker, a classic worker and a module a worker
// imports statically and one it imports with import(), each ~1 MB of
// functions run at load. The page is loaded four times
// on one persistent profile (a relaunch each time) with and without the
// service worker, and each load's trace says per script what compiling cost
// and whether V8 took a cache (classic scripts report the bytes) or made a new
// one (a script that makes one on every load never reuses it).
// `node --import tsx bench/codeCache.ts`

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { launchProfile } from './lib/browser.js';
import { fmt, renderTable } from './lib/report.js';
import { codeCacheUse, pageNavigation, startTrace } from './lib/trace.js';

const LOADS = 4;
const FUNCTIONS = 3000;

/** ~1 MB of small functions, each called once at load (so V8 compiles every one). */
function bigModule(tail: string, exported = true): string {
  const ex = exported ? 'export ' : '';
  let out = '';
  for (let i = 0; i < FUNCTIONS; i++) out += `${ex}function f${i}(x){let s=0;for(let j=0;j<x;j++){s+=j*${i}%7;if(s>1e9)s=0;}return s+${i};}\n`;
  out += 'let acc=0;\n';
  for (let i = 0; i < FUNCTIONS; i++) out += `acc+=f${i}(3);\n`;
  return `${out}${tail}\n`;
}

const FILES: Record<string, string> = {
  'page-module.js': bigModule('document.title=String(acc);'),
  'page-classic.js': bigModule('window.classicDone=acc;', false),
  'worker-module.js': bigModule('postMessage(acc);'),
  'worker-classic.js': bigModule('postMessage(acc);', false),
  'worker-entry.js': 'import "./worker-imported.js";',
  'worker-imported.js': bigModule('postMessage(acc);'),
  'worker-dynamic-entry.js': 'import("./worker-dynamic.js");',
  'worker-dynamic.js': bigModule('postMessage(acc);'),
  'sw.js': `const FILES=${JSON.stringify(['page-module.js', 'page-classic.js', 'worker-module.js', 'worker-classic.js', 'worker-entry.js', 'worker-imported.js', 'worker-dynamic-entry.js', 'worker-dynamic.js'])};
self.addEventListener('install',(e)=>{self.skipWaiting();e.waitUntil(caches.open('c').then((c)=>c.addAll(FILES)))});
self.addEventListener('activate',(e)=>e.waitUntil(clients.claim()));
self.addEventListener('fetch',(e)=>{e.respondWith(caches.match(e.request).then((r)=>r||fetch(e.request)))});`,
};

const page = (sw: boolean) => `<!doctype html><title>code cache</title>${sw ? '<script>navigator.serviceWorker.register("sw.js")</script>' : ''}
<script type="module" src="page-module.js"></script><script src="page-classic.js"></script>
<script>const done={};const mark=(k)=>()=>{done[k]=1;if(Object.keys(done).length===4)window.workersDone=1};
new Worker("worker-module.js",{type:"module"}).onmessage=mark("m");new Worker("worker-classic.js").onmessage=mark("c");new Worker("worker-entry.js",{type:"module"}).onmessage=mark("i");new Worker("worker-dynamic-entry.js",{type:"module"}).onmessage=mark("d")</script>`;

const server = createServer((req, res) => {
  const name = (req.url ?? '/').split('?')[0]!.slice(1);
  const body = name === 'sw.html' ? page(true) : name === 'http.html' ? page(false) : FILES[name];
  if (body === undefined) { res.writeHead(404).end(); return; }
  // the no-service-worker pages may use the HTTP cache for an hour
  res.writeHead(200, { 'content-type': name.endsWith('.html') ? 'text/html' : 'text/javascript', 'cache-control': 'max-age=3600' });
  res.end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const rows: string[][] = [];
for (const how of ['sw', 'http'] as const) {
  const profile = mkdtempSync(join(tmpdir(), 'storey-codecache-'));
  try {
    for (let load = 1; load <= LOADS; load++) {
      const context = await launchProfile(profile);
      const tab = context.pages()[0] ?? await context.newPage();
      await tab.goto('about:blank');
      const tracer = await startTrace(tab);
      await tab.goto(`${origin}/${how}.html`);
      await tab.waitForFunction(() => (window as unknown as { workersDone?: number }).workersDone === 1 && document.title !== 'code cache', null, { timeout: 60_000 });
      await tab.waitForTimeout(1500);
      const events = await tracer.stop();
      await context.close();
      const nav = pageNavigation(events);
      if (!nav) throw new Error('no navigation in the trace');
      for (const c of codeCacheUse(events, nav)) {
        if (!(c.script in FILES) || c.script === 'sw.js' || c.script === 'worker-entry.js' || c.script === 'worker-dynamic-entry.js' || c.thread === 'ServiceWorker thread') continue;
        rows.push([how === 'sw' ? 'service worker (precached)' : 'HTTP cache', String(load), c.script, c.thread, fmt(c.compileMs), c.consumed === null ? '–' : String(c.consumed), c.produced === null ? '–' : String(c.produced)]);
      }
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
server.close();

console.log('\n## V8 code cache per script and load (Chromium on one profile, relaunched each load)\n');
console.log(renderTable(['served from', 'load', 'script', 'thread', 'compile ms', 'cache bytes used', 'cache bytes made'], rows));
console.log('  · "used" is reported for classic scripts only; a module script that makes no cache on a later load used the one it had');
console.log(`  · load average ${loadavg().map((l) => l.toFixed(2)).join(', ')} (1, 5, 15 min)`);
