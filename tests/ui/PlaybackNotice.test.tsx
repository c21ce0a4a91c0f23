// The replay notice above the map and the words around a replay write its day
// as the popups write a date (lib/timeFormat.ts `formatDay`): "Nov 23", with
// the year only for a day of another year, never the key "2026-11-23".

import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlaybackMeta } from '../../src/shared/api.js';
import { emptySkipped } from '../../src/shared/reports/types.js';
import { formatDateTime, formatDay } from '../../src/ui/lib/timeFormat.js';
import { createFakeEngine, signedInWorld } from './fakeEngine.js';
import { renderShell } from './renderShell.js';

// noon of Nov 24, 2026 in UTC, the fake session's zone: "yesterday" is Nov 23
const NOW = Date.UTC(2026, 10, 24, 12);

function playbackMeta(day: string, hour: number, rows = 10): PlaybackMeta {
  const start = Date.parse(`${day}T00:00:00Z`);
  return {
    floor: null, building: null, legends: [], fromCache: false, loading: false,
    day, time: start + hour * 3_600_000, start, end: start + 86_400_000,
    progress: { state: 'done', pagesLoaded: 1, pagesEstimated: 1, pagesFromCache: 0, rows, elapsedMs: 5, skipped: emptySkipped(), message: null },
  };
}

describe('the replay notice', () => {
  beforeEach(() => { vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true }); });
  afterEach(() => { cleanup(); vi.useRealTimers(); });

  it('names the day as the popups write a date, with the year only for a day of another year', async () => {
    const engine = createFakeEngine(signedInWorld());
    engine.bucket('playback').meta = playbackMeta('2026-11-23', 9.5);
    renderShell(engine);
    fireEvent.click(await screen.findByRole('button', { name: 'Play back a day' }));
    const notice = await screen.findByTestId('playback-indicator');
    await waitFor(() => expect(notice.textContent).toBe(`Replay of ${formatDay('2026-11-23', 'UTC', NOW)} at 09:30, not live.`));
    // the popups' date of the same day, its time apart: the same words
    const popupDate = formatDateTime(Date.UTC(2026, 10, 23, 9, 30), 'UTC', NOW);
    expect(popupDate.startsWith(formatDay('2026-11-23', 'UTC', NOW))).toBe(true);
    expect(notice.textContent).not.toContain('2026-11-23');
    expect(notice.textContent).not.toContain('2026');

    // a day of last year carries its year, as the popups' date of it does
    engine.reset('playback', { entries: {}, meta: playbackMeta('2025-12-30', 17) });
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2025-12-30' } });
    await waitFor(() => expect(screen.getByTestId('playback-indicator').textContent).toBe(`Replay of ${formatDay('2025-12-30', 'UTC', NOW)} at 17:00, not live.`));
    expect(screen.getByTestId('playback-indicator').textContent).toContain('2025');
    expect(formatDateTime(Date.UTC(2025, 11, 30, 17), 'UTC', NOW)).toContain('2025');
  });

  it('says a day without readings in the same words', async () => {
    const engine = createFakeEngine(signedInWorld());
    engine.bucket('playback').meta = playbackMeta('2026-11-23', 0, 0);
    renderShell(engine);
    fireEvent.click(await screen.findByRole('button', { name: 'Play back a day' }));
    expect(await screen.findByText(`No readings on ${formatDay('2026-11-23', 'UTC', NOW)}: nothing to replay.`)).toBeTruthy();
  });
});

describe('formatDay', () => {
  it('writes a day key in the locale\'s short month words, with the year only when it is not this year\'s', () => {
    const month = new Intl.DateTimeFormat(undefined, { month: 'short', timeZone: 'UTC' }).format(Date.UTC(2026, 10, 23, 12));
    expect(formatDay('2026-11-23', 'UTC', NOW)).toContain(month);
    expect(formatDay('2026-11-23', 'UTC', NOW)).toContain('23');
    expect(formatDay('2026-11-23', 'UTC', NOW)).not.toContain('2026');
    expect(formatDay('2025-12-30', 'UTC', NOW)).toContain('2025');
    // the calendar day of the key in any zone: Pacific/Kiritimati is UTC+14, Pacific/Pago_Pago UTC-11
    expect(formatDay('2026-11-23', 'Pacific/Kiritimati', NOW)).toBe(formatDay('2026-11-23', 'UTC', NOW));
    expect(formatDay('2026-11-23', 'Pacific/Pago_Pago', NOW)).toBe(formatDay('2026-11-23', 'UTC', NOW));
    // "this year" is the location's: on Dec 31 at 23:00 UTC it is already next year in Helsinki
    const newYearsEve = Date.UTC(2026, 11, 31, 23);
    expect(formatDay('2026-12-31', 'UTC', newYearsEve)).not.toContain('2026');
    expect(formatDay('2026-12-31', 'Europe/Helsinki', newYearsEve)).toContain('2026');
    expect(formatDay('not a day', 'UTC', NOW)).toBe('not a day');
  });
});
