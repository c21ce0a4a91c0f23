// Roles derived from the permission list of the settings (spec §6), and what
// each role may see. Failures are Error subclasses carrying the verbatim
// messages of spec §5, so callers can tell them apart by class.

import { ROLE_PERMISSIONS } from './constants.js';
import { MSG } from './messages.js';
import type { Role } from './types.js';

export class NoPermissionsError extends Error {
  constructor() {
    super(MSG.NO_PERMISSIONS);
    this.name = 'NoPermissionsError';
  }
}

export class NoRoleError extends Error {
  constructor() {
    super(MSG.NO_ROLE);
    this.name = 'NoRoleError';
  }
}

/** Weakest first; "at least" comparisons (reportViewingRolesAtLeast) use this order. */
export const ROLE_ORDER: readonly Role[] = ['regular', 'service', 'edit', 'admin'];

/** Settings or anything carrying a permission list; `permissions` may be missing. */
export interface PermissionSource {
  permissions?: unknown;
}

function permissionList(source: PermissionSource | null | undefined): string[] {
  if (!source || !Array.isArray(source.permissions)) throw new NoPermissionsError();
  return source.permissions.filter((p): p is string => typeof p === 'string');
}

/**
 * Roles whose permission is in the list, strongest first. Throws
 * `NoPermissionsError` ('No permissions') when the settings lack a list.
 */
export function rolesFromPermissions(source: PermissionSource | null | undefined): Role[] {
  const permissions = new Set(permissionList(source));
  return [...ROLE_ORDER].reverse().filter((role) => permissions.has(ROLE_PERMISSIONS[role]));
}

/**
 * The role check of spec §5: 'No permissions' without a permission list,
 * 'No role' without a role to check; otherwise whether the role is held.
 */
export function hasRole(source: PermissionSource | null | undefined, role: Role | null | undefined): boolean {
  const roles = rolesFromPermissions(source);
  if (!role) throw new NoRoleError();
  return roles.includes(role);
}

/** Whether any held role is `minimum` or stronger in ROLE_ORDER. */
export function hasRoleAtLeast(roles: readonly Role[], minimum: Role): boolean {
  const needed = ROLE_ORDER.indexOf(minimum);
  return roles.some((role) => ROLE_ORDER.indexOf(role) >= needed);
}

/** Edit-role users see unpublished assets (spec §5, §6). */
export function canSeeUnpublished(roles: readonly Role[]): boolean {
  return roles.includes('edit');
}

/** Edit-role users see hidden floors (spec §6). */
export function canSeeHiddenFloors(roles: readonly Role[]): boolean {
  return roles.includes('edit');
}

/** Whether an asset reaches this user at all. */
export function assetVisibleToRoles(asset: { unpublished: boolean }, roles: readonly Role[]): boolean {
  return !asset.unpublished || canSeeUnpublished(roles);
}

/** Whether a floor reaches this user at all. */
export function floorVisibleToRoles(floor: { hidden: boolean }, roles: readonly Role[]): boolean {
  return !floor.hidden || canSeeHiddenFloors(roles);
}
