// E2E harness: builds the viewer once with vite, serves it from its own
// origin on 127.0.0.1 (port 0) pointed at the reference server through the
// storey-api meta tag, and launches the system Chromium through playwright-core.
// Serving the app apart from the API also exercises CORS and the image policy.

import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { build } from 'vite';
import { inject } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
export const ARTIFACTS_DIR = join(ROOT, 'test-results/e2e');
const DIST_DIR = join(ARTIFACTS_DIR, 'dist');

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

let built: Promise<string> | null = null;

/** The build the e2e global setup made for this run, if any (tests/e2e/globalSetup.ts). */
function providedBuild(): string | null {
  try {
    return inject('viewerDist') ?? null;
  } catch {
    // outside a test worker (the global setup itself)
    return null;
  }
}

/** Builds the viewer into test-results/e2e/dist once per run (or per process without the global setup). */
export function buildViewer(): Promise<string> {
  const given = providedBuild();
  if (given) return Promise.resolve(given);
  built ??= (async () => {
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    // what ships: vitest sets NODE_ENV=test, which would make vite and the React
    // plugin emit a development build (jsxDEV, StrictMode double effects)
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        root: join(ROOT, 'src/ui'),
        configFile: join(ROOT, 'vite.config.ts'),
        logLevel: 'error',
        mode: 'production',
        build: { outDir: DIST_DIR, emptyOutDir: true },
      });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    return DIST_DIR;
  })();
  return built;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.json': 'application/json', '.map': 'application/json',
};

export interface ViewerServer {
  url: string;
  /** closes the port and cuts open connections (the host is down) */
  stop(): Promise<void>;
  /** listens again on the same port */
  start(): Promise<void>;
  /** serves the service worker with this marker appended: to the browser, a new build */
  deploy(marker: string): void;
  close(): Promise<void>;
}

/** Serves the built viewer with index.html pointed at `apiUrl`; unknown paths get index.html. */
export async function serveViewer(distDir: string, apiUrl: string): Promise<ViewerServer> {
  let build = '';
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!)).replace(/^(\.\.[/\\])+/, '');
      let file = join(distDir, path);
      if (!file.startsWith(distDir) || path.endsWith('/')) file = join(distDir, 'index.html');
      let body: Buffer;
      try {
        body = await readFile(file);
      } catch {
        file = join(distDir, 'index.html');
        body = await readFile(file);
      }
      if (file.endsWith('index.html')) {
        body = Buffer.from(body.toString('utf8').replace('<meta name="storey-api" content="" />', `<meta name="storey-api" content="${apiUrl}" />`));
      }
      if (file.endsWith('sw.js') && build) body = Buffer.concat([body, Buffer.from(`\n// ${build}\n`)]);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((done) => {
      server.close(() => done());
      for (const s of sockets) s.destroy();
    });
  return {
    url: `http://127.0.0.1:${port}`,
    stop,
    start: () => new Promise<void>((done) => server.listen(port, '127.0.0.1', done)),
    deploy(marker) {
      build = marker;
    },
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** A browser with a profile on disk, like a user's: service workers, caches and IndexedDB outlive closing it. */
export function launchPersistentChromium(profileDir: string, options: { serviceWorkers?: 'allow' | 'block' } = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, viewport: { width: 1400, height: 900 }, ...options,
  });
}
