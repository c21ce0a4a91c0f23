// The session view's one entry (SessionView of src/shared/api.ts): the
// machine's phase, who is signed in with which roles and capabilities, where
// navigation stands, the typed resolved configuration and load progress.
// Derived, so the UI can never disagree with the machine.

import type { Capabilities, ConnectionView, LoadProgress, SessionView } from '../../shared/api.js';
import { REPORT_KINDS, type BaseConfig, type ReportKind } from '../../shared/config.js';
import { hasRoleAtLeast } from '../../shared/roles.js';
import type { Id, Role, Settings } from '../../shared/types.js';
import { isSignedIn, refKey, type SessionState } from '../session/machine.js';
import type { LiveInfo } from '../session/liveLink.js';
import type { Store } from '../store/store.js';
import { navigationState, type Navigation } from './navigation.js';

export interface SessionInputs {
  store: Store;
  state: SessionState;
  config: BaseConfig;
  settings: Settings | null;
  roles: readonly Role[];
  permissions: readonly string[];
  organizations: ReadonlyArray<{ id: Id; name: string }>;
  navigation: Navigation;
  progress: LoadProgress | null;
  fromCache: boolean;
  /** the location's structure is in the store (from the network or the cache) */
  structureLoaded: boolean;
}

export function capabilitiesOf(roles: readonly Role[], config: BaseConfig, organizationCount: number): Capabilities {
  const reports = Object.fromEntries(REPORT_KINDS.map((kind) => {
    const minimum = config.reportViewingRolesAtLeast?.[kind];
    return [kind, !!minimum && hasRoleAtLeast(roles, minimum)];
  })) as Record<ReportKind, boolean>;
  return {
    report: roles.length > 0,
    bookAllDay: config.allDayBookingButton === true,
    editAssets: roles.includes('edit'),
    closeTickets: roles.includes('edit') || roles.includes('service'),
    reports,
    switchOrganization: roles.includes('admin') || organizationCount > 1,
  };
}

export function buildSessionView(i: SessionInputs): SessionView {
  const { store, state, navigation } = i;
  const { phase, ctx } = state;
  const signedIn = isSignedIn(phase);
  const user = i.settings?.user ?? (ctx.userId ? store.users.get(ctx.userId) ?? null : null);
  const org = store.organizationId ? store.organizations.get(store.organizationId) : undefined;
  const locations = [...store.locations.values()]
    .filter((l) => !org || org.locations.includes(l.id) || l.organization_id === org.id)
    .map((l) => ({ id: l.id, name: l.name, timezone: l.timezone }));
  const floor = signedIn ? navigation.floor(i.roles) : null;
  const organizations = i.organizations.length ? [...i.organizations] : org ? [{ id: org.id, name: org.name }] : [];
  const location = store.locationId ? store.locations.get(store.locationId) : undefined;
  return {
    phase: phase.name,
    signedIn,
    sessionEnded: phase.name === 'sessionExpired' ? phase.reason : null,
    user: signedIn ? user : null,
    roles: [...i.roles],
    permissions: [...i.permissions],
    capabilities: capabilitiesOf(i.roles, i.config, organizations.length),
    organizations,
    organizationId: store.organizationId,
    locations,
    locationId: store.locationId,
    buildingId: floor?.parent_id ?? null,
    floorId: floor?.id ?? null,
    navigation: navigationState({
      signedIn,
      settingsKnown: i.settings !== null || ctx.homeOrganizationId !== null,
      homeOrganizationId: ctx.homeOrganizationId ?? i.settings?.user.organization_id ?? null,
      organizationId: ctx.organizationId,
      organizationLoaded: !!org || ctx.everLoaded.includes(refKey({ kind: 'organization', organizationId: ctx.organizationId ?? '' })),
      locationId: ctx.locationId,
      locationIds: ctx.orgLocationIds,
      structureLoaded: i.structureLoaded,
      floorId: floor?.id ?? null,
    }),
    timeZone: location?.timezone || 'UTC',
    config: i.config,
    cdnBaseUrl: i.settings?.cdn_base_url ?? null,
    progress: i.progress,
    fromCache: i.fromCache,
  };
}

/** The connection view of spec §4, derived from the machine's phase. */
export function buildConnectionView(state: SessionState, live: LiveInfo, extra: { fromCache: boolean; serverOffsetMs: number }): ConnectionView {
  const { phase, ctx } = state;
  let words: ConnectionView['state'];
  switch (phase.name) {
    case 'connecting': words = 'connecting'; break;
    case 'loading': case 'live': words = 'connected'; break;
    case 'retrying': words = phase.transportLost ? 'unavailable' : 'error'; break;
    default: words = 'idle';
  }
  return {
    state: words,
    phase: phase.name,
    transportState: live.state,
    transport: live.name,
    nextRetryAt: phase.name === 'retrying' ? phase.at : null,
    attempts: ctx.failures,
    online: ctx.online,
    fromCache: extra.fromCache,
    serverOffsetMs: extra.serverOffsetMs,
    lastError: phase.name === 'retrying' ? phase.lastError : null,
  };
}
