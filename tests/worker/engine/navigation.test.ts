// How far navigation got, as the UI words it: never "none" before the data could arrive.

import { describe, expect, it } from 'vitest';
import { navigationState, type NavigationInputs } from '../../../src/worker/engine/navigation.js';

const signedIn: NavigationInputs = {
  signedIn: true, settingsKnown: true, homeOrganizationId: null, organizationId: null, organizationLoaded: false,
  locationId: null, locationIds: null, structureLoaded: false, floorId: null,
};

describe('navigationState', () => {
  it('is loading the organization while the home organization is known but not entered (the clock is checked first)', () => {
    expect(navigationState({ ...signedIn, homeOrganizationId: 'org-1' })).toBe('organizations');
  });

  it('says there is no organization only when the settings name none', () => {
    expect(navigationState(signedIn)).toBe('noOrganization');
    expect(navigationState({ ...signedIn, settingsKnown: false })).toBe('organizations');
  });
});
