// The role gate of reports (spec §6 reportViewingRolesAtLeast, §5 role check):
// 'No permissions' when the settings carry no permission list, 'No role' when
// the configuration names no valid role for the report, else whether the
// user holds that role or a stronger one.

import { REPORT_KINDS, type ReportKind } from '../config.js';
import { MSG } from '../messages.js';
import { NoPermissionsError, ROLE_ORDER, hasRoleAtLeast, rolesFromPermissions, type PermissionSource } from '../roles.js';
import type { Role } from '../types.js';

export type ReportAccess = { ok: true } | { ok: false; message: string };

export function reportAccess(settings: PermissionSource | null | undefined, minimum: unknown): ReportAccess {
  let roles: Role[];
  try {
    roles = rolesFromPermissions(settings);
  } catch (error) {
    if (error instanceof NoPermissionsError) return { ok: false, message: MSG.NO_PERMISSIONS };
    throw error;
  }
  if (typeof minimum !== 'string' || !(ROLE_ORDER as readonly string[]).includes(minimum)) return { ok: false, message: MSG.NO_ROLE };
  return hasRoleAtLeast(roles, minimum as Role) ? { ok: true } : { ok: false, message: `This report needs the ${minimum} role.` };
}

export function isReportKind(value: unknown): value is ReportKind {
  return typeof value === 'string' && (REPORT_KINDS as readonly string[]).includes(value);
}
