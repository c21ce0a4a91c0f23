// ETags and If-None-Match → 304 on the API's answers (@fastify/etag), so a
// viewer reopened on an unchanged location revalidates its large lists
// (assets, sensors, locations) instead of downloading them again. The tag is a
// hash of the JSON as this caller gets it, so two roles whose bodies differ
// (an edit user sees unpublished assets) never share a tag, and no caller
// gets a 304 for a body the server would not send them. It is weak (`W/"…"`):
// it names the JSON, not the bytes of one coding (br, gzip or none), which a
// strong tag would have to (RFC 9110 §8.8.3). The large lists keep their tag
// with the version of the store their body reflects, so revalidating them
// builds no body at all (docs/server.md "ETags").

import fastifyEtag from '@fastify/etag';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isCompressedRoute } from './compression.js';

/** API answers: private (a shared cache keys by URL, not by user) and revalidated on every use (the stream position headers must be today's) */
export const API_CACHE_CONTROL = 'private, no-cache';

/** Lists whose tag is kept, at most (the oldest is forgotten first); one a location and audience is the usual need. */
export const KEPT_VALIDATORS_MAX = 1_000;

/**
 * What a list's body depends on besides its URL: the audience it is built for
 * (the edit role's or the public's, never shared) and a version that moves
 * with every change of its location or organization (routes/guard.ts
 * `listValidity`: where both of the scope's streams stand; every mutation is
 * published on one of them in the same step).
 */
export interface ListValidity {
  audience: string;
  version: string;
}

/** The tags of list answers kept per audience and URL with the version their body reflects: while it stands, the tag stands. */
export interface ListValidators {
  /**
   * Call after the caller's access is checked and the stream headers are set,
   * before building the body. Answers 304 at once when `If-None-Match` names
   * the tag kept for this audience and URL at this version (returns true: the
   * answer is sent); else the body is built, and its tag is kept.
   */
  revalidate(req: FastifyRequest, reply: FastifyReply, validity: ListValidity): boolean;
}

interface Kept {
  version: string;
  etag: string;
}

/** If-None-Match names `etag` (a list of tags or `*`, weak comparison: RFC 9110 §13.1.2) */
function names(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}

export async function registerEtags(app: FastifyInstance): Promise<ListValidators> {
  const kept = new Map<string, Kept>();
  const pending = new WeakMap<FastifyRequest, { key: string; version: string }>();

  app.addHook('onSend', async (req, reply, payload) => {
    if (!isCompressedRoute(req.url)) return payload;
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (read && !reply.hasHeader('cache-control')) reply.header('cache-control', API_CACHE_CONTROL);
    // preconditions count only where the answer would be a 2xx (RFC 9110 §13.2.1): never a 304 for an error or a write
    if (!read || reply.statusCode < 200 || reply.statusCode >= 300) delete req.headers['if-none-match'];
    return payload;
  });
  // a hash of the body before compression, so the tag names the JSON itself whichever coding carries it
  await app.register(fastifyEtag, { algorithm: 'sha256', weak: true, replyWith304: false });
  // after the plugin's hook: a list's tag is kept with the position its body reflects, and If-None-Match is
  // compared here (a list of tags, weak comparison) the same way for every answer as `revalidate` does
  app.addHook('onSend', async (req, reply, payload) => {
    const etag = reply.getHeader('etag');
    if (typeof etag !== 'string' || reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    const list = pending.get(req);
    if (list) {
      kept.delete(list.key);
      kept.set(list.key, { version: list.version, etag });
      if (kept.size > KEPT_VALIDATORS_MAX) kept.delete(kept.keys().next().value!);
    }
    if (!names(req.headers['if-none-match'], etag)) return payload;
    reply.code(304);
    return '';
  });

  return {
    revalidate(req, reply, { audience, version }) {
      const key = `${audience} ${req.url}`;
      const tag = kept.get(key);
      if (tag?.version !== version) {
        pending.set(req, { key, version });
        return false;
      }
      // the body would be the one this tag names: a 200 need not hash it again, a 304 need not build it
      reply.header('etag', tag.etag);
      if (!names(req.headers['if-none-match'], tag.etag)) return false;
      // a 304 carries the Vary its 200 would (RFC 9110 §15.4.5); a list's 200 is compressed by Accept-Encoding
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
      reply.code(304).send();
      return true;
    },
  };
}
