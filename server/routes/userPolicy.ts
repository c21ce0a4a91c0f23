// Who may change what about a user inside one organization (docs/security.md
// "Roles inside an organization"). A user changes their own profile; a
// higher role changes a lower one's profile and removes them; only an admin
// changes another user's email, permissions or password, or touches a user
// of equal or higher role. Every refusal is an HttpError(403) naming why.

import { ROLE_PERMISSIONS } from '../../src/shared/constants.js';
import { SELF_UPDATABLE_USER_FIELDS, type UpdateUserRequest, type WireUser } from '../../src/shared/rest.js';
import type { Role } from '../../src/shared/types.js';
import { hasRole } from '../auth.js';
import { HttpError, requireRole } from './guard.js';

const RANKED_ROLES: readonly Role[] = ['regular', 'service', 'edit', 'admin'];

/** The highest role a permission list gives: admin 3, edit 2, service 1, regular 0; -1 without any. */
export function rankOf(permissions: readonly string[]): number {
  let rank = -1;
  RANKED_ROLES.forEach((role, i) => { if (permissions.includes(ROLE_PERMISSIONS[role])) rank = i; });
  return rank;
}

const isAdmin = (user: WireUser) => hasRole(user.permissions, 'admin');

/** Whether `actor` manages `target`: an admin, or the edit role above the target's highest role. */
export function manages(actor: WireUser, target: WireUser): boolean {
  if (actor.id === target.id) return false;
  return isAdmin(actor) || (hasRole(actor.permissions, 'edit') && rankOf(actor.permissions) > rankOf(target.permissions));
}

export function requireManages(actor: WireUser, target: WireUser): void {
  if (!manages(actor, target)) throw new HttpError(403, 'Only an admin or a higher role may change or remove this user');
}

const PROFILE = SELF_UPDATABLE_USER_FIELDS as readonly string[];

/**
 * Checks a PATCH of `target` by `actor`. `currentPasswordOk` tells whether
 * the body's current_password is the actor's; it is asked only when the
 * actor changes their own email.
 */
export function checkUserUpdate(actor: WireUser, target: WireUser, body: UpdateUserRequest, currentPasswordOk: () => boolean): void {
  const fields = Object.keys(body).filter((k) => k !== 'current_password');
  const profile = fields.filter((k) => PROFILE.includes(k));
  const staff = fields.filter((k) => k === 'location_tag_id');
  const emailChange = body.email !== undefined && body.email.toLowerCase() !== target.email;
  if (actor.id === target.id) {
    if (profile.length) requireRole(actor, 'regular');
    if (staff.length) requireRole(actor, 'edit');
    if (body.permissions !== undefined) requireRole(actor, 'admin');
    if (emailChange && !currentPasswordOk()) {
      throw new HttpError(403, 'Changing your email needs your current password in body/current_password');
    }
    return;
  }
  if (profile.length || staff.length) requireManages(actor, target);
  if (emailChange || body.permissions !== undefined) {
    if (!isAdmin(actor)) throw new HttpError(403, 'Only an admin may change another user\'s email or permissions');
  }
}

/** Granting permissions on create or invite: below the actor's own role, or anything for an admin. */
export function checkGrant(actor: WireUser, permissions: readonly string[] | undefined): void {
  if (!permissions?.length || isAdmin(actor)) return;
  if (rankOf(permissions) >= rankOf(actor.permissions)) {
    throw new HttpError(403, 'Only an admin may grant a role equal to or above your own');
  }
}

/** Setting another user's password without a mail code: the admin role. */
export function checkPasswordChangeOfOther(actor: WireUser): void {
  if (!isAdmin(actor)) throw new HttpError(403, 'Only the user or an admin may change a password');
}
