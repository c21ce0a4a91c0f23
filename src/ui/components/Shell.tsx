// The signed-in app: choosers, connection banner, layer panel, floor viewer
// and side panels. Keeps location, floor, layers and the highlighted asset in
// the URL (deep links) and picks defaults: first organization, first
// location, the first building's default floor.

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PersonEntry, RoomEntry, SessionView, StructureEntry } from '../../shared/api.js';
import { MAP_LAYERS, type MapLayer } from '../../shared/constants.js';
import { hasRoleAtLeast } from '../../shared/roles.js';
import type { Role } from '../../shared/types.js';
import { AppContext, configValue, type AppContextValue } from '../hooks/appContext.js';
import { useEngine } from '../hooks/engineContext.js';
import { useView, useViewEntries, useViewMeta, useViewReady } from '../hooks/useView.js';
import { formatDeepLink, parseDeepLink, type DeepLink } from '../lib/deepLink.js';
import type { ImageUrlPolicy } from '../lib/imageUrl.js';
import { Choosers } from './Choosers.js';
import { ConnectionBanner } from './ConnectionBanner.js';
import { FloorViewer } from './FloorViewer.js';
import { LayerPanel, MapLegends } from './LayerPanel.js';
import { MyLocation } from './MyLocation.js';
import { Notifications } from './Notifications.js';
import { PeopleFinder } from './PeopleFinder.js';
import { RoomFinder } from './RoomFinder.js';
import { TicketForm } from './TicketForm.js';
import { ReportsPanel, withDefaults } from './reports/ReportsPanel.js';
import type { Legend } from '../../shared/api.js';
import type { ReportMark, ReportMeta } from '../../shared/reports/types.js';
import { formatReportLink, parseReportLink } from '../lib/reportLink.js';
import type { ReportRequest } from '../../shared/reports/types.js';

type Panel = 'people' | 'rooms' | 'analytics' | 'report' | 'notifications' | 'me';
const PANELS: Array<{ id: Panel; title: string }> = [
  { id: 'people', title: 'People' },
  { id: 'rooms', title: 'Rooms' },
  { id: 'analytics', title: 'Reports' },
  { id: 'report', title: 'Report' },
  { id: 'notifications', title: 'Notifications' },
  { id: 'me', title: 'My location' },
];

export interface ShellProps {
  session: SessionView;
  /** API host, for the image policy */
  apiHost: string;
  /** reads and writes the query string; injectable for tests */
  location?: { search: string; replace(search: string): void };
}

const browserLocation = {
  get search() {
    return window.location.search;
  },
  replace(search: string) {
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}${window.location.hash}`);
  },
};

const timeZoneOf = (session: SessionView) => session.locations.find((l) => l.id === session.locationId)?.timezone ?? 'UTC';
const canReportLayer = (session: SessionView) => session.roles.length > 0;

/** The floor's legends plus the report layer's, titled with the report and its period. */
function reportLegend(legends: Legend[], meta: ReportMeta | undefined): Legend[] {
  if (!meta?.measure || !meta.request) return legends;
  const { period, kind } = meta.request;
  return [...legends, { layer: 'report', title: `${meta.measure.title} (${kind}, ${period.from} – ${period.to})`, unit: meta.measure.unit, stops: meta.measure.stops }];
}

/** The floor to open: the link's if it exists, else the first building's default floor. */
export function pickFloor(buildings: readonly StructureEntry[], wanted: string | null): string | null {
  if (wanted && buildings.some((b) => b.floors.some((f) => f.id === wanted))) return wanted;
  const first = buildings.find((b) => b.floors.length > 0);
  if (!first) return null;
  return first.defaultFloorId && first.floors.some((f) => f.id === first.defaultFloorId) ? first.defaultFloorId : first.floors[0]!.id;
}

export function Shell({ session, apiHost, location = browserLocation }: ShellProps) {
  const { api } = useEngine();
  const initial = useMemo(() => parseDeepLink(location.search), []); // eslint-disable-line react-hooks/exhaustive-deps
  const [link, setLink] = useState<DeepLink>(initial);
  const initialReport = useMemo(() => parseReportLink(location.search), []); // eslint-disable-line react-hooks/exhaustive-deps
  const [panel, setPanel] = useState<Panel>(initialReport ? 'analytics' : 'people');
  const [report, setReport] = useState<ReportRequest>(initialReport ?? { kind: 'desk', scope: { kind: 'location' }, period: { from: '', to: '' } });
  const [pick, setPick] = useState<null | 'ticket' | 'location'>(null);
  const [center, setCenter] = useState({ x: 0, y: 0 });
  const [ticketPoint, setTicketPoint] = useState<{ x: number; y: number } | null>(null);
  const [focus, setFocus] = useState<{ x: number; y: number; seq: number } | null>(null);
  const [message, setMessage] = useState<{ text: string; kind: 'info' | 'error' } | null>(null);
  const tried = useRef(new Set<string>());

  // organization and location: the link's location when it is ours, else the first
  useEffect(() => {
    if (!session.organizationId && session.organizations.length) {
      const id = session.organizations[0]!.id;
      if (!tried.current.has(`org:${id}`)) {
        tried.current.add(`org:${id}`);
        void api.loadOrganization(id);
      }
      return;
    }
    const wanted =
      link.location && session.locations.some((l) => l.id === link.location)
        ? link.location
        : (session.locationId ?? session.locations[0]?.id ?? null);
    if (wanted && wanted !== session.locationId && !tried.current.has(`loc:${wanted}`)) {
      tried.current.add(`loc:${wanted}`);
      void api.loadLocation(wanted);
    }
  }, [api, session.organizationId, session.organizations, session.locations, session.locationId, link.location]);

  const structure = useView(session.locationId ? { view: 'structure' } : null);
  const structureReady = useViewReady(structure);
  const structureEntries = useViewEntries(structure);
  const structureMeta = useViewMeta(structure);
  const buildings = useMemo(() => Object.values(structureEntries), [structureEntries]);
  const floorId = useMemo(() => pickFloor(buildings, link.floor), [buildings, link.floor]);
  const building = buildings.find((b) => b.floors.some((f) => f.id === floorId)) ?? null;

  useEffect(() => {
    if (floorId) void api.selectFloor(floorId);
  }, [api, floorId]);

  // keep the URL in step, so a copied link opens the same view
  useEffect(() => {
    const base = formatDeepLink({ ...link, location: session.locationId ?? link.location, floor: floorId ?? link.floor });
    const extra = panel === 'analytics' ? formatReportLink(report) : '';
    const next = extra ? `${base ? `${base}&` : '?'}${extra}` : base;
    if (next !== location.search) location.replace(next);
  }, [link, floorId, session.locationId, location, panel, report]);

  // the `report` layer colours by the report chosen in the Reports tab (default: desks, last 7 days)
  const reportLayerOn = link.layers.includes('report') && canReportLayer(session);
  const reportSpec = useMemo(() => (reportLayerOn && session.locationId ? { view: 'report' as const, report: withDefaults(report, timeZoneOf(session)) } : null), [reportLayerOn, report, session]);
  const reportLayer = useView(reportSpec);
  const reportEntries = useViewEntries(reportLayer);
  const reportMeta = useViewMeta(reportLayer);
  const reportMarks = useMemo(() => {
    const marks = new Map<string, ReportMark>();
    for (const row of Object.values(reportEntries)) if (row.mark) marks.set(row.mark.assetId, row.mark);
    return marks;
  }, [reportEntries]);
  const floorSpec = useMemo(() => (floorId ? { view: 'floor' as const, floorId, layers: link.layers } : null), [floorId, link.layers]);
  const floor = useView(floorSpec);
  const floorMeta = useViewMeta(floor);
  const rooms = useView(session.locationId ? { view: 'rooms' } : null);

  const timeZone = session.locations.find((l) => l.id === session.locationId)?.timezone;
  const announce = useCallback((text: string, kind: 'info' | 'error' = 'info') => setMessage({ text, kind }), []);
  const app = useMemo<AppContextValue>(() => ({ session, rooms, timeZone, announce }), [session, rooms, timeZone, announce]);
  const imagePolicy = useMemo<ImageUrlPolicy>(
    () => ({ apiHost, cdnBaseUrl: session.cdnBaseUrl, origin: window.location.origin }),
    [apiHost, session.cdnBaseUrl],
  );

  const reportRole = configValue<Role>(session, 'reportViewingRolesAtLeast.location', 'regular');
  const unavailable = useMemo(
    () => new Set<MapLayer>(hasRoleAtLeast(session.roles, reportRole) ? [] : ['report']),
    [session.roles, reportRole],
  );

  const floorName = useCallback(
    (id: string) => {
      for (const b of buildings) {
        const f = b.floors.find((x) => x.id === id);
        if (f) return buildings.length > 1 ? `${f.name}, ${b.building.name}` : f.name;
      }
      return null;
    },
    [buildings],
  );

  const setFloor = (id: string) => setLink((l) => ({ ...l, floor: id, asset: null }));
  const showPerson = (p: PersonEntry) => {
    if (!p.floorId || p.x === null || p.y === null) return;
    setFloor(p.floorId);
    setFocus({ x: p.x, y: p.y, seq: Date.now() });
    announce(`${p.name} is on ${floorName(p.floorId) ?? 'another floor'}.`);
  };
  const showRoom = (r: RoomEntry) => {
    setLink((l) => ({ ...l, floor: r.floorId ?? l.floor, asset: r.id }));
  };
  const onPickPoint = (point: { x: number; y: number }) => {
    if (pick === 'ticket') setTicketPoint(point);
    if (pick === 'location' && floorId) {
      void api.setManualLocation({ floorId, ...point }).then((r) =>
        announce(r.ok ? 'Your location is set.' : `Could not set location: ${r.message}`, r.ok ? 'info' : 'error'),
      );
    }
    setPick(null);
  };

  const signedInAs = session.user ? `${session.user.first_name} ${session.user.last_name}`.trim() || session.user.email : '';
  const canReport = session.roles.length > 0;

  return (
    <AppContext.Provider value={app}>
      <div className="shell">
        <header className="top-bar">
          <span className="brand">Storey</span>
          <Choosers
            session={session}
            buildings={buildings}
            buildingId={building?.building.id ?? null}
            floorId={floorId}
            onOrganization={(id) => {
              tried.current.clear();
              setLink((l) => ({ ...l, location: null, floor: null, asset: null }));
              void api.loadOrganization(id);
            }}
            onLocation={(id) => {
              tried.current.delete(`loc:${id}`);
              setLink((l) => ({ ...l, location: id, floor: null, asset: null }));
            }}
            onBuilding={(id) => {
              const b = buildings.find((x) => x.building.id === id);
              const target = b ? pickFloor([b], null) : null;
              if (target) setFloor(target);
            }}
            onFloor={setFloor}
          />
          <span className="user">
            <span>{signedInAs}</span>
            {session.roles.length ? <span className="roles"> ({session.roles.join(', ')})</span> : null}
            <button type="button" onClick={() => void api.signOut()}>
              Sign out
            </button>
          </span>
        </header>
        <ConnectionBanner />
        {structureMeta?.fromCache || floorMeta?.fromCache ? (
          <p className="cache-indicator" role="status" data-testid="from-cache">
            Showing saved data from this device.
          </p>
        ) : null}
        <div className="live-region" role="status" aria-live="polite">
          {message ? <span className={message.kind}>{message.text}</span> : null}
        </div>
        <div className={`body${panel === 'analytics' ? ' reports-open' : ''}`}>
          <aside className="left">
            <LayerPanel
              active={link.layers}
              onChange={(layers) => setLink((l) => ({ ...l, layers: MAP_LAYERS.filter((x) => layers.includes(x)) }))}
              unavailable={unavailable}
            />
          </aside>
          <main className="center">
            <MapLegends legends={reportLegend(floorMeta?.legends ?? [], reportMeta)} active={link.layers} />
            {!session.locationId ? (
              <div className="empty" role="status">
                {session.locations.length || session.organizations.length ? 'Loading location…' : 'You have no locations yet.'}
              </div>
            ) : !structureReady ? (
              <div className="empty" role="status">Loading buildings…</div>
            ) : !floorId || !floor ? (
              <div className="empty" role="status">This location has no floors to show.</div>
            ) : (
              <FloorViewer
                key={floorId}
                mirror={floor}
                layers={link.layers}
                imagePolicy={imagePolicy}
                highlightId={link.asset}
                openId={initial.asset && initial.floor === floorId ? initial.asset : null}
                focus={focus}
                onPickPoint={pick ? onPickPoint : null}
                onCenterChange={setCenter}
                onOpenAsset={(id) => setLink((l) => (l.asset === id ? l : { ...l, asset: id }))}
                reportMarks={reportMarks}
              />
            )}
          </main>
          <aside className="right">
            <div role="tablist" aria-label="Panels" className="tabs">
              {PANELS.filter((p) => (p.id !== 'report' && p.id !== 'analytics') || canReport).map((p) => (
                <button
                  key={p.id}
                  role="tab"
                  type="button"
                  id={`tab-${p.id}`}
                  aria-selected={panel === p.id}
                  aria-controls={`panel-${p.id}`}
                  onClick={() => setPanel(p.id)}
                >
                  {p.title}
                </button>
              ))}
            </div>
            <div role="tabpanel" id={`panel-${panel}`} aria-labelledby={`tab-${panel}`} className="panel">
              {panel === 'people' ? <PeopleFinder floorName={floorName} onShow={showPerson} /> : null}
              {panel === 'rooms' ? <RoomFinder floorName={floorName} onShow={showRoom} /> : null}
              {panel === 'report' && floorId ? (
                <TicketForm
                  floorId={floorId}
                  point={ticketPoint ?? center}
                  picking={pick === 'ticket'}
                  onPick={(on) => setPick(on ? 'ticket' : null)}
                />
              ) : null}
              {panel === 'analytics' && canReport ? (
                <ReportsPanel
                  request={report}
                  onChange={setReport}
                  timeZone={timeZone ?? 'UTC'}
                  buildingId={building?.building.id ?? null}
                  buildingName={building?.building.name ?? null}
                  floorId={floorId}
                  floorName={floorName}
                />
              ) : null}
              {panel === 'notifications' ? <Notifications /> : null}
              {panel === 'me' && floorId ? (
                <MyLocation floorId={floorId} center={center} picking={pick === 'location'} onPick={(on) => setPick(on ? 'location' : null)} />
              ) : null}
            </div>
          </aside>
        </div>
      </div>
    </AppContext.Provider>
  );
}
