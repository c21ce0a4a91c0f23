// Directions (docs/wayfinding.md): the worker's `route` view from the viewer
// (or a chosen asset) to a room, desk or person, listed in words with
// numbered steps; each step shows its floor. The same steps are drawn on the
// map by RouteOverlay. Escape or Close ends the directions.

import { useEffect, useRef, type Ref } from 'react';
import { SELF_KEY, type RouteEndpoint, type RouteView } from '../../../shared/api.js';
import { useView, useViewEntry, useViewReady } from '../../hooks/useView.js';
// its styles (route.css) are in the page's head: main.tsx imports them

export interface RouteTarget {
  from: RouteEndpoint;
  to: RouteEndpoint;
  /** the destination's name, for the heading */
  name: string;
}

const STATUS_WORDS: Record<Exclude<RouteView['status'], 'ok'>, string> = {
  off: 'Directions are not enabled for this location.',
  noStart: 'Your position is not known. Set your location (My location) or share it with a tag.',
  noDestination: 'The destination is not on a floor you can see right now.',
  noRoute: 'No way between these floors is known: no lift, stairs or passage joins them.',
  unavailable: 'Directions could not be loaded. Check the connection and try again.',
};

export function useRoute(target: RouteTarget | null) {
  const mirror = useView(target ? { view: 'route', from: target.from, to: target.to } : null);
  return { mirror, ready: useViewReady(mirror), route: useViewEntry(mirror, SELF_KEY) };
}

export interface RoutePanelProps {
  target: RouteTarget;
  route: RouteView | undefined;
  ready: boolean;
  floorName(id: string): string | null;
  /** the floor shown now: its steps are marked */
  floorId: string | null;
  onShowFloor(floorId: string): void;
  onClose(): void;
  /** where the route may start: the viewer, or the asset highlighted on the map */
  starts: Array<{ label: string; from: RouteEndpoint }>;
  onFrom(from: RouteEndpoint): void;
  /** the panel's element: the map fits the floor beside it */
  ref?: Ref<HTMLElement>;
}

const endpointKey = (e: RouteEndpoint) => (e.kind === 'me' ? 'me' : `${e.kind}:${e.id}`);

export function RoutePanel({ target, route, ready, floorName, floorId, onShowFloor, onClose, starts, onFrom, ref }: RoutePanelProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [target.to]);
  return (
    <section
      ref={ref}
      className="route-panel"
      aria-label={`Directions to ${target.name}`}
      onKeyDown={(e) => { if (e.key === 'Escape') { e.stopPropagation(); onClose(); } }}
    >
      <header>
        <h2 ref={heading} tabIndex={-1}>Directions to {target.name}</h2>
        <button type="button" onClick={onClose} aria-label="Close directions">×</button>
      </header>
      {starts.length > 1 ? (
        <label className="route-from">
          From{' '}
          <select aria-label="Start from" value={endpointKey(target.from)} onChange={(e) => onFrom(starts.find((s) => endpointKey(s.from) === e.target.value)!.from)}>
            {starts.map((s) => <option key={endpointKey(s.from)} value={endpointKey(s.from)}>{s.label}</option>)}
          </select>
        </label>
      ) : null}
      {!ready || !route ? (
        <p role="status">Finding the way…</p>
      ) : route.status !== 'ok' ? (
        <p role="status">{STATUS_WORDS[route.status]}</p>
      ) : (
        <>
          <p className="route-summary" role="status">
            {route.steps.length} steps · {route.metres} m walking
            {route.floorIds.length > 1 ? ` · ${route.floorIds.length} floors` : ''}
          </p>
          <ol className="route-steps">
            {route.steps.map((step) => {
              const here = step.floorId === floorId;
              return (
                <li key={step.n} className={here ? 'here' : undefined} data-step={step.n}>
                  <button type="button" onClick={() => onShowFloor(step.floorId)} aria-current={here ? 'step' : undefined}>
                    <span className="route-n" aria-hidden="true">{step.n}</span>
                    <span className="route-text">{step.text}</span>
                    <span className="route-floor">{floorName(step.floorId) ?? ''}</span>
                  </button>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}
