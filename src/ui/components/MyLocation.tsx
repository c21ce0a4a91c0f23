// Setting one's own manual location (spec §3: a manual-location sensor per
// user, valid for manualLocationTimeout, 12 h): pick a point on the floor,
// use the view centre (keyboard), or clear it.

import { useId } from 'react';
import { MANUAL_LOCATION_TIMEOUT_MS } from '../../shared/constants.js';
import { useEngine } from '../hooks/engineContext.js';
import { useApp } from '../hooks/appContext.js';
import { errorText } from '../lib/errorText.js';
import { NeedsServer } from './NeedsServer.js';

export interface MyLocationProps {
  floorId: string;
  /** the centre of the view, or null until the floor is drawn */
  center: { x: number; y: number } | null;
  picking: boolean;
  onPick(active: boolean): void;
}

export function MyLocation({ floorId, center, picking, onPick }: MyLocationProps) {
  const { api } = useEngine();
  const { announce, writable } = useApp();
  const reasonId = useId();
  // each button writes (a pick writes on the click): all wait for the server, with the reason
  const why = writable ? undefined : reasonId;
  const hours = MANUAL_LOCATION_TIMEOUT_MS / 3_600_000;
  const set = async (location: { floorId: string; x: number; y: number } | null) => {
    const r = await api.setManualLocation(location);
    announce(r.ok ? (location ? `Your location is set for ${hours} hours.` : 'Your location is cleared.') : `Could not set location: ${errorText(r)}`, r.ok ? 'info' : 'error');
  };
  return (
    <section className="my-location" aria-label="My location">
      <h2>My location</h2>
      <p>Tell co-workers where you sit today. It expires after {hours} hours.</p>
      {why ? <NeedsServer id={why} /> : null}
      <button type="button" aria-pressed={picking} disabled={!!why} aria-describedby={why} onClick={() => onPick(!picking)}>
        {picking ? 'Click your place, or arrow keys and Enter… (cancel)' : 'Pick my place on the floor'}
      </button>
      <button type="button" disabled={!center || !!why} aria-describedby={why} title={center ? undefined : 'Once the floor is drawn'} onClick={() => { if (center) void set({ floorId, x: center.x, y: center.y }); }}>
        Use the centre of the view
      </button>
      <button type="button" disabled={!!why} aria-describedby={why} onClick={() => void set(null)}>
        Clear my location
      </button>
    </section>
  );
}
