import { describe, expect, it } from 'vitest';
import {
  NoPermissionsError, NoRoleError, ROLE_ORDER, assetVisibleToRoles, canSeeHiddenFloors, canSeeUnpublished,
  floorVisibleToRoles, hasRole, hasRoleAtLeast, rolesFromPermissions,
} from '../../src/shared/roles.js';
import { MSG } from '../../src/shared/messages.js';

describe('roles', () => {
  describe('rolesFromPermissions', () => {
    it('derives each role from its permission (spec §6)', () => {
      expect(rolesFromPermissions({ permissions: ['FOREIGN_ORGANIZATION_ACCESS'] })).toEqual(['admin']);
      expect(rolesFromPermissions({ permissions: ['ASSET_UPDATE'] })).toEqual(['edit']);
      expect(rolesFromPermissions({ permissions: ['ASSET_UPDATE_SERVICE_TICKET'] })).toEqual(['service']);
      expect(rolesFromPermissions({ permissions: ['USER_UPDATE_SELF'] })).toEqual(['regular']);
    });

    it('lists every held role, strongest first, and ignores unknown permissions', () => {
      expect(rolesFromPermissions({ permissions: ['USER_UPDATE_SELF', 'SOMETHING', 'ASSET_UPDATE'] })).toEqual(['edit', 'regular']);
      expect(rolesFromPermissions({ permissions: [] })).toEqual([]);
    });

    it("fails with 'No permissions' when the settings lack a permission list", () => {
      expect(() => rolesFromPermissions({})).toThrow('No permissions');
      expect(() => rolesFromPermissions(null)).toThrow(NoPermissionsError);
      expect(() => rolesFromPermissions({ permissions: 'ASSET_UPDATE' })).toThrow(MSG.NO_PERMISSIONS);
    });
  });

  describe('hasRole', () => {
    const settings = { permissions: ['ASSET_UPDATE'] };

    it('tells whether the role is held', () => {
      expect(hasRole(settings, 'edit')).toBe(true);
      expect(hasRole(settings, 'admin')).toBe(false);
    });

    it("fails with 'No role' when no role is given", () => {
      expect(() => hasRole(settings, null)).toThrow('No role');
      expect(() => hasRole(settings, undefined)).toThrow(NoRoleError);
      expect(MSG.NO_ROLE).toBe('No role');
    });

    it("checks permissions before the role, so a missing list reads 'No permissions'", () => {
      expect(() => hasRole(undefined, null)).toThrow(MSG.NO_PERMISSIONS);
    });

    it('throws Error subclasses with their own names', () => {
      const e = new NoPermissionsError();
      expect(e).toBeInstanceOf(Error);
      expect(e.name).toBe('NoPermissionsError');
      expect(new NoRoleError().message).toBe('No role');
    });
  });

  describe('hasRoleAtLeast', () => {
    it('orders roles regular < service < edit < admin', () => {
      expect(ROLE_ORDER).toEqual(['regular', 'service', 'edit', 'admin']);
      expect(hasRoleAtLeast(['edit'], 'regular')).toBe(true);
      expect(hasRoleAtLeast(['service'], 'edit')).toBe(false);
      expect(hasRoleAtLeast([], 'regular')).toBe(false);
    });
  });

  describe('visibility', () => {
    it('shows unpublished assets and hidden floors to the edit role only', () => {
      expect(canSeeUnpublished(['edit'])).toBe(true);
      expect(canSeeHiddenFloors(['edit', 'regular'])).toBe(true);
      expect(canSeeUnpublished(['regular', 'service'])).toBe(false);
      expect(canSeeHiddenFloors(['regular'])).toBe(false);
    });

    it('filters assets and floors by those rules', () => {
      expect(assetVisibleToRoles({ unpublished: true }, ['regular'])).toBe(false);
      expect(assetVisibleToRoles({ unpublished: true }, ['edit'])).toBe(true);
      expect(assetVisibleToRoles({ unpublished: false }, [])).toBe(true);
      expect(floorVisibleToRoles({ hidden: true }, ['regular'])).toBe(false);
      expect(floorVisibleToRoles({ hidden: true }, ['edit'])).toBe(true);
    });
  });
});
