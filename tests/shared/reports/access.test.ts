import { describe, expect, it } from 'vitest';
import { reportAccess } from '../../../src/shared/reports/access.js';
import { ROLE_PERMISSIONS } from '../../../src/shared/constants.js';

describe('reportAccess', () => {
  it("answers 'No permissions' when the settings carry no permission list", () => {
    expect(reportAccess({}, 'regular')).toEqual({ ok: false, message: 'No permissions' });
    expect(reportAccess(null, 'regular')).toEqual({ ok: false, message: 'No permissions' });
  });
  it("answers 'No role' when the configuration names no role", () => {
    expect(reportAccess({ permissions: [ROLE_PERMISSIONS.regular] }, undefined)).toEqual({ ok: false, message: 'No role' });
    expect(reportAccess({ permissions: [ROLE_PERMISSIONS.regular] }, 'boss')).toEqual({ ok: false, message: 'No role' });
  });
  it('lets the configured role and stronger ones in, and keeps weaker ones out', () => {
    expect(reportAccess({ permissions: [ROLE_PERMISSIONS.regular] }, 'regular')).toEqual({ ok: true });
    expect(reportAccess({ permissions: [ROLE_PERMISSIONS.admin] }, 'edit')).toEqual({ ok: true });
    expect(reportAccess({ permissions: [ROLE_PERMISSIONS.regular] }, 'edit')).toEqual({ ok: false, message: 'This report needs the edit role.' });
    expect(reportAccess({ permissions: [] }, 'regular').ok).toBe(false);
  });
});
