// API answers compressed when the client accepts it (HTTP content
// negotiation through @fastify/compress): the 10,000-desk location's asset and sensor
// lists are 21 MB of JSON, which a user on a real network waits for. Browsers
// and Node's fetch (undici) ask for br and gzip and decode the body
// themselves. Request bodies are never inflated, so a small request cannot
// become a large one behind the body limits (docs/security.md). The levels
// are chosen from bench/restCompression.ts (docs/bench.md "REST compressed").

import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import { constants } from 'node:zlib';

/** brotli's fastest quality: the lists 13.7× smaller for less CPU than any gzip level */
export const BROTLI_QUALITY = 1;
/** for clients without br (Node's fetch asks for gzip and deflate): the fastest level, 11.3× */
export const GZIP_LEVEL = 1;
/** answers below this many bytes go out as they are */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/**
 * Answers in memory up to this size are compressed in one call, not streamed
 * through the thread pool in chunks: the asset list (11 MB) then costs the
 * server no more CPU than sent plain (fewer socket writes), where the stream
 * cost 2.5× (docs/bench.md). Files served from disk still stream.
 */
export const COMPRESS_SYNC_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The API's answers only (`/v1/…`, `/v2/…`). The viewer's files (`--static`,
 * for development, demos and benches; production serves the viewer from a
 * host with its own compression) go out as before, so the app's start through
 * its service worker and V8's code cache is what it was (docs/bench.md).
 */
export function isCompressedRoute(url: string): boolean {
  return url.startsWith('/v1/') || url.startsWith('/v2/');
}

export async function registerCompression(app: FastifyInstance): Promise<void> {
  // before the plugin's own onRoute hook, which reads `compress` of each route
  app.addHook('onRoute', (route) => {
    if (!isCompressedRoute(route.url) && route.compress === undefined) route.compress = false;
  });
  await app.register(fastifyCompress, {
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    syncThreshold: COMPRESS_SYNC_MAX_BYTES,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } },
    zlibOptions: { level: GZIP_LEVEL },
  });
}
