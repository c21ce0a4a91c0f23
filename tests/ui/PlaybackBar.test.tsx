// The playback bar moves the replayed time: Play advances it every tick by
// the tick times the speed, a speed changed while playing counts from the
// next tick on without a restart, Pause stops it, and the steps move it a
// quarter hour from the time last asked for.

import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlaybackMeta } from '../../src/shared/api.js';
import { emptySkipped } from '../../src/shared/reports/types.js';
import { PlaybackBar } from '../../src/ui/components/reports/PlaybackBar.js';
import { EngineContext } from '../../src/ui/hooks/engineContext.js';
import { createFakeEngine } from './fakeEngine.js';

const START = Date.UTC(2025, 3, 2);
const meta: PlaybackMeta = {
  floor: null, building: null, legends: [], fromCache: false, loading: false,
  day: '2025-04-02', time: START + 9 * 3_600_000, start: START, end: START + 86_400_000,
  progress: { state: 'done', pagesLoaded: 1, pagesEstimated: 1, pagesFromCache: 0, rows: 10, elapsedMs: 5, skipped: emptySkipped(), message: null },
};

function show() {
  const engine = createFakeEngine();
  render(
    <EngineContext.Provider value={engine.client}>
      <PlaybackBar floorId="f1" day="2025-04-02" meta={meta} timeZone="UTC" maxDay="2025-04-08" onDay={vi.fn()} onClose={vi.fn()} />
    </EngineContext.Provider>,
  );
  const times = () => vi.mocked(engine.setPlaybackTime).mock.calls.map((c) => c[2]);
  return { engine, times };
}

describe('PlaybackBar', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { cleanup(); vi.useRealTimers(); });

  it('advances by the speed every tick, takes a new speed without a restart, and stops on Pause', () => {
    const { times } = show();
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    act(() => { vi.advanceTimersByTime(250); });
    expect(times()).toEqual([meta.time + 250 * 600]);
    fireEvent.change(screen.getByLabelText('Speed'), { target: { value: '3600' } });
    act(() => { vi.advanceTimersByTime(250); });
    expect(times()).toEqual([meta.time + 250 * 600, meta.time + 250 * 600 + 250 * 3600]);
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    act(() => { vi.advanceTimersByTime(2_000); });
    expect(times()).toHaveLength(2);
  });

  it('steps a quarter hour from the time last asked for, and stops at the end of the day', () => {
    const { times } = show();
    fireEvent.click(screen.getByRole('button', { name: 'Step forward 15 minutes' }));
    fireEvent.click(screen.getByRole('button', { name: 'Step forward 15 minutes' }));
    fireEvent.click(screen.getByRole('button', { name: 'Step back 15 minutes' }));
    expect(times()).toEqual([meta.time + 900_000, meta.time + 1_800_000, meta.time + 900_000]);
    // at 3600× a tick is 15 minutes: from 09:15 the day ends within 60 ticks, and playing stops there
    fireEvent.change(screen.getByLabelText('Speed'), { target: { value: '3600' } });
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    act(() => { vi.advanceTimersByTime(250 * 80); });
    expect(times().at(-1)).toBe(meta.end - 1);
    expect(screen.getByRole('button', { name: 'Play' }).getAttribute('aria-pressed')).toBe('false');
  });
});
