// Sign-in and account flows of spec §7: /login, /openid_login, /signup,
// /auth_uri, /recover_password, users/{id}/password, /current_time,
// /v2/settings and /pusher/auth. Mails go to the local outbox.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { scopeFromPusherChannel } from '../../src/shared/protocol.js';
import { SESSION_COOKIE } from '../../src/shared/rest.js';
import {
  AcceptedResponse, AuthUriQuery, AuthUriResponse, CurrentTimeResponse, EmailRequest, LoginRequest, LoginResponse,
  OpenIdLoginRequest, PusherAuthRequest, PusherAuthResponse, SetPasswordRequest, SignupConfirmRequest, SignupConfirmResponse,
} from '../../src/shared/schemas/accounts.js';
import { Params } from '../../src/shared/schemas/common.js';
import type { Settings } from '../../src/shared/types.js';
import {
  DISPLAY_TOKEN_IDLE_MS, TOKEN_LIFETIME_MS, IdTokenError, consumeMailCode, dropMailCodes, consumeSignupCode, hashPassword, issueMailCode, issueSignupCode, issueToken,
  verifyIdToken, verifyPassword,
} from '../auth.js';
import type { MailCodePurpose } from '../store/records.js';
import { HttpError, canFollowScope, currentSession, currentUser, notFound, organizationFor, userAsSeenBy } from './guard.js';
import { checkPasswordChangeOfOther } from './userPolicy.js';
import type { RouteContext } from './context.js';

/** OpenID sign-in to an account whose address its user set themself and never confirmed (docs/security.md). */
export const ADDRESS_UNPROVEN = 'The address of this account is not confirmed yet; reset its password through the mailed link once to confirm it';

const SUBJECTS: Record<MailCodePurpose, string> = {
  signup: 'Finish signing up to Storey',
  recover: 'Reset your Storey password',
  invite: 'You are invited to Storey',
};

export async function accountRoutes(fastify: FastifyInstance, ctx: RouteContext): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { store, outbox, limits } = ctx;
  const now = () => store.clock.now();

  function mailCode(userId: string, purpose: MailCodePurpose): void {
    const user = store.users.get(userId)!;
    const code = issueMailCode(store, user.id, purpose);
    const link = `${ctx.publicUrl()}/#/set-password?organization=${user.organization_id}&user=${user.id}&code=${code}`;
    outbox.send({
      to: user.email, subject: SUBJECTS[purpose], purpose, code, user_id: user.id, organization_id: user.organization_id,
      text: `Hello ${user.first_name || user.email},\n\nSet your password here within 24 hours:\n${link}\n`, sent_at: now(),
    });
  }
  ctx.mailCode = mailCode;

  function signIn(reply: FastifyReply, userId: string, display = false): LoginResponse {
    const user = store.users.get(userId)!;
    const { token, expiresAt } = issueToken(store, user.id, { display });
    reply.setCookie(SESSION_COOKIE, token, {
      httpOnly: true, sameSite: 'lax', path: '/', maxAge: (display ? DISPLAY_TOKEN_IDLE_MS : TOKEN_LIFETIME_MS) / 1000,
      // reached over https (behind a proxy: --trust-proxy and X-Forwarded-Proto), the browser never sends it over plain http
      secure: reply.request.protocol === 'https',
    });
    return { token, token_type: 'Bearer', expires_at: expiresAt, user_id: user.id, organization_id: user.organization_id };
  }

  app.post('/v1/login', {
    config: { public: true, ...limits.perClient('login') },
    schema: { body: LoginRequest, response: { 200: LoginResponse } },
  }, async (req, reply) => {
    const { email, password } = req.body;
    // wrong passwords count against the account, whoever sends them from wherever
    const attempt = await limits.account('login', req, reply, email, 'failures');
    const user = store.userByEmail(email);
    const hash = user ? store.credentials.get(user.id)?.passwordHash ?? null : null;
    // the password is checked (against a decoy without an account) before the user is, so both take as long
    const matches = verifyPassword(password, hash);
    if (!user || !matches) {
      await attempt.failed();
      throw new HttpError(401, 'Invalid email or password');
    }
    return signIn(reply, user.id, req.body.client === 'display');
  });

  app.post('/v1/openid_login', {
    config: { public: true, ...limits.perClient('openidLogin') },
    schema: { body: OpenIdLoginRequest, response: { 200: LoginResponse } },
  }, async (req, reply) => {
    if (!ctx.openId) throw new HttpError(400, 'OpenID sign-in is not configured');
    let claims: Record<string, unknown>;
    try {
      claims = verifyIdToken(req.body.id_token, ctx.openId, now());
    } catch (err) {
      if (err instanceof IdTokenError) throw new HttpError(401, err.message);
      throw err;
    }
    const user = store.userByEmail(String(claims.email));
    if (!user) throw new HttpError(401, 'No account for this identity');
    // an address a user gave themself proves nothing about who holds it: the provider's owner of it must not land in their account
    if (store.credentials.get(user.id)?.addressUnproven) throw new HttpError(401, ADDRESS_UNPROVEN);
    return signIn(reply, user.id);
  });

  const organizationOfDomain = (email: string) => {
    const domain = email.split('@')[1] ?? '';
    return [...store.organizations.values()].find((o) => o.email_domains.includes(domain));
  };

  app.post('/v1/signup', {
    config: { public: true, ...limits.perClient('signup') },
    schema: { body: EmailRequest, response: { 202: AcceptedResponse } },
  }, async (req, reply) => {
    const email = req.body.email.toLowerCase();
    // nobody's mailbox is flooded with signup mails
    await limits.account('signup', req, reply, email);
    const existing = store.userByEmail(email);
    if (existing) {
      mailCode(existing.id, 'recover');
    } else {
      // no user until the mailed code comes back: whoever types an address does not own its mailbox
      const org = organizationOfDomain(email);
      if (org) {
        const code = issueSignupCode(store, email, org.id);
        outbox.send({
          to: email, subject: SUBJECTS.signup, purpose: 'signup', code, user_id: null, organization_id: org.id,
          text: `Hello,\n\nFinish signing up to ${org.name} here within 24 hours:\n${ctx.publicUrl()}/#/signup?code=${code}\n`, sent_at: now(),
        });
      }
    }
    // the same answer whether or not the address is known, so it cannot be probed
    return reply.code(202).send({ status: 'accepted' } satisfies AcceptedResponse);
  });

  app.post('/v1/signup/confirm', {
    config: { public: true, ...limits.perClient('signupConfirm') },
    schema: { body: SignupConfirmRequest, response: { 201: SignupConfirmResponse } },
  }, async (req, reply) => {
    const signup = consumeSignupCode(store, req.body.code);
    // the organization must still take the address (its domains may have changed since the mail); an invitation's
    // address is of no organization's domain, and must not have become another organization's meanwhile
    const org = signup ? store.organizations.get(signup.organizationId) : undefined;
    const domainOwner = signup ? organizationOfDomain(signup.email) : undefined;
    if (!signup || !org || (signup.invite ? domainOwner && domainOwner.id !== org.id : domainOwner?.id !== org.id)) {
      throw new HttpError(403, 'Invalid or expired code');
    }
    if (store.userByEmail(signup.email)) throw new HttpError(409, 'This address already has an account; sign in or recover the password');
    // an invitation's account is made now, proven by the code that came back from its address
    const user = store.createUser(org.id, { permissions: ['USER_UPDATE_SELF'], ...signup.invite, email: signup.email });
    store.credentials.set(user.id, { passwordHash: hashPassword(req.body.password) });
    return reply.code(201).send({ user_id: user.id, organization_id: org.id, email: user.email } satisfies SignupConfirmResponse);
  });

  app.get('/v1/auth_uri', {
    config: { public: true, ...limits.perClient('authUri') },
    schema: { querystring: AuthUriQuery, response: { 200: AuthUriResponse } },
  }, async (req, reply) => {
    const email = req.query.email.toLowerCase();
    await limits.account('authUri', req, reply, email);
    // by the address's domain alone (home realm discovery), never by its account: the answer must not tell
    // whether an address has an account, nor in which organization (docs/security.md "Same answers, same time")
    return { uri: organizationOfDomain(email)?.sso_uri ?? null };
  });

  app.post('/v1/recover_password', {
    config: { public: true, ...limits.perClient('recover') },
    schema: { body: EmailRequest, response: { 202: AcceptedResponse } },
  }, async (req, reply) => {
    await limits.account('recover', req, reply, req.body.email);
    const user = store.userByEmail(req.body.email);
    if (user) mailCode(user.id, 'recover');
    return reply.code(202).send({ status: 'accepted' } satisfies AcceptedResponse);
  });

  app.post('/v1/organizations/:orgId/users/:id/password', {
    config: { public: true, ...limits.perClient('setPassword') },
    schema: { params: Params('orgId', 'id'), body: SetPasswordRequest },
  }, async (req, reply) => {
    const { orgId, id } = req.params;
    const body = req.body;
    // wrong codes and wrong old passwords count against the account
    const attempt = await limits.account('setPassword', req, reply, id, 'failures');
    const target = store.users.get(id);
    /** a session that stays: the caller's own, when they changed their own password */
    let keepToken: string | undefined;
    if (body.code !== undefined) {
      if (!target || target.organization_id !== orgId || !consumeMailCode(store, body.code, id)) {
        await attempt.failed();
        throw new HttpError(403, 'Invalid or expired code');
      }
    } else {
      const user = currentUser(req);
      organizationFor(store, user, orgId);
      if (!target || target.organization_id !== orgId) throw notFound('User');
      if (user.id !== id) {
        checkPasswordChangeOfOther(user);
      } else if (!verifyPassword(body.old_password ?? '', store.credentials.get(id)?.passwordHash ?? null)) {
        await attempt.failed();
        throw new HttpError(403, 'old_password is wrong');
      } else {
        keepToken = currentSession(req).token;
      }
    }
    // a code came back from the address: it is proven; otherwise it stays as proven as it was
    const unproven = body.code === undefined && store.credentials.get(id)?.addressUnproven === true;
    store.credentials.set(id, { passwordHash: hashPassword(body.password), ...(unproven ? { addressUnproven: true } : {}) });
    // codes mailed before (a reset mail someone else read) set nothing any more
    dropMailCodes(store, id);
    // whoever knew the old password is signed out everywhere else, live connections included
    store.revokeSessions(id, 'password', { keepToken });
    return reply.code(204).send();
  });

  app.get('/v1/current_time', {
    config: { public: true }, schema: { response: { 200: CurrentTimeResponse } },
  }, async () => ({ time: now() }));

  app.post('/v1/logout', { config: { cookieAuth: true } }, async (req, reply) => {
    const user = currentUser(req);
    store.revokeSessions(user.id, 'signOut', { onlyToken: currentSession(req).token });
    reply.clearCookie(SESSION_COOKIE, { path: '/', secure: req.protocol === 'https' });
    return reply.code(204).send();
  });

  app.get('/v2/settings', { config: { cookieAuth: true } }, async (req, reply): Promise<Settings> => {
    const user = currentUser(req);
    // one user's loop must not hold up everyone's broker credentials (docs/security.md "Abuse limits")
    await limits.account('settings', req, reply, user.id);
    const transport = ctx.transport();
    const session = { userId: user.id, sessionId: currentSession(req).id };
    const live = transport ? await transport.settingsFor(user, { hostname: req.hostname, port: req.port ?? ctx.port() }, session) : {};
    return {
      user: userAsSeenBy(store, user, user) as unknown as Settings['user'],
      permissions: [...user.permissions],
      cdn_base_url: `${req.protocol}://${req.host}/v1/files/`,
      ...live,
    };
  });

  app.post('/v1/pusher/auth', {
    config: limits.perClient('pusherAuth'),
    schema: { body: PusherAuthRequest, response: { 200: PusherAuthResponse } },
  }, async (req, reply) => {
    const user = currentUser(req);
    await limits.account('pusherAuth', req, reply, user.id);
    const { socket_id: socketId, channel_name: channel } = req.body;
    const transport = ctx.transport();
    if (!transport?.authorizeChannel) throw new HttpError(400, 'Pusher is not the active transport');
    const scope = scopeFromPusherChannel(channel);
    // edit-audience channels need the edit role as well (spec §5/§6)
    if (scope === null || !canFollowScope(store, user, scope)) throw new HttpError(403, `Not allowed to subscribe to ${channel}`);
    return transport.authorizeChannel(socketId, channel, { userId: user.id, sessionId: currentSession(req).id });
  });
}
