// The signed-in app: choosers, connection banner, layer panel, floor viewer
// and side panels. The worker owns navigation (organization, location,
// building, floor and their defaults); the Shell sends intents and keeps the
// URL in step (deep links), and shows honest words while navigation loads.

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DrawState, PersonEntry, RoomEntry, SearchResult, SessionView } from '../../shared/api.js';
import { MAP_LAYERS, type MapLayer } from '../../shared/constants.js';
import { AppContext, type AppContextValue } from '../hooks/appContext.js';
import { useEngine } from '../hooks/engineContext.js';
import { useEmptyLayers } from '../hooks/useEmptyLayers.js';
import { useServerReach } from '../hooks/useServerReach.js';
import { COMPACT_SCREEN, useMediaQuery } from '../hooks/useMediaQuery.js';
import { useView, useViewEntries, useViewMeta, useViewReady } from '../hooks/useView.js';
import { placeWords } from '../lib/placeWords.js';
import { formatDeepLink, parseDeepLink, type DeepLink } from '../lib/deepLink.js';
import type { ImageUrlPolicy } from '../lib/imageUrl.js';
import { Choosers } from './Choosers.js';
import { ConnectionBanner } from './ConnectionBanner.js';
import { FloorViewer } from './FloorViewer.js';
import { LayerPanel } from './LayerPanel.js';
import { MyLocation } from './MyLocation.js';
import { Notifications } from './Notifications.js';
import { PeopleFinder } from './PeopleFinder.js';
import { RoomFinder, type RoomSearch } from './RoomFinder.js';
import { useRovingTabs } from '../hooks/useRovingTabs.js';
import { EMPTY_TICKET_DRAFT, TicketForm, type TicketDraft } from './TicketForm.js';
import { TopBar } from './TopBar.js';
import { AssetFinder } from './finder/AssetFinder.js';
import { PlacePin } from './PlacePin.js';
import { RouteOverlay } from './route/RouteOverlay.js';
import { RoutePanel, useRoute, type RouteTarget } from './route/RoutePanel.js';
import { ReportsPanel, withDefaults } from './reports/ReportsPanel.js';
import { PlaybackBar } from './reports/PlaybackBar.js';
import { ReplayAside, ReplayScope } from './reports/ReplayNote.js';
import { addDaysToKey, dateKeyOf } from '../../shared/reports/calendar.js';
import { formatDay, formatTime } from '../lib/timeFormat.js';
import type { Legend } from '../../shared/api.js';
import type { ReportMark, ReportMeta } from '../../shared/reports/types.js';
import { formatReportLink, parseReportLink } from '../lib/reportLink.js';
import type { ReportRequest } from '../../shared/reports/types.js';
import { errorText } from '../lib/errorText.js';
import { clearPainted, dropPainted, SAVED_DATA_NOTICE } from '../lib/paintedFloor.js';

type Panel = 'people' | 'rooms' | 'analytics' | 'report' | 'notifications' | 'me';
// two rows beside the map (docs/ui.md, "Side panels"): what one looks up, then what one tells
type TabRow = 'look' | 'tell';
const TAB_ROWS: readonly TabRow[] = ['look', 'tell'];
const PANELS: Array<{ id: Panel; title: string; row: TabRow }> = [
  { id: 'people', title: 'People', row: 'look' },
  { id: 'rooms', title: 'Rooms', row: 'look' },
  { id: 'analytics', title: 'Reports', row: 'look' },
  { id: 'notifications', title: 'Notifications', row: 'look' },
  { id: 'report', title: 'Report an issue', row: 'tell' },
  { id: 'me', title: 'My location', row: 'tell' },
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

/** The report layer: any report this user may view (reportViewingRolesAtLeast, decided in the worker). */
const canReportLayer = (session: SessionView) => Object.values(session.capabilities.reports).some(Boolean);

/** The floor's legends plus the report layer's, titled with the report and its period. */
function reportLegend(legends: Legend[], meta: ReportMeta | undefined): Legend[] {
  if (!meta?.measure || !meta.request) return legends;
  const { period, kind } = meta.request;
  return [...legends, { layer: 'report', title: `${meta.measure.title} (${kind}, ${period.from} – ${period.to})`, unit: meta.measure.unit, stops: meta.measure.stops }];
}

/** What the centre shows while navigation is not ready: honest words for each step (never "none" before the data could arrive). */
/** Navigation still on its way: a floor skeleton stands in, never an empty state. */
const LOADING_NAVIGATION: ReadonlySet<SessionView['navigation']> = new Set(['idle', 'organizations', 'locations', 'structure', 'ready']);

export const NAVIGATION_WORDS: Record<Exclude<SessionView['navigation'], 'ready'>, string> = {
  idle: 'Starting…',
  organizations: 'Loading your organization…',
  locations: 'Loading locations…',
  structure: 'Loading buildings and floors…',
  noOrganization: 'Your account is not in an organization yet.',
  noLocations: 'This organization has no locations yet.',
  noFloors: 'This location has no floors to show.',
};

/**
 * The settings' CDN base URL, remembered per API host: offline the settings
 * cannot be loaded, and the saved floor's images must resolve to the same
 * URLs the offline image cache holds (docs/ui.md, offline shell).
 */
function useRememberedCdn(apiHost: string, live: string | null): string | null {
  const key = `storey:cdn:${apiHost}`;
  useEffect(() => {
    try {
      if (live) localStorage.setItem(key, live);
    } catch {
      // storage unavailable: offline images fall back to the API host
    }
  }, [key, live]);
  if (live) return live;
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function Shell({ session, apiHost, location = browserLocation }: ShellProps) {
  const { api } = useEngine();
  const [initial] = useState<DeepLink>(() => parseDeepLink(location.search));
  const [link, setLink] = useState<DeepLink>(initial);
  const [initialReport] = useState(() => parseReportLink(location.search));
  const [panel, setPanel] = useState<Panel>(initialReport ? 'analytics' : 'people');
  // phone-size screens (docs/ui.md): one top row with a menu, and the panels as a sheet under the
  // map that opens from its tabs (closed at first, so the map has the screen)
  const compact = useMediaQuery(COMPACT_SCREEN);
  const [menuOpen, setMenuOpen] = useState(false);
  const [sheetOpen, setSheetOpen] = useState(!!initialReport);
  const shownPanel: Panel | null = !compact || sheetOpen ? panel : null;
  const [report, setReport] = useState<ReportRequest>(initialReport ?? { kind: 'desk', scope: { kind: 'location' }, period: { from: '', to: '' } });
  const [pick, setPick] = useState<null | 'ticket' | 'location'>(null);
  // what the person wrote in "Report an issue": kept while another panel is shown, gone with the session
  const [ticketDraft, setTicketDraft] = useState<TicketDraft>(EMPTY_TICKET_DRAFT);
  // and what was typed in People and Rooms: the tabs select as the arrow keys pass them (docs/ui.md, "Side panels")
  const [peopleQuery, setPeopleQuery] = useState('');
  const [roomSearch, setRoomSearch] = useState<RoomSearch>({ query: '', filter: 'all' });
  // the centre of the view as the viewer last reported it, on its floor: none until a floor is drawn and fitted
  const [viewCentre, setViewCentre] = useState<{ floorId: string; x: number; y: number } | null>(null);
  // the place picked for a ticket or voice, on the floor it was picked on (another floor has its own)
  const [picked, setPicked] = useState<{ floorId: string; x: number; y: number } | null>(null);
  const [focus, setFocus] = useState<{ x: number; y: number; seq: number } | null>(null);
  const [message, setMessage] = useState<{ text: string; kind: 'info' | 'error' } | null>(null);
  // the directions panel over the map: the viewer fits the floor beside it
  const [routePanel, setRoutePanel] = useState<HTMLElement | null>(null);
  const panelsRef = useRef<HTMLElement>(null);
  const centerRef = useRef<HTMLElement>(null);
  // the map's one tab stop: its roving asset, or the map itself when it has none
  const focusMap = () => {
    const stop = centerRef.current?.querySelector<SVGElement>('.floor-svg [tabindex="0"], .floor-svg[tabindex="0"]');
    stop?.focus();
  };

  // index.html's painted floor stays over the shell only while the shell is on its way to that floor
  const paintedFloor = typeof window === 'undefined' ? undefined : window.__storeyPainted?.floorId;
  useEffect(() => {
    if (paintedFloor === undefined) return;
    if ((session.floorId && session.floorId !== paintedFloor) || !LOADING_NAVIGATION.has(session.navigation)) dropPainted();
  }, [paintedFloor, session.floorId, session.navigation]);

  // a deep link names a location and floor: the worker takes them as choices (it owns navigation)
  useEffect(() => {
    if (initial.location) void api.selectLocation(initial.location);
    if (initial.floor) void api.selectFloor(initial.floor);
  }, [api, initial]);

  const structure = useView(session.locationId ? { view: 'structure' } : null);
  const structureEntries = useViewEntries(structure);
  const structureMeta = useViewMeta(structure);
  const buildings = useMemo(() => Object.values(structureEntries), [structureEntries]);
  const floorId = session.floorId;
  const ticketPoint = picked && picked.floorId === floorId ? { x: picked.x, y: picked.y } : null;
  const center = viewCentre && viewCentre.floorId === floorId ? { x: viewCentre.x, y: viewCentre.y } : null;
  const placePoint = ticketPoint ?? center;
  const building = buildings.find((b) => b.building.id === session.buildingId) ?? null;

  // keep the URL in step, so a copied link opens the same view: in tasks of their own, the latest of a
  // burst only (history.replaceState is a synchronous call to the browser: 30-120 ms of the cold load's
  // effect flushes at load 8, issue 14), the query string made in one and written in the next (the first
  // one made, qs' code compiled on first use, and the write were one 114 ms task at load 8)
  useEffect(() => {
    let timer = setTimeout(() => {
      const base = formatDeepLink({ ...link, location: session.locationId ?? link.location, floor: floorId ?? link.floor });
      const extra = panel === 'analytics' ? formatReportLink(report) : '';
      const next = extra ? `${base ? `${base}&` : '?'}${extra}` : base;
      if (next !== location.search) timer = setTimeout(() => location.replace(next), 0);
    }, 0);
    return () => clearTimeout(timer);
  }, [link, floorId, session.locationId, location, panel, report]);

  // the `report` layer colours by the report chosen in the Reports tab (default: desks, last 7 days)
  const reportLayerOn = link.layers.includes('report') && canReportLayer(session);
  const reportSpec = useMemo(() => (reportLayerOn && session.locationId ? { view: 'report' as const, report: withDefaults(report, session.timeZone) } : null), [reportLayerOn, report, session]);
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
  const floorReady = useViewReady(floor);
  // where a ticket or voice goes, in words ("in room F0-R1", "3 m from Desk 0.4"): rooms, desks and the
  // other landmarks stay put, so the words follow the point and the floor, not every live change
  const [placeX, placeY] = placePoint ? [placePoint.x, placePoint.y] : [null, null];
  const placeSaid = useMemo(() => {
    if (panel !== 'report' || placeX === null || placeY === null || !floor || !floorReady) return null;
    const entries = floor.getKeys().map((k) => floor.getSnapshot(k)).filter((e): e is DrawState => !!e);
    return entries.length ? placeWords({ x: placeX, y: placeY }, entries) : null;
  }, [panel, placeX, placeY, floor, floorReady]);
  // playback replaces what the viewer draws, never the live subscription, which stays open underneath
  const [playbackDay, setPlaybackDay] = useState<string | null>(null);
  // the instant last shown: a floor switched to during the replay of that day (People: Show) opens at it
  const replayTime = useRef<{ day: string; time: number } | null>(null);
  const playbackSpec = useMemo(() => {
    if (!playbackDay || !floorId) return null;
    const at = replayTime.current?.day === playbackDay ? { at: replayTime.current.time } : {};
    return { view: 'playback' as const, floorId, layers: link.layers, day: playbackDay, ...at };
  }, [playbackDay, floorId, link.layers]);
  const playback = useView(playbackSpec);
  const playbackMeta = useViewMeta(playback);
  // the layer panel tells the layers that draw nothing on the map it shows: the replay's, during one
  const emptyLayers = useEmptyLayers(playback ?? floor, link.layers);
  useEffect(() => {
    replayTime.current = playbackDay && playbackMeta?.day === playbackDay && playbackMeta.progress.state === 'done' ? { day: playbackDay, time: playbackMeta.time } : null;
  }, [playbackDay, playbackMeta]);
  // a popup opened on the replayed map, and the People and Rooms panels, show the replay's instant
  const replayAt = useMemo(() => (playback && playbackDay && floorId ? { floorId, day: playbackDay } : null), [playback, playbackDay, floorId]);
  const replayInstant = useMemo(
    () => (replayAt ? { day: replayAt.day, time: playbackMeta?.progress.state === 'done' ? playbackMeta.time : null, backToLive: () => setPlaybackDay(null) } : null),
    [replayAt, playbackMeta],
  );
  // a point being picked on the map is for the live floor
  useEffect(() => { if (playbackDay) setPick(null); }, [playbackDay]);
  // a pick started by a button gives the focus back to it when it ends (the map takes the focus meanwhile:
  // the arrow keys move its marker), unless the person took the focus somewhere else
  const pickOpener = useRef<HTMLElement | null>(null);
  const startPick = (kind: 'ticket' | 'location' | null) => {
    if (kind) pickOpener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setPick(kind);
  };
  useEffect(() => {
    if (pick) return;
    const opener = pickOpener.current;
    pickOpener.current = null;
    const active = document.activeElement;
    const inMap = !active || active === document.body || !!centerRef.current?.contains(active);
    if (opener?.isConnected && inMap) opener.focus();
  }, [pick]);
  // Escape ends picking a point, wherever the focus is (the button that started it says "(cancel)" too)
  useEffect(() => {
    if (!pick) return;
    const onKey = (event: KeyboardEvent) => { if (event.key === 'Escape') setPick(null); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pick]);
  const floorMeta = useViewMeta(floor);
  const rooms = useView(session.locationId ? { view: 'rooms' } : null);

  const timeZone = session.timeZone;
  const announce = useCallback((text: string, kind: 'info' | 'error' = 'info') => setMessage({ text, kind }), []);
  const cdnBaseUrl = useRememberedCdn(apiHost, session.cdnBaseUrl);
  const imagePolicy = useMemo<ImageUrlPolicy>(
    () => ({ apiHost, cdnBaseUrl, origin: window.location.origin }),
    [apiHost, cdnBaseUrl],
  );

  const reportAllowed = Object.values(session.capabilities.reports).some(Boolean);
  const unavailable = useMemo(() => new Set<MapLayer>(reportAllowed ? [] : ['report']), [reportAllowed]);

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
  const writable = useServerReach();
  const app = useMemo<AppContextValue>(() => ({ session, rooms, timeZone, announce, floorName, writable }), [session, rooms, timeZone, announce, floorName, writable]);
  // picking one's place writes it on the click: not while the server cannot take it
  useEffect(() => {
    if (!writable && pick === 'location') setPick(null);
  }, [writable, pick]);

  const setFloor = (id: string) => {
    setLink((l) => ({ ...l, floor: id, asset: null }));
    void api.selectFloor(id);
  };
  // the person's floor (switching if needed), centred on them and highlighted
  const showPerson = (p: PersonEntry) => {
    if (!p.floorId || p.x === null || p.y === null) return;
    if (p.floorId !== floorId) void api.selectFloor(p.floorId);
    setLink((l) => ({ ...l, floor: p.floorId, asset: p.assetId }));
    setFocus({ x: p.x, y: p.y, seq: Date.now() });
    // in a replay, where they were at its instant
    announce(`${p.name} ${playbackDay ? 'was' : 'is'} on ${floorName(p.floorId) ?? 'another floor'}${playbackDay ? ' then' : ''}.`);
  };
  // a person at another location of the organization: that location, where the People panel then shows them
  const goToPerson = (p: PersonEntry) => {
    if (!p.elsewhere) return;
    setLink((l) => ({ ...l, location: p.elsewhere!.locationId, floor: null, asset: null }));
    void api.selectLocation(p.elsewhere.locationId);
    announce(`${p.name} is at ${p.elsewhere.locationName}: switching there.`);
  };
  const showRoom = (r: RoomEntry) => {
    if (r.floorId) void api.selectFloor(r.floorId);
    setLink((l) => ({ ...l, floor: r.floorId ?? l.floor, asset: r.id }));
  };
  // directions (wayfinding on): from the viewer to a finder result
  const [routeTarget, setRouteTarget] = useState<RouteTarget | null>(null);
  const { route, ready: routeReady } = useRoute(routeTarget);
  const routeTo = (r: SearchResult) => {
    setRouteTarget({ from: { kind: 'me' }, to: r.target === 'person' ? { kind: 'person', id: r.id } : { kind: 'asset', id: r.id }, name: r.name });
  };
  // the route starts on the viewer's floor: show it there first
  const routeStart = route?.status === 'ok' ? route.steps[0]?.floorId ?? null : null;
  useEffect(() => {
    if (routeStart) void api.selectFloor(routeStart);
  }, [api, routeStart]);

  // a finder result: its floor, one of its layers on, highlighted (assets) or centred (people)
  const [shown, setShown] = useState<{ id: string; name: string; seq: number } | null>(null);
  const showResult = (r: SearchResult) => {
    if (!r.floorId) return;
    if (r.target === 'asset') setShown({ id: r.id, name: r.name, seq: Date.now() });
    void api.selectFloor(r.floorId);
    setLink((l) => ({
      ...l,
      floor: r.floorId,
      asset: r.target === 'asset' ? r.id : null,
      layers: r.layers.some((x) => l.layers.includes(x)) ? l.layers : MAP_LAYERS.filter((x) => l.layers.includes(x) || x === r.layers[0]),
    }));
    if (r.target === 'person' && r.x !== null && r.y !== null) setFocus({ x: r.x, y: r.y, seq: Date.now() });
    announce(`${r.name} is on ${floorName(r.floorId) ?? 'another floor'}.`);
  };
  const onPickPoint = (point: { x: number; y: number }) => {
    if (pick === 'ticket' && floorId) setPicked({ floorId, ...point });
    if (pick === 'location' && floorId) {
      void api.setManualLocation({ floorId, ...point }).then((r) =>
        announce(r.ok ? 'Your location is set.' : `Could not set location: ${errorText(r)}`, r.ok ? 'info' : 'error'),
      );
    }
    setPick(null);
  };

  // messages float over the map, so they never push the layout
  const notices = (
    <>
              <ConnectionBanner />
              {playback && playbackDay ? (
                <p className="playback-indicator" role="status" data-testid="playback-indicator">
                  {`Replay of ${formatDay(playbackDay, timeZone)}${playbackMeta ? ` at ${formatTime(playbackMeta.time, timeZone)}` : ''}, not live.`}
                </p>
              ) : null}
              {structureMeta?.fromCache || floorMeta?.fromCache ? (
                <p className="cache-indicator" role="status" data-testid="from-cache">
                  {SAVED_DATA_NOTICE}
                </p>
              ) : null}
              <div className="live-region" role="status" aria-live="polite">
                {message ? (
                  <span className={`message ${message.kind}`}>
                    {message.text}
                    <button type="button" className="dismiss" aria-label="Dismiss message" onClick={() => setMessage(null)}>
                      ×
                    </button>
                  </span>
                ) : null}
              </div>
    </>
  );

  const layerPanel = (
    <LayerPanel
      active={link.layers}
      onChange={(layers) => setLink((l) => ({ ...l, layers: MAP_LAYERS.filter((x) => layers.includes(x)) }))}
      unavailable={unavailable}
      empty={emptyLayers}
    />
  );
  const canReport = session.capabilities.report;
  const tabs = PANELS.filter((p) => (p.id === 'report' ? canReport : p.id === 'analytics' ? canReportLayer(session) : true));
  // automatic activation (a panel is local and shows at once); a phone's closed sheet opens only on Enter or
  // Space, as it would cover half of the map for a tab the arrows merely pass
  const roving = useRovingTabs({
    ids: tabs.map((p) => p.id),
    selected: panel,
    automatic: shownPanel !== null,
    onSelect: (id) => setPanel(id),
  });
  const signedInAs = session.user ? `${session.user.first_name} ${session.user.last_name}`.trim() || session.user.email : '';

  return (
    <AppContext.Provider value={app}>
      <div className="shell">
        <nav className="skip-links" aria-label="Skip links">
          <a href="#map" onClick={(event) => { event.preventDefault(); focusMap(); }}>
            Skip to the map
          </a>
          <a href="#panels" onClick={(event) => { event.preventDefault(); panelsRef.current?.focus(); }}>
            Skip past the map
          </a>
        </nav>
        <TopBar
          compact={compact}
          menuOpen={menuOpen}
          onMenu={setMenuOpen}
          placeName={floorId ? floorName(floorId) : null}
          choosers={(
            <Choosers
              session={session}
              buildings={buildings}
              buildingId={building?.building.id ?? null}
              floorId={floorId}
              onOrganization={(id) => {
                setLink((l) => ({ ...l, location: null, floor: null, asset: null }));
                void api.selectOrganization(id);
              }}
              onLocation={(id) => {
                setLink((l) => ({ ...l, location: id, floor: null, asset: null }));
                void api.selectLocation(id);
              }}
              onBuilding={(id) => {
                setLink((l) => ({ ...l, floor: null, asset: null }));
                void api.selectBuilding(id);
              }}
              onFloor={(id) => {
                setFloor(id);
                setMenuOpen(false);
              }}
            />
          )}
          finder={session.locationId ? (
            <AssetFinder onShow={showResult} onRoute={session.config.wayfindingEnabled ? routeTo : null} multipleBuildings={buildings.length > 1} />
          ) : null}
          account={(
            <span className="user">
              <span>{signedInAs}</span>
              {session.roles.length ? <span className="roles"> ({session.roles.join(', ')})</span> : null}
              <button
                type="button"
                onClick={() => {
                  // before anything else: the next page load must not paint this user's floor
                  clearPainted({ signedOut: true });
                  void api.signOut();
                }}
              >
                Sign out
              </button>
            </span>
          )}
          layers={compact ? layerPanel : null}
        />
        <ReplayScope className={`body${shownPanel === 'analytics' ? ' reports-open' : ''}${compact ? ' compact' : ''}`} at={replayAt} instant={replayInstant}>
          {compact ? null : <aside className="left">{layerPanel}</aside>}
          <main className="center" id="map" ref={centerRef}>
            {session.navigation !== 'ready' || !floorId || !floor ? <div className="map-notices">{notices}</div> : null}
            {session.navigation !== 'ready' || !floorId || !floor ? (
              <div
                className={`empty${LOADING_NAVIGATION.has(session.navigation) ? ' floor-skeleton' : ''}`}
                role="status"
                data-navigation={session.navigation}
              >
                {session.navigation === 'ready' ? 'Loading floor…' : NAVIGATION_WORDS[session.navigation]}
              </div>
            ) : (
            <FloorViewer
                key={playback ? `playback-${floorId}-${playbackDay}` : floorId}
                mirror={playback ?? floor}
                notices={notices}
                layers={link.layers}
                imagePolicy={imagePolicy}
                highlightId={link.asset}
                focusHighlightSeq={shown && shown.id === link.asset ? shown.seq : null}
                openId={initial.asset && initial.floor === floorId ? initial.asset : null}
                focus={focus}
                onPickPoint={pick ? onPickPoint : null}
                pickFrom={pick === 'ticket' ? ticketPoint : null}
                onCenterChange={(point) => { if (floorId) setViewCentre({ floorId, ...point }); }}
                onOpenAsset={(id) => setLink((l) => (l.asset === id ? l : { ...l, asset: id }))}
                reportMarks={reportMarks}
                overlay={(
                  <>
                    {route?.status === 'ok' ? <RouteOverlay route={route} floorId={floorId} /> : null}
                    {shownPanel === 'report' && !playback && placePoint ? <PlacePin point={placePoint} label="Where the ticket or voice goes" /> : null}
                  </>
                )}
                legends={reportLegend(floorMeta?.legends ?? [], reportMeta)}
                cover={routePanel}
                paint={session.user && !playbackDay && !routeTarget ? { userId: String(session.user.id), floorId } : null}
              />
            )}
            {routeTarget ? (
              <RoutePanel
                ref={setRoutePanel}
                starts={[
                  { label: 'your position', from: { kind: 'me' } },
                  ...(link.asset && link.asset !== (routeTarget.to.kind === 'me' ? null : routeTarget.to.id)
                    ? [{ label: (shown?.id === link.asset ? shown.name : floor?.getSnapshot(link.asset)?.name) || 'the highlighted asset', from: { kind: 'asset' as const, id: link.asset } }]
                    : []),
                ]}
                onFrom={(from) => setRouteTarget((t) => (t ? { ...t, from } : t))}
                target={routeTarget}
                route={route}
                ready={routeReady}
                floorName={floorName}
                floorId={floorId}
                onShowFloor={setFloor}
                onClose={() => setRouteTarget(null)}
              />
            ) : null}
            {floorId && playbackDay ? (
              <PlaybackBar
                floorId={floorId}
                day={playbackDay}
                meta={playbackMeta}
                timeZone={timeZone}
                maxDay={dateKeyOf(Date.now(), timeZone ?? 'UTC')}
                onDay={setPlaybackDay}
                onClose={() => setPlaybackDay(null)}
              />
            ) : floorId && session.roles.length > 0 ? (
              <button type="button" className="playback-open" onClick={() => setPlaybackDay(addDaysToKey(dateKeyOf(Date.now(), timeZone ?? 'UTC'), -1))}>
                Play back a day
              </button>
            ) : null}
          </main>
          <aside className="right" id="panels" ref={panelsRef} tabIndex={-1} aria-label="Panels">
            <div className="sheet-head">
              <div role="tablist" aria-label="Panels" aria-orientation="horizontal" className="tabs" {...roving.listProps}>
                {TAB_ROWS.map((row) => (
                  <div key={row} role="none" className="tab-row">
                    {tabs.filter((p) => p.row === row).map((p) => (
                      <button
                        key={p.id}
                        role="tab"
                        type="button"
                        id={`tab-${p.id}`}
                        aria-selected={shownPanel === p.id}
                        aria-controls={shownPanel === p.id ? `panel-${p.id}` : undefined}
                        {...roving.tabProps(p.id)}
                        onClick={() => {
                          setPanel(p.id);
                          setSheetOpen(true);
                        }}
                      >
                        {p.title}
                      </button>
                    ))}
                  </div>
                ))}
              </div>
              {compact && shownPanel ? (
                <button type="button" className="sheet-hide" aria-controls={`panel-${shownPanel}`} aria-expanded onClick={() => setSheetOpen(false)}>
                  Hide panel
                </button>
              ) : null}
            </div>
            {shownPanel ? (
              <div role="tabpanel" id={`panel-${panel}`} aria-labelledby={`tab-${panel}`} className="panel">
                {panel === 'people' ? <PeopleFinder floorName={floorName} onShow={showPerson} query={peopleQuery} onQuery={setPeopleQuery} onGoTo={goToPerson} /> : null}
                {panel === 'rooms' ? <RoomFinder floorName={floorName} onShow={showRoom} search={roomSearch} onSearch={setRoomSearch} /> : null}
                {panel === 'report' && replayInstant ? (
                  <ReplayAside title="Report an issue or give feedback" reason="An issue or feedback is for the floor as it is now: go back to live to report it." />
                ) : panel === 'report' && floorId ? (
                  <TicketForm
                    floorId={floorId}
                    draft={ticketDraft}
                    onDraft={setTicketDraft}
                    point={placePoint}
                    placeSaid={placeSaid}
                    picking={pick === 'ticket'}
                    onPick={(on) => startPick(on ? 'ticket' : null)}
                  />
                ) : null}
                {panel === 'analytics' && canReportLayer(session) ? (
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
                {panel === 'me' && replayInstant ? (
                  <ReplayAside title="My location" reason="Your location is set on the floor as it is now: go back to live to set it." />
                ) : panel === 'me' && floorId ? (
                  <MyLocation floorId={floorId} center={center} picking={pick === 'location'} onPick={(on) => startPick(on ? 'location' : null)} />
                ) : null}
              </div>
            ) : null}
          </aside>
        </ReplayScope>
      </div>
    </AppContext.Provider>
  );
}
