// Users and what hangs on them: their sessions (ended at once when revoked),
// external objects, notifications and location tags. A user goes out on the
// organization's shared stream without a position the public may not see.

import type { WireLocationTag } from '../../src/shared/rest.js';
import type { Audiences } from './audiences.js';
import { makeExternalObject, makeNotification, makeUser, sessionIdOf, type Revocation } from './records.js';
import type { Store } from './store.js';
import type { StoreContext } from './storeContext.js';

type People = Pick<Store, 'userByEmail' | 'createUser' | 'updateUser' | 'deleteUser' | 'createExternalObject' | 'updateExternalObject'
  | 'deleteExternalObject' | 'createNotification' | 'updateNotification' | 'deleteNotification' | 'createLocationTag' | 'deleteLocationTag'
  | 'revokeSessions' | 'onRevoke'>;

export function createPeople(ctx: StoreContext, audiences: Audiences): People {
  const { s, publisher, nextId, mustGet, store } = ctx;
  const { publishOrg, publishUser } = audiences;
  const revokeListeners = new Set<(revocation: Revocation) => void>();

  return {
    userByEmail(email: string) {
      const wanted = email.toLowerCase();
      for (const u of s.users.values()) if (u.email === wanted) return u;
      return undefined;
    },
    createUser(orgId, body) {
      mustGet(s.organizations, orgId, 'organization');
      const user = makeUser(nextId(), orgId, body);
      s.users.set(user.id, user);
      s.credentials.set(user.id, { passwordHash: null });
      publishUser(user, 'created');
      return user;
    },
    updateUser(id, patch) {
      const user = mustGet(s.users, id, 'user');
      const lost = patch.permissions ? user.permissions.filter((p) => !patch.permissions!.includes(p)) : [];
      Object.assign(user, patch, { id: user.id, uuid: user.uuid, organization_id: user.organization_id });
      publishUser(user, 'modified');
      // a permission taken away ends every session, so nothing keeps the old rights (docs/security.md)
      if (lost.length) store.revokeSessions(id, 'permissions');
      return user;
    },
    deleteUser(id) {
      const user = mustGet(s.users, id, 'user');
      store.revokeSessions(id, 'deleted');
      s.users.delete(id);
      s.credentials.delete(id);
      // their picture is served without a token: it goes with them
      if (user.avatar_url) s.files.delete(user.avatar_url);
      for (const [code, rec] of s.mailCodes) if (rec.userId === id) s.mailCodes.delete(code);
      for (const t of s.locationTags.values()) if (t.user_id === id) t.user_id = null;
      for (const n of [...s.notifications.values()]) if (n.user_id === id) s.notifications.delete(n.id);
      publishOrg(user.organization_id, [{ collection: 'users', kind: 'deleted', id }]);
    },
    createExternalObject(body) {
      const obj = makeExternalObject(nextId(), body);
      s.externalObjects.set(obj.id, obj);
      publishOrg(obj.organization_id, [{ collection: 'external_objects', kind: 'created', id: obj.id, data: obj }]);
      return obj;
    },
    updateExternalObject(id, patch) {
      const obj = mustGet(s.externalObjects, id, 'external object');
      Object.assign(obj, patch, { id: obj.id, organization_id: obj.organization_id });
      publishOrg(obj.organization_id, [{ collection: 'external_objects', kind: 'modified', id, data: obj }]);
      return obj;
    },
    deleteExternalObject(id) {
      const obj = mustGet(s.externalObjects, id, 'external object');
      s.externalObjects.delete(id);
      publishOrg(obj.organization_id, [{ collection: 'external_objects', kind: 'deleted', id }]);
    },
    createNotification(body) {
      const n = makeNotification(nextId(), body);
      s.notifications.set(n.id, n);
      publisher.publish({ kind: 'user', userId: n.user_id }, [{ collection: 'notifications', kind: 'created', id: n.id, data: n }]);
      return n;
    },
    updateNotification(id, patch) {
      const n = mustGet(s.notifications, id, 'notification');
      Object.assign(n, patch, { id: n.id, user_id: n.user_id });
      publisher.publish({ kind: 'user', userId: n.user_id }, [{ collection: 'notifications', kind: 'modified', id, data: n }]);
      return n;
    },
    deleteNotification(id) {
      const n = mustGet(s.notifications, id, 'notification');
      s.notifications.delete(id);
      publisher.publish({ kind: 'user', userId: n.user_id }, [{ collection: 'notifications', kind: 'deleted', id }]);
    },
    createLocationTag(body) {
      const tag: WireLocationTag = { ...body, id: nextId() };
      s.locationTags.set(tag.id, tag);
      if (tag.user_id) store.updateUser(tag.user_id, { location_tag_id: tag.id });
      return tag;
    },
    deleteLocationTag(id) {
      const tag = mustGet(s.locationTags, id, 'location tag');
      s.locationTags.delete(id);
      const user = tag.user_id ? s.users.get(tag.user_id) : undefined;
      if (user && user.location_tag_id === id) store.updateUser(user.id, { location_tag_id: null });
    },

    revokeSessions(userId, reason, options = {}) {
      const ended: string[] = [];
      for (const [token, rec] of s.tokens) {
        if (rec.userId !== userId || token === options.keepToken) continue;
        if (options.onlyToken !== undefined && token !== options.onlyToken) continue;
        s.tokens.delete(token);
        ended.push(sessionIdOf(token));
      }
      const revocation: Revocation = { userId, sessionIds: ended, reason, wholeUser: reason === 'deleted' || reason === 'permissions' };
      for (const listener of revokeListeners) listener(revocation);
      return ended;
    },
    onRevoke(listener) {
      revokeListeners.add(listener);
      return () => { revokeListeners.delete(listener); };
    },
  };
}
