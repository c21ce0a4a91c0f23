// Users (with avatars and invites), location tags, external objects and
// notifications (spec §7). Users and external objects ride the organization
// stream; notifications ride the recipient's user stream.

import { randomBytes } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROLE_PERMISSIONS } from '../../src/shared/constants.js';
import { IMAGE_MAX_BYTES, type WireExternalObject, type WireNotification, type WireUser } from '../../src/shared/rest.js';
import { ImageResponse } from '../../src/shared/schemas/assets.js';
import { Params } from '../../src/shared/schemas/common.js';
import {
  CreateExternalObjectRequest, CreateNotificationRequest, CreateUserRequest, ExternalObjectsQuery, InviteUserRequest,
  UpdateExternalObjectRequest, UpdateNotificationRequest, UpdateUserRequest,
} from '../../src/shared/schemas/people.js';
import { dropMailCodes, hasRole, hashPassword, issueMailCode, issueSignupCode, verifyPassword } from '../auth.js';
import { IMAGE_TYPES, contentTypeOf, looksLikeImage } from '../images.js';
import type { RouteContext } from './context.js';
import {
  HttpError, canReachOrganization, canSeeAsset, currentUser, notFound, organizationFor, organizationScopeFor, requireRole,
  setStreamHeaders, userAsSeenBy,
} from './guard.js';
import { checkGrant, checkPasswordChangeOfOther, checkUserUpdate, requireManages } from './userPolicy.js';

export async function peopleRoutes(fastify: FastifyInstance, ctx: RouteContext): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = ctx;
  const userIn = (orgId: string, id: string): WireUser => {
    const u = store.users.get(id);
    if (!u || u.organization_id !== orgId) throw notFound('User');
    return u;
  };
  /**
   * An address a non-admin gives an account (creating, inviting, or one's own): never one of another
   * organization's email domains, whose owner's first single sign-on would land in this organization;
   * outside the organization's own domains nobody has proven it (`unproven`): an account made for it waits
   * for a mailed code (`invitePending`), one's own address is marked so that OpenID waits for one
   * (docs/security.md "OpenID and addresses nobody proved"). An admin reaches every organization anyway.
   */
  const checkAddress = (me: WireUser, orgId: string, email: string): { unproven: boolean } => {
    if (hasRole(me.permissions, 'admin')) return { unproven: false };
    const domain = email.toLowerCase().split('@')[1] ?? '';
    const owner = [...store.organizations.values()].find((o) => o.email_domains.includes(domain));
    if (owner && owner.id !== orgId) throw new HttpError(403, 'This address is of another organization\'s email domain');
    return { unproven: !owner };
  };
  /**
   * A non-admin's account for an address of no organization's domain is an invitation, made only when its
   * mailed code comes back (docs/security.md "Addresses that have an account"): 202 whether the address is
   * free or has an account in another organization, whose owner is mailed instead, so the answer never
   * tells that an address has an account elsewhere; 409 only for an account of the caller's own organization,
   * which the caller can list anyway.
   */
  const invitePending = (orgId: string, body: { email: string; first_name?: string; last_name?: string; permissions?: string[] }) => {
    const email = body.email.toLowerCase();
    const existing = store.userByEmail(email);
    if (existing?.organization_id === orgId) throw new HttpError(409, 'A user with this email exists');
    const org = store.organizations.get(orgId)!;
    const sentAt = store.clock.now();
    if (existing) {
      // as a signup of an address that has an account: its owner gets a way in to their own account, nothing changes
      const code = issueMailCode(store, existing.id, 'recover');
      const link = `${ctx.publicUrl()}/#/set-password?organization=${existing.organization_id}&user=${existing.id}&code=${code}`;
      ctx.outbox.send({
        to: existing.email, subject: `${org.name} invited you to Storey`, purpose: 'recover', code, user_id: existing.id, organization_id: existing.organization_id,
        text: `Hello ${existing.first_name || existing.email},\n\n${org.name} invited this address to Storey, where it already has an account; nothing was changed.\n`
          + `Sign in as you do, or set a new password here within 24 hours:\n${link}\n`, sent_at: sentAt,
      });
    } else {
      const { first_name: firstName, last_name: lastName } = body;
      const invite = { permissions: body.permissions ?? [ROLE_PERMISSIONS.regular], ...(firstName ? { first_name: firstName } : {}), ...(lastName ? { last_name: lastName } : {}) };
      const code = issueSignupCode(store, email, orgId, invite);
      ctx.outbox.send({
        to: email, subject: `${org.name} invited you to Storey`, purpose: 'invite', code, user_id: null, organization_id: orgId,
        text: `Hello ${firstName || email},\n\n${org.name} invited you to Storey. Choose your password here within 24 hours:\n${ctx.publicUrl()}/#/signup?code=${code}\n`, sent_at: sentAt,
      });
    }
    return { status: 'accepted' as const };
  };
  /** the avatar: the user themself, or whoever manages them (userPolicy.ts) */
  const selfOrManager = (me: WireUser, target: WireUser) => {
    if (me.id === target.id) requireRole(me, 'regular');
    else requireManages(me, target);
  };

  app.get('/v1/organizations/:orgId/users', { schema: { params: Params('orgId') } }, async (req, reply) => {
    const { orgId } = req.params;
    const me = currentUser(req);
    organizationFor(store, me, orgId);
    setStreamHeaders(store, reply, organizationScopeFor(me, orgId));
    // a position on a floor only the edit role sees is withheld from the others (docs/security.md)
    return [...store.users.values()].filter((u) => u.organization_id === orgId).map((u) => userAsSeenBy(store, me, u));
  });

  app.post('/v1/organizations/:orgId/users', {
    schema: { params: Params('orgId'), body: CreateUserRequest },
  }, async (req, reply) => {
    const { orgId } = req.params;
    const me = currentUser(req);
    organizationFor(store, me, orgId);
    requireRole(me, 'edit');
    const { password, ...body } = req.body;
    checkGrant(me, body.permissions);
    // another user's password is the admin's to set (userPolicy.ts); an edit user invites, and the mail sets it
    if (password !== undefined) checkPasswordChangeOfOther(me);
    const { unproven } = checkAddress(me, orgId, body.email);
    if (unproven) {
      // each sends a mail, as a signup does: at most as many to one address (docs/security.md "Abuse limits")
      await ctx.limits.account('signup', req, reply, body.email);
      return reply.code(202).send(invitePending(orgId, body));
    }
    if (store.userByEmail(body.email)) throw new HttpError(409, 'A user with this email exists');
    const user = store.createUser(orgId, { permissions: [ROLE_PERMISSIONS.regular], ...body });
    if (password) store.credentials.set(user.id, { passwordHash: hashPassword(password) });
    return reply.code(201).send(user);
  });

  app.get('/v1/organizations/:orgId/users/:id', { schema: { params: Params('orgId', 'id') } }, async (req) => {
    const { orgId, id } = req.params;
    const me = currentUser(req);
    organizationFor(store, me, orgId);
    return userAsSeenBy(store, me, userIn(orgId, id));
  });

  app.patch('/v1/organizations/:orgId/users/:id', { schema: { params: Params('orgId', 'id'), body: UpdateUserRequest } }, async (req, reply) => {
    const { orgId, id } = req.params;
    const me = currentUser(req);
    organizationFor(store, me, orgId);
    const target = userIn(orgId, id);
    // one's own profile and position go to the whole organization live: a loop would flood everyone; every
    // attempt counts, refused ones too, so neither wrong current passwords nor taken addresses are free to try
    if (me.id === id) await ctx.limits.account('userWrites', req, reply, me.id);
    const { current_password: currentPassword, ...body } = req.body;
    checkUserUpdate(me, target, req.body, () => verifyPassword(currentPassword ?? '', store.credentials.get(me.id)?.passwordHash ?? null));
    if (body.email !== undefined && body.email.toLowerCase() !== target.email) checkAddress(me, orgId, body.email);
    if (body.email !== undefined && store.userByEmail(body.email) && store.userByEmail(body.email) !== target) {
      throw new HttpError(409, 'A user with this email exists');
    }
    if (body.location_tag_id) {
      const tag = store.locationTags.get(body.location_tag_id);
      if (!tag || tag.organization_id !== orgId) throw new HttpError(400, 'body/location_tag_id is not a tag of this organization');
    }
    if (body.location) {
      const loc = store.locations.get(body.location.location_id);
      const floor = store.assets.get(body.location.floor_id);
      // a floor the caller may not see (hidden) answers like one that does not exist
      if (!loc || loc.organization_id !== orgId || floor?.type !== 'floor' || floor.location_id !== loc.id || !canSeeAsset(store, me, floor)) {
        throw new HttpError(400, 'body/location must name a floor of a location of this organization');
      }
    }
    const email = body.email?.toLowerCase();
    if (email !== undefined && email !== target.email) {
      // codes mailed to the old address set no password once the account has moved away from it
      dropMailCodes(store, id);
      // an address one gives oneself is not proven until a mail to it comes back (an admin's change is)
      const credentials = store.credentials.get(id) ?? { passwordHash: null };
      store.credentials.set(id, me.id === id ? { ...credentials, addressUnproven: true } : { passwordHash: credentials.passwordHash });
    }
    return userAsSeenBy(store, me, store.updateUser(id, { ...body, ...(email ? { email } : {}) }));
  });

  app.delete('/v1/organizations/:orgId/users/:id', { schema: { params: Params('orgId', 'id') } }, async (req, reply) => {
    const { orgId, id } = req.params;
    const me = currentUser(req);
    organizationFor(store, me, orgId);
    const target = userIn(orgId, id);
    if (me.id === id) throw new HttpError(409, 'Cannot delete yourself');
    requireManages(me, target);
    store.deleteUser(id);
    return reply.code(204).send();
  });

  app.put('/v1/organizations/:orgId/users/:id/image', {
    bodyLimit: IMAGE_MAX_BYTES, schema: { params: Params('orgId', 'id'), response: { 200: ImageResponse } },
  }, async (req) => {
    const { orgId, id } = req.params;
    const me = currentUser(req);
    organizationFor(store, me, orgId);
    const target = userIn(orgId, id);
    selfOrManager(me, target);
    const contentType = contentTypeOf(req.headers['content-type']);
    if (!looksLikeImage(contentType, req.body)) {
      throw new HttpError(400, `body must be a non-empty image (${IMAGE_TYPES.join(', ')})`);
    }
    // files are served without a token, so the name is the secret: not the id and upload time every member is sent
    const path = `avatars/${id}-${randomBytes(12).toString('hex')}`;
    // the replaced picture is withdrawn, as a removed one is
    if (target.avatar_url) store.files.delete(target.avatar_url);
    store.files.set(path, { contentType, data: req.body });
    store.updateUser(id, { avatar_url: path, avatar_timestamp: store.clock.now() });
    return { name: 'image', path, content_type: contentType, size: req.body.length };
  });

  app.delete('/v1/organizations/:orgId/users/:id/image', { schema: { params: Params('orgId', 'id') } }, async (req, reply) => {
    const { orgId, id } = req.params;
    const me = currentUser(req);
    organizationFor(store, me, orgId);
    const target = userIn(orgId, id);
    selfOrManager(me, target);
    if (target.avatar_url) store.files.delete(target.avatar_url);
    store.updateUser(id, { avatar_url: null, avatar_timestamp: store.clock.now() });
    return reply.code(204).send();
  });

  app.post('/v1/organizations/:orgId/invite_user', {
    schema: {
      params: Params('orgId'),
      body: InviteUserRequest,
    },
  }, async (req, reply) => {
    const { orgId } = req.params;
    const me = currentUser(req);
    organizationFor(store, me, orgId);
    requireRole(me, 'edit');
    const body = req.body;
    checkGrant(me, body.permissions);
    const { unproven } = checkAddress(me, orgId, body.email);
    if (unproven) {
      // each sends a mail, as a signup does: at most as many to one address (docs/security.md "Abuse limits")
      await ctx.limits.account('signup', req, reply, body.email);
      return reply.code(202).send(invitePending(orgId, body));
    }
    if (store.userByEmail(body.email)) throw new HttpError(409, 'A user with this email exists');
    const user = store.createUser(orgId, { permissions: [ROLE_PERMISSIONS.regular], ...body });
    ctx.mailCode(user.id, 'invite');
    return reply.code(201).send({ user });
  });

  app.delete('/v1/location_tags/:id', { schema: { params: Params('id') } }, async (req, reply) => {
    const { id } = req.params;
    const me = currentUser(req);
    const tag = store.locationTags.get(id);
    if (!tag || !canReachOrganization(me, tag.organization_id)) throw notFound('Location tag');
    if (tag.user_id === me.id) {
      requireRole(me, 'regular');
    } else {
      requireRole(me, 'edit');
      // taking a tag off its wearer changes their location_tag_id: only for a user the caller manages (userPolicy.ts)
      const wearer = tag.user_id ? store.users.get(tag.user_id) : undefined;
      if (wearer) requireManages(me, wearer);
    }
    store.deleteLocationTag(id);
    return reply.code(204).send();
  });

  // ------------------------------------------------------------ external objects

  app.get('/v1/external_objects', {
    schema: { querystring: ExternalObjectsQuery },
  }, async (req, reply) => {
    const me = currentUser(req);
    const q = req.query;
    const loc = q.location_id ? store.locations.get(q.location_id) : undefined;
    if (q.location_id && !loc) throw notFound('Location');
    const orgId = q.organization_id ?? loc?.organization_id;
    if (!orgId) throw new HttpError(400, 'querystring must have organization_id or location_id');
    if (loc && loc.organization_id !== orgId) throw notFound('Location');
    organizationFor(store, me, orgId);
    setStreamHeaders(store, reply, organizationScopeFor(currentUser(req), orgId));
    return [...store.externalObjects.values()].filter((o) =>
      o.organization_id === orgId && (!q.location_id || o.location_id === null || o.location_id === q.location_id)) satisfies WireExternalObject[];
  });

  app.post('/v1/external_objects', { schema: { body: CreateExternalObjectRequest } }, async (req, reply) => {
    const me = currentUser(req);
    const body = req.body;
    const orgId = body.organization_id ?? me.organization_id;
    organizationFor(store, me, orgId);
    requireRole(me, 'edit');
    if (body.location_id && store.locations.get(body.location_id)?.organization_id !== orgId) throw new HttpError(400, 'body/location_id is not a location of this organization');
    return reply.code(201).send(store.createExternalObject({ organization_id: orgId, location_id: body.location_id ?? null, name: body.name, type: body.type, data: body.data ?? {} }));
  });

  const visibleExternal = (req: FastifyRequest) => {
    const me = currentUser(req);
    const obj = store.externalObjects.get((req.params as { id: string }).id);
    if (!obj || !canReachOrganization(me, obj.organization_id)) throw notFound('External object');
    return { me, obj };
  };

  app.get('/v1/external_objects/:id', { schema: { params: Params('id') } }, async (req) => visibleExternal(req).obj);

  app.patch('/v1/external_objects/:id', { schema: { params: Params('id'), body: UpdateExternalObjectRequest } }, async (req) => {
    const { me, obj } = visibleExternal(req);
    requireRole(me, 'edit');
    const { organization_id: movedTo, ...body } = req.body;
    if (movedTo !== undefined && movedTo !== obj.organization_id) throw new HttpError(400, 'body/organization_id cannot change');
    if (body.location_id && store.locations.get(body.location_id)?.organization_id !== obj.organization_id) throw new HttpError(400, 'body/location_id is not a location of this organization');
    return store.updateExternalObject(obj.id, body);
  });

  app.delete('/v1/external_objects/:id', { schema: { params: Params('id') } }, async (req, reply) => {
    const { me, obj } = visibleExternal(req);
    requireRole(me, 'edit');
    store.deleteExternalObject(obj.id);
    return reply.code(204).send();
  });

  // ------------------------------------------------------------ notifications

  app.get('/v1/notifications', async (req, reply) => {
    const me = currentUser(req);
    setStreamHeaders(store, reply, { kind: 'user', userId: me.id });
    return [...store.notifications.values()].filter((n) => n.user_id === me.id).sort((a, b) => b.created - a.created) satisfies WireNotification[];
  });

  app.post('/v1/notifications', {
    schema: { body: CreateNotificationRequest },
  }, async (req, reply) => {
    const me = currentUser(req);
    requireRole(me, 'edit');
    const body = req.body;
    const target = store.users.get(body.user_id);
    if (!target || !canReachOrganization(me, target.organization_id)) throw new HttpError(400, 'body/user_id is not a user of your organization');
    return reply.code(201).send(store.createNotification({
      user_id: target.id, title: body.title, body: body.body, level: body.level ?? 'info', link: body.link ?? null, created: store.clock.now(), read: false,
    }));
  });

  const ownNotification = (req: FastifyRequest) => {
    const me = currentUser(req);
    const n = store.notifications.get((req.params as { id: string }).id);
    if (!n || n.user_id !== me.id) throw notFound('Notification');
    return n;
  };
  app.get('/v1/notifications/:id', { schema: { params: Params('id') } }, async (req) => ownNotification(req));
  app.patch('/v1/notifications/:id', { schema: { params: Params('id'), body: UpdateNotificationRequest } }, async (req) => {
    const n = ownNotification(req);
    return store.updateNotification(n.id, { read: req.body.read });
  });
  app.delete('/v1/notifications/:id', { schema: { params: Params('id') } }, async (req, reply) => {
    store.deleteNotification(ownNotification(req).id);
    return reply.code(204).send();
  });
}
