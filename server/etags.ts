// Strong ETags and If-None-Match → 304 on the API's answers (@fastify/etag),
// so a viewer reopened on an unchanged location revalidates its large lists
// (assets, sensors, locations) instead of downloading them again. The tag is a
// hash of the body as this caller gets it, so two roles whose bodies differ
// (an edit user sees unpublished assets) never share a tag, and no caller
// gets a 304 for a body the server would not send them (docs/server.md "ETags").

import fastifyEtag from '@fastify/etag';
import type { FastifyInstance } from 'fastify';
import { isCompressedRoute } from './compression.js';

/** API answers: private (a shared cache keys by URL, not by user) and revalidated on every use (the stream position headers must be today's) */
export const API_CACHE_CONTROL = 'private, no-cache';

export async function registerEtags(app: FastifyInstance): Promise<void> {
  // before the plugin's hook (global onSend hooks run in the order they were added)
  app.addHook('onSend', async (req, reply, payload) => {
    if (!isCompressedRoute(req.url)) return payload;
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (read && !reply.hasHeader('cache-control')) reply.header('cache-control', API_CACHE_CONTROL);
    // preconditions count only where the answer would be a 2xx (RFC 9110 §13.2.1): never a 304 for an error or a write
    if (!read || reply.statusCode < 200 || reply.statusCode >= 300) delete req.headers['if-none-match'];
    return payload;
  });
  // sha256 of the body before compression, so the tag names the JSON itself whichever coding carries it
  await app.register(fastifyEtag, { algorithm: 'sha256' });
}
