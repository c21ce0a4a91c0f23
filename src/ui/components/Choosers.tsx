// Choice of organization, location, building and floor: the chosen ones come
// from the session view (the worker owns navigation and its defaults), floors
// ordered from the structure view (hidden floors reach only the edit role).

import { useId } from 'react';
import type { SessionView, StructureEntry } from '../../shared/api.js';

export interface ChoosersProps {
  session: SessionView;
  buildings: readonly StructureEntry[];
  buildingId: string | null;
  floorId: string | null;
  onOrganization(id: string): void;
  onLocation(id: string): void;
  onBuilding(id: string): void;
  onFloor(id: string): void;
}

export function Choosers(props: ChoosersProps) {
  const { session, buildings, buildingId, floorId } = props;
  const ids = { org: useId(), loc: useId(), building: useId(), floor: useId() };
  const building = buildings.find((b) => b.building.id === buildingId) ?? null;
  // never "none" before the data could arrive (session.navigation says how far loading got)
  const loadingLocations = session.navigation === 'organizations' || session.navigation === 'locations';
  const loadingStructure = loadingLocations || session.navigation === 'structure';
  return (
    <nav className="choosers" aria-label="Place">
      {session.organizations.length > 1 ? (
        <span className="chooser">
          <label htmlFor={ids.org}>Organization</label>
          <select id={ids.org} value={session.organizationId ?? ''} onChange={(e) => props.onOrganization(e.target.value)}>
            {session.organizationId ? null : <option value="">Choose…</option>}
            {session.organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </span>
      ) : null}
      <span className="chooser">
        <label htmlFor={ids.loc}>Location</label>
        <select
          id={ids.loc}
          value={session.locationId ?? ''}
          disabled={session.locations.length === 0 && !session.locationId}
          onChange={(e) => props.onLocation(e.target.value)}
        >
          {session.locationId ? null : <option value="">{loadingLocations ? 'Loading…' : session.locations.length ? 'Choose…' : 'No locations'}</option>}
          {session.locationId && !session.locations.some((l) => l.id === session.locationId) ? (
            <option value={session.locationId}>Saved location</option>
          ) : null}
          {session.locations.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
      </span>
      <span className="chooser">
        <label htmlFor={ids.building}>Building</label>
        <select id={ids.building} value={buildingId ?? ''} disabled={buildings.length === 0} onChange={(e) => props.onBuilding(e.target.value)}>
          {buildingId ? null : <option value="">{loadingStructure ? 'Loading…' : buildings.length ? 'Choose…' : 'No buildings'}</option>}
          {buildings.map((b) => (
            <option key={b.building.id} value={b.building.id}>
              {b.building.name}
            </option>
          ))}
        </select>
      </span>
      <span className="chooser">
        <label htmlFor={ids.floor}>Floor</label>
        <select id={ids.floor} value={floorId ?? ''} disabled={!building || building.floors.length === 0} onChange={(e) => props.onFloor(e.target.value)}>
          {floorId ? null : <option value="">{loadingStructure ? 'Loading…' : building?.floors.length ? 'Choose…' : 'No floors'}</option>}
          {(building?.floors ?? []).map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
              {f.id === building?.defaultFloorId ? ' (default)' : ''}
              {f.hidden ? ' (hidden)' : ''}
            </option>
          ))}
        </select>
      </span>
    </nav>
  );
}
