import { describe, expect, it } from 'vitest';
import type { SessionView } from '../../src/shared/api.js';
import { dataSettled } from '../../src/ui/hooks/appContext.js';

const view = (over: Pick<SessionView, 'phase' | 'navigation' | 'fromCache'>) => over as SessionView;

describe('dataSettled', () => {
  it('is not settled while a first sign-in is on its way, whatever the navigation has reached', () => {
    expect(dataSettled(view({ phase: 'signingIn', navigation: 'idle', fromCache: false }))).toBe(false);
    expect(dataSettled(view({ phase: 'connecting', navigation: 'organizations', fromCache: false }))).toBe(false);
    expect(dataSettled(view({ phase: 'loading', navigation: 'structure', fromCache: false }))).toBe(false);
  });

  it('is settled on saved data while the engine connects', () => {
    expect(dataSettled(view({ phase: 'connecting', navigation: 'ready', fromCache: true }))).toBe(true);
  });

  it('stays settled through a reconnect of a location already loaded live (no "locating…" flicker in the People list)', () => {
    expect(dataSettled(view({ phase: 'connecting', navigation: 'ready', fromCache: false }))).toBe(true);
    expect(dataSettled(view({ phase: 'loading', navigation: 'ready', fromCache: false }))).toBe(true);
  });

  it('is not settled while another location is being opened', () => {
    expect(dataSettled(view({ phase: 'live', navigation: 'structure', fromCache: false }))).toBe(false);
  });
});
