import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

const DAY_S = 86_400;

/** The bundler's wrapper of a CommonJS module (React, React DOM, qs…): an arrow function in parentheses. */
const COMMONJS_WRAPPER = /__commonJSMin\(\(\(([\w$]+(?:, [\w$]+)*)\) => \{/g;

/**
 * The page's CommonJS modules compiled with their chunk, not when they first run (issue 14: no
 * main-thread task over 50 ms). V8 compiles an arrow function when it is first called, on the main
 * thread: React DOM's wrapper, ~450 KB of code, was parsed inside the app chunk's evaluation, the
 * saved → live swap's longest task (50-150 ms at load 4-6). A function expression in parentheses is
 * compiled with its script, which Chromium does off the main thread while the script streams in, or
 * reads from its code cache (docs/bench.md, "Reopen: the swap and cold load without long tasks").
 * The page's build only: the engine worker's bundle has plugins of its own.
 */
function eagerCommonJs(): Plugin {
  return {
    name: 'storey:eager-commonjs',
    apply: 'build',
    renderChunk(code) {
      if (!code.includes('__commonJSMin(((')) return null;
      return { code: code.replace(COMMONJS_WRAPPER, '__commonJSMin((function($1) {'), map: null };
    },
  };
}

// The viewer app (src/ui) and its engine worker (src/worker/entry.ts), served
// through a Workbox service worker that precaches the built app shell, so a
// reload with no network still starts the app (docs/ui.md, offline shell).
export default defineConfig({
  root: 'src/ui',
  plugins: [
    react(),
    eagerCommonJs(),
    VitePWA({
      // a new build waits until the user reloads from the "update available" prompt
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico}'],
        navigateFallback: 'index.html',
        // API and live endpoints are never the app shell
        navigateFallbackDenylist: [/^\/v\d+\//, /^\/pusher\//],
        cleanupOutdatedCaches: true,
        // the first install takes the open page, so the images it loads from then on are cached
        clientsClaim: true,
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        runtimeCaching: [
          {
            // floor plans, avatars, textures: only URLs the image policy allowed are ever drawn
            urlPattern: ({ request }) => request.destination === 'image',
            handler: 'StaleWhileRevalidate',
            options: {
              cacheName: 'storey-images',
              expiration: { maxEntries: 400, maxAgeSeconds: 30 * DAY_S },
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
  ],
  worker: { format: 'es' },
  build: { outDir: '../../dist', emptyOutDir: true, target: 'es2022' },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
});
