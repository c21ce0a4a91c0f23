// "Play back a day" opens the last working day of the location (docs/reports.md
// "## Playback"): on a Monday the Friday before, not an empty Sunday; the Day
// field still takes any other day.

import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type ViewSpec } from '../../src/shared/api.js';
import { createFakeEngine, sessionView, signedInWorld, type FakeEngine } from './fakeEngine.js';
import { renderShell } from './renderShell.js';

const ZONE = 'Europe/Helsinki';

function helsinkiWorld() {
  const world = signedInWorld();
  world.session = { entries: { [SELF_KEY]: sessionView({ timeZone: ZONE, locations: [{ id: 'l1', name: 'HQ', timezone: ZONE }] }) }, meta: null };
  return world;
}

/** The days of the playback views the Shell opened, in order. */
function playbackDays(engine: FakeEngine): string[] {
  return vi.mocked(engine.subscribe).mock.calls
    .map(([spec]) => spec)
    .filter((spec): spec is Extract<ViewSpec, { view: 'playback' }> => spec.view === 'playback')
    .map((spec) => spec.day);
}

async function openPlayback(now: number): Promise<FakeEngine> {
  vi.useFakeTimers({ now, shouldAdvanceTime: true });
  const engine = createFakeEngine(helsinkiWorld());
  renderShell(engine);
  fireEvent.click(await screen.findByRole('button', { name: 'Play back a day' }));
  await waitFor(() => expect(playbackDays(engine).length).toBeGreaterThan(0));
  return engine;
}

describe('usePlaybackDay', () => {
  afterEach(() => { cleanup(); vi.useRealTimers(); });

  describe('the day "Play back a day" opens', () => {
    it('is the Friday before on a Monday morning, not the Sunday', async () => {
      // Monday 2026-11-30, 08:00 in Helsinki (06:00 UTC)
      const engine = await openPlayback(Date.UTC(2026, 10, 30, 6));
      expect(playbackDays(engine)).toEqual(['2026-11-27']);
      expect((screen.getByLabelText('Day') as HTMLInputElement).value).toBe('2026-11-27');
    });

    it('is yesterday on a Tuesday', async () => {
      // Tuesday 2026-12-01, 08:00 in Helsinki
      const engine = await openPlayback(Date.UTC(2026, 11, 1, 6));
      expect(playbackDays(engine)).toEqual(['2026-11-30']);
      expect((screen.getByLabelText('Day') as HTMLInputElement).value).toBe('2026-11-30');
    });

    it("counts the days of the location's zone: just after midnight on Monday there, Sunday in UTC", async () => {
      // 22:30 UTC on Sunday 2026-11-29 is 00:30 on Monday in Helsinki
      const engine = await openPlayback(Date.UTC(2026, 10, 29, 22, 30));
      expect(playbackDays(engine)).toEqual(['2026-11-27']);
    });

    it('is the Friday on a Sunday too', async () => {
      const engine = await openPlayback(Date.UTC(2026, 10, 29, 10));
      expect(playbackDays(engine)).toEqual(['2026-11-27']);
    });
  });

  it('still replays a weekend day chosen in the Day field', async () => {
    const engine = await openPlayback(Date.UTC(2026, 10, 30, 6));
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2026-11-29' } });
    await waitFor(() => expect(playbackDays(engine).at(-1)).toBe('2026-11-29'));
    expect((screen.getByLabelText('Day') as HTMLInputElement).value).toBe('2026-11-29');
  });
});
