// Real Chromium for the browser benches: vite production builds of the app
// (or a bench page) into a temp dir, a static file server on 127.0.0.1:0, and
// Chromium with the e2e flags, either plain or on a persistent profile so
// IndexedDB survives a relaunch (a real reopen).

import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { build } from 'vite';

export const ROOT = resolve(import.meta.dirname, '../..');

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
export const VIEWPORT = { width: 1400, height: 900 };

/** A production build of the page whose index.html is in `root` (the app: src/ui); `minify: false` keeps the names (profiles). */
/** A bench page of `root` (index.html) built into `outDir`; `base: './'` when it is served from a sub-folder. */
export async function buildPage(root: string, outDir: string, options: { minify?: boolean; base?: string } = {}): Promise<void> {
  // what ships: NODE_ENV decides React's production build
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root,
      configFile: false,
      plugins: [react()],
      worker: { format: 'es' },
      logLevel: 'error',
      mode: 'production',
      ...(options.base ? { base: options.base } : {}),
      build: { outDir, emptyOutDir: true, target: 'es2022', ...(options.minify === false ? { minify: false } : {}) },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/** The viewer app exactly as `npm run build` makes it (vite.config.ts), into `outDir`; `root`: another checkout's. */
export async function buildApp(outDir: string, options: { minify?: boolean; root?: string } = {}): Promise<void> {
  const root = options.root ?? ROOT;
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: join(root, 'src/ui'),
      configFile: join(root, 'vite.config.ts'),
      logLevel: 'error',
      mode: 'production',
      // unminified for profiles, so functions keep their names
      build: { outDir, emptyOutDir: true, ...(options.minify === false ? { minify: false } : {}) },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json',
  '.webmanifest': 'application/manifest+json', '.png': 'image/png',
};

/** Serves a directory; unknown paths get 404 (pages are opened by their file name). */
export async function serveDir(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    readFile(file.startsWith(dir) ? file : join(dir, 'index.html')).then(
      (body) => { res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }); res.end(body); },
      () => { res.writeHead(404); res.end(); },
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** Chromium on a profile directory: IndexedDB, the service worker and its caches survive closing it. */
export function launchProfile(dir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, viewport: VIEWPORT });
}
