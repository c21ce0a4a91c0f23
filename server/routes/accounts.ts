// Sign-in and account flows of spec §7: /login, /openid_login, /signup,
// /auth_uri, /recover_password, users/{id}/password, /current_time,
// /v2/settings and /pusher/auth. Mails go to the local outbox.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { scopeFromPusherChannel } from '../../src/shared/protocol.js';
import {
  PASSWORD_MIN_LENGTH, SESSION_COOKIE, type AcceptedResponse, type AuthUriResponse, type CurrentTimeResponse,
  type LoginResponse, type SetPasswordRequest,
} from '../../src/shared/rest.js';
import type { Settings } from '../../src/shared/types.js';
import {
  TOKEN_LIFETIME_MS, IdTokenError, consumeMailCode, hashPassword, issueMailCode, issueToken, verifyIdToken, verifyPassword,
} from '../auth.js';
import type { MailCodePurpose } from '../store/records.js';
import { HttpError, canFollowScope, currentUser, notFound } from './guard.js';
import type { RouteContext } from './context.js';
import { emailSchema, idParam, objectSchema } from './schemas.js';

const SUBJECTS: Record<MailCodePurpose, string> = {
  signup: 'Finish signing up to Storey',
  recover: 'Reset your Storey password',
  invite: 'You are invited to Storey',
};

export async function accountRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  const { store, outbox } = ctx;
  const now = () => store.clock.now();

  function mailCode(req: FastifyRequest, userId: string, purpose: MailCodePurpose): void {
    const user = store.users.get(userId)!;
    const code = issueMailCode(store, user.id, purpose);
    const link = `${req.protocol}://${req.host}/#/set-password?organization=${user.organization_id}&user=${user.id}&code=${code}`;
    outbox.send({
      to: user.email, subject: SUBJECTS[purpose], purpose, code, user_id: user.id, organization_id: user.organization_id,
      text: `Hello ${user.first_name || user.email},\n\nSet your password here within 24 hours:\n${link}\n`, sent_at: now(),
    });
  }
  ctx.mailCode = mailCode;

  function signIn(reply: import('fastify').FastifyReply, userId: string): LoginResponse {
    const user = store.users.get(userId)!;
    const { token, expiresAt } = issueToken(store, user.id);
    reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: TOKEN_LIFETIME_MS / 1000 });
    return { token, token_type: 'Bearer', expires_at: expiresAt, user_id: user.id, organization_id: user.organization_id };
  }

  app.post('/v1/login', {
    config: { public: true },
    schema: { body: objectSchema({ email: emailSchema, password: { type: 'string', minLength: 1, maxLength: 1024 } }, ['email', 'password']) },
  }, async (req, reply) => {
    const { email, password } = req.body as { email: string; password: string };
    const user = store.userByEmail(email);
    const hash = user ? store.credentials.get(user.id)?.passwordHash ?? null : null;
    if (!user || !verifyPassword(password, hash)) throw new HttpError(401, 'Invalid email or password');
    return signIn(reply, user.id);
  });

  app.post('/v1/openid_login', {
    config: { public: true },
    schema: { body: objectSchema({ id_token: { type: 'string', minLength: 1, maxLength: 16_384 } }, ['id_token']) },
  }, async (req, reply) => {
    if (!ctx.openId) throw new HttpError(400, 'OpenID sign-in is not configured');
    let claims: Record<string, unknown>;
    try {
      claims = verifyIdToken((req.body as { id_token: string }).id_token, ctx.openId, now());
    } catch (err) {
      if (err instanceof IdTokenError) throw new HttpError(401, err.message);
      throw err;
    }
    const user = store.userByEmail(String(claims.email));
    if (!user) throw new HttpError(401, 'No account for this identity');
    return signIn(reply, user.id);
  });

  app.post('/v1/signup', {
    config: { public: true },
    schema: { body: objectSchema({ email: emailSchema }, ['email']) },
  }, async (req, reply) => {
    const email = (req.body as { email: string }).email.toLowerCase();
    const existing = store.userByEmail(email);
    if (existing) {
      mailCode(req, existing.id, 'recover');
    } else {
      const domain = email.split('@')[1];
      const org = [...store.organizations.values()].find((o) => o.email_domains.includes(domain ?? ''));
      if (org) mailCode(req, store.createUser(org.id, { email, permissions: ['USER_UPDATE_SELF'] }).id, 'signup');
    }
    // the same answer whether or not the address is known, so it cannot be probed
    return reply.code(202).send({ status: 'accepted' } satisfies AcceptedResponse);
  });

  app.get('/v1/auth_uri', {
    config: { public: true },
    schema: { querystring: objectSchema({ email: emailSchema }, ['email']) },
  }, async (req): Promise<AuthUriResponse> => {
    const email = (req.query as { email: string }).email.toLowerCase();
    const user = store.userByEmail(email);
    const org = user
      ? store.organizations.get(user.organization_id)
      : [...store.organizations.values()].find((o) => o.email_domains.includes(email.split('@')[1] ?? ''));
    return { uri: org?.sso_uri ?? null };
  });

  app.post('/v1/recover_password', {
    config: { public: true },
    schema: { body: objectSchema({ email: emailSchema }, ['email']) },
  }, async (req, reply) => {
    const user = store.userByEmail((req.body as { email: string }).email);
    if (user) mailCode(req, user.id, 'recover');
    return reply.code(202).send({ status: 'accepted' } satisfies AcceptedResponse);
  });

  app.post('/v1/organizations/:orgId/users/:id/password', {
    config: { public: true },
    schema: {
      params: objectSchema({ orgId: idParam, id: idParam }, ['orgId', 'id']),
      body: objectSchema({
        password: { type: 'string', minLength: PASSWORD_MIN_LENGTH, maxLength: 1024 },
        old_password: { type: 'string', maxLength: 1024 },
        code: { type: 'string', minLength: 1, maxLength: 200 },
      }, ['password']),
    },
  }, async (req, reply) => {
    const { orgId, id } = req.params as { orgId: string; id: string };
    const body = req.body as SetPasswordRequest;
    const target = store.users.get(id);
    if (body.code !== undefined) {
      if (!target || target.organization_id !== orgId || !consumeMailCode(store, body.code, id)) {
        throw new HttpError(403, 'Invalid or expired code');
      }
    } else {
      const user = currentUser(req);
      if (!target || target.organization_id !== orgId) throw notFound('User');
      if (user.id !== id) throw new HttpError(403, 'Only the user may change their password');
      if (!verifyPassword(body.old_password ?? '', store.credentials.get(id)?.passwordHash ?? null)) {
        throw new HttpError(403, 'old_password is wrong');
      }
    }
    store.credentials.set(id, { passwordHash: hashPassword(body.password) });
    return reply.code(204).send();
  });

  app.get('/v1/current_time', { config: { public: true } }, async (): Promise<CurrentTimeResponse> => ({ time: now() }));

  app.get('/v2/settings', { config: { cookieAuth: true } }, async (req): Promise<Settings> => {
    const user = currentUser(req);
    const transport = ctx.transport();
    const live = transport ? await transport.settingsFor(user, { hostname: req.hostname, port: req.port ?? ctx.port() }) : {};
    return {
      user: user as unknown as Settings['user'],
      permissions: [...user.permissions],
      cdn_base_url: `${req.protocol}://${req.host}/v1/files/`,
      ...live,
    };
  });

  app.post('/v1/pusher/auth', {
    schema: {
      body: {
        type: 'object',
        required: ['socket_id', 'channel_name'],
        properties: {
          socket_id: { type: 'string', pattern: '^\\d+\\.\\d+$' },
          channel_name: { type: 'string', minLength: 1, maxLength: 164 },
        },
      },
    },
  }, async (req) => {
    const user = currentUser(req);
    const { socket_id: socketId, channel_name: channel } = req.body as { socket_id: string; channel_name: string };
    const transport = ctx.transport();
    if (!transport?.authorizeChannel) throw new HttpError(400, 'Pusher is not the active transport');
    const scope = scopeFromPusherChannel(channel);
    // edit-audience channels need the edit role as well (spec §5/§6)
    if (scope === null || !canFollowScope(store, user, scope)) throw new HttpError(403, `Not allowed to subscribe to ${channel}`);
    return transport.authorizeChannel(socketId, channel);
  });
}
