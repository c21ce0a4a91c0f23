// The session view's one entry (SessionView of src/shared/api.ts): who is
// signed in, with which roles, in which organization, location and floor,
// the resolved configuration of the location, and load progress.

import type { LoadProgress, SessionView } from '../../shared/api.js';
import type { Id, Role, Settings } from '../../shared/types.js';
import type { ConfigResolver } from '../derive/configResolver.js';
import type { Store } from '../store/store.js';

export interface SessionInputs {
  store: Store;
  config: ConfigResolver;
  settings: Settings | null;
  userId: Id | null;
  signedIn: boolean;
  roles: readonly Role[];
  permissions: readonly string[];
  organizations: ReadonlyArray<{ id: Id; name: string }>;
  floorId: Id | null;
  progress: LoadProgress | null;
}

export function buildSessionView(i: SessionInputs): SessionView {
  const { store } = i;
  const user = i.settings?.user ?? (i.userId ? store.users.get(i.userId) ?? null : null);
  const org = store.organizationId ? store.organizations.get(store.organizationId) : undefined;
  const locations = [...store.locations.values()]
    .filter((l) => !org || org.locations.includes(l.id) || l.organization_id === org.id)
    .map((l) => ({ id: l.id, name: l.name, timezone: l.timezone }));
  return {
    signedIn: i.signedIn,
    user,
    roles: [...i.roles],
    permissions: [...i.permissions],
    organizations: i.organizations.length ? [...i.organizations] : org ? [{ id: org.id, name: org.name }] : [],
    organizationId: store.organizationId,
    locations,
    locationId: store.locationId,
    floorId: i.floorId,
    config: i.config.location() as unknown as Record<string, unknown>,
    cdnBaseUrl: i.settings?.cdn_base_url ?? null,
    progress: i.progress,
  };
}
