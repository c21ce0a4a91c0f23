// The signed-in app: choosers, connection banner, layer panel, floor viewer
// and side panels. The worker owns navigation (organization, location,
// building, floor and their defaults); the Shell sends intents and keeps the
// URL in step (deep links), and shows honest words while navigation loads.

import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DrawState, PersonEntry, RoomEntry, SearchResult, SessionView } from '../../shared/api.js';
import { MAP_LAYERS, type MapLayer } from '../../shared/constants.js';
import { dateKeyOf } from '../../shared/reports/calendar.js';
import type { ReportRequest } from '../../shared/reports/types.js';
import { AppContext, type AppContextValue } from '../hooks/appContext.js';
import { useEngine } from '../hooks/engineContext.js';
import { useEmptyLayers } from '../hooks/useEmptyLayers.js';
import { browserLocation, useDeepLinkSync, type QueryLocation } from '../hooks/useDeepLinkSync.js';
import { COMPACT_SCREEN, useMediaQuery } from '../hooks/useMediaQuery.js';
import { usePlaybackDay } from '../hooks/usePlaybackDay.js';
import { usePointPick } from '../hooks/usePointPick.js';
import { useRememberedCdn } from '../hooks/useRememberedCdn.js';
import { useServerReach } from '../hooks/useServerReach.js';
import { useView, useViewEntries, useViewMeta, useViewReady } from '../hooks/useView.js';
import { parseDeepLink, type DeepLink } from '../lib/deepLink.js';
import { errorText } from '../lib/errorText.js';
import type { ImageUrlPolicy } from '../lib/imageUrl.js';
import { createViewKeeper } from '../lib/keptView.js';
import { dropPainted } from '../lib/paintedFloor.js';
import { placeWords } from '../lib/placeWords.js';
import { parseReportLink } from '../lib/reportLink.js';
import { Choosers } from './Choosers.js';
import { FloorViewer } from './FloorViewer.js';
import { LayerPanel } from './LayerPanel.js';
import { PlacePin } from './PlacePin.js';
import { TopBar } from './TopBar.js';
import { AssetFinder } from './finder/AssetFinder.js';
import { PlaybackBar } from './reports/PlaybackBar.js';
import { ReplayScope } from './reports/ReplayNote.js';
import { RouteOverlay } from './route/RouteOverlay.js';
import { RoutePanel, useRoute, type RouteTarget } from './route/RoutePanel.js';
import { Account } from './shell/Account.js';
import { canReportLayer, reportLegend, useReportLayer } from './shell/reportLayer.js';
import { ShellNotices, type ShellMessage } from './shell/ShellNotices.js';
import { SidePanels, type Panel } from './shell/SidePanels.js';

export interface ShellProps {
  session: SessionView;
  /** API host, for the image policy */
  apiHost: string;
  /** reads and writes the query string; injectable for tests */
  location?: QueryLocation;
}

/** Navigation still on its way: a floor skeleton stands in, never an empty state. */
const LOADING_NAVIGATION: ReadonlySet<SessionView['navigation']> = new Set(['idle', 'organizations', 'locations', 'structure', 'ready']);

/** What the centre shows while navigation is not ready: honest words for each step (never "none" before the data could arrive). */
export const NAVIGATION_WORDS: Record<Exclude<SessionView['navigation'], 'ready'>, string> = {
  idle: 'Starting…',
  organizations: 'Loading your organization…',
  locations: 'Loading locations…',
  structure: 'Loading buildings and floors…',
  noOrganization: 'Your account is not in an organization yet.',
  noLocations: 'This organization has no locations yet.',
  noFloors: 'This location has no floors to show.',
};

export function Shell({ session, apiHost, location = browserLocation }: ShellProps) {
  const { api } = useEngine();
  const [initial] = useState<DeepLink>(() => parseDeepLink(location.search));
  const [link, setLink] = useState<DeepLink>(initial);
  const [initialReport] = useState(() => parseReportLink(location.search));
  // the map's pan and zoom across the live floor and its replays (lib/keptView.ts)
  const [keepView] = useState(createViewKeeper);
  const [panel, setPanel] = useState<Panel>(initialReport ? 'analytics' : 'people');
  // phone-size screens (docs/ui.md): one top row with a menu, and the panels as a sheet under the
  // map that opens from its tabs (closed at first, so the map has the screen)
  const compact = useMediaQuery(COMPACT_SCREEN);
  const [menuOpen, setMenuOpen] = useState(false);
  const [sheetOpen, setSheetOpen] = useState(!!initialReport);
  const shownPanel: Panel | null = !compact || sheetOpen ? panel : null;
  const [report, setReport] = useState<ReportRequest>(initialReport ?? { kind: 'desk', scope: { kind: 'location' }, period: { from: '', to: '' } });
  // the centre of the view as the viewer last reported it, on its floor: none until a floor is drawn and fitted
  const [viewCentre, setViewCentre] = useState<{ floorId: string; x: number; y: number } | null>(null);
  // the place picked for a ticket or voice, on the floor it was picked on (another floor has its own)
  const [picked, setPicked] = useState<{ floorId: string; x: number; y: number } | null>(null);
  const [focus, setFocus] = useState<{ x: number; y: number; seq: number; floorId: string | null } | null>(null);
  // a focus is centred once (FloorViewer): a later viewer (another floor, the replay) must not centre on it again
  const dropFocus = useCallback((seq: number) => setFocus((f) => (f?.seq === seq ? null : f)), []);
  const [message, setMessage] = useState<ShellMessage | null>(null);
  // the directions panel over the map: the viewer fits the floor beside it
  const [routePanel, setRoutePanel] = useState<HTMLElement | null>(null);
  // "Play back a day" over the map's top-right corner: the floor is fitted clear of it
  const [playbackButton, setPlaybackButton] = useState<HTMLElement | null>(null);
  // the button comes with the app's first commit, and a state update from a ref there is rendered at once, in
  // the commit's own task, after every effect of the first screen is run early for it (one task of ~20 ms of
  // CPU on a reopen, over 50 ms when the cores are shared; issue 14): as a transition it is rendered after, in
  // slices, and the fit reads the corner then (useMapLayout). Its going stays synchronous: the app taken down
  // (the engine stopped) calls this with null, and an update left pending then would render the emptied root
  // again later, and React would clear the container of the failure screen put there meanwhile
  const playbackButtonRef = useCallback((el: HTMLElement | null) => {
    if (el) startTransition(() => setPlaybackButton(el));
    else setPlaybackButton(null);
  }, []);
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

  useDeepLinkSync(location, link, session.locationId, floorId, panel === 'analytics' ? report : null);

  // the `report` layer colours by the report chosen in the Reports tab (default: desks, last 7 days)
  const { reportMarks, reportMeta } = useReportLayer(link.layers.includes('report') && canReportLayer(session), session, report);
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
  const { playbackDay, setPlaybackDay, openLastWorkingDay, playback, playbackMeta, replayAt, replayInstant } = usePlaybackDay(floorId, link.layers, session.timeZone);
  // the layer panel tells the layers that draw nothing on the map it shows: the replay's, during one
  const emptyLayers = useEmptyLayers(playback ?? floor, link.layers);
  const writable = useServerReach();
  const { pick, setPick, startPick } = usePointPick(centerRef, playbackDay, writable);
  const floorMeta = useViewMeta(floor);
  const rooms = useView(session.locationId ? { view: 'rooms' } : null);

  const timeZone = session.timeZone;
  const announce = useCallback((text: string, kind: 'info' | 'error' = 'info') => setMessage({ text, kind }), []);
  const cdnBaseUrl = useRememberedCdn(apiHost, session.cdnBaseUrl);
  const imagePolicy = useMemo<ImageUrlPolicy>(
    () => ({ apiHost, cdnBaseUrl, origin: window.location.origin }),
    [apiHost, cdnBaseUrl],
  );

  const reportAllowed = canReportLayer(session);
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
  const app = useMemo<AppContextValue>(() => ({ session, rooms, timeZone, announce, floorName, writable }), [session, rooms, timeZone, announce, floorName, writable]);

  const setFloor = (id: string) => {
    setLink((l) => ({ ...l, floor: id, asset: null }));
    void api.selectFloor(id);
  };
  // the person's floor (switching if needed), centred on them and highlighted
  const showPerson = (p: PersonEntry) => {
    if (!p.floorId || p.x === null || p.y === null) return;
    if (p.floorId !== floorId) void api.selectFloor(p.floorId);
    setLink((l) => ({ ...l, floor: p.floorId, asset: p.assetId }));
    setFocus({ x: p.x, y: p.y, seq: Date.now(), floorId: p.floorId });
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
    if (r.target === 'person' && r.x !== null && r.y !== null) setFocus({ x: r.x, y: r.y, seq: Date.now(), floorId: r.floorId });
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
    <ShellNotices
      playbackDay={playback ? playbackDay : null}
      playbackMeta={playbackMeta}
      timeZone={timeZone}
      fromCache={!!(structureMeta?.fromCache || floorMeta?.fromCache)}
      message={message}
      onDismiss={() => setMessage(null)}
    />
  );

  const layerPanel = (
    <LayerPanel
      active={link.layers}
      onChange={(layers) => setLink((l) => ({ ...l, layers: MAP_LAYERS.filter((x) => layers.includes(x)) }))}
      unavailable={unavailable}
      empty={emptyLayers}
    />
  );

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
          account={<Account session={session} />}
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
                onFocusDone={dropFocus}
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
                corner={playbackButton}
                paint={session.user && !playbackDay && !routeTarget ? { userId: String(session.user.id), floorId } : null}
                keepView={keepView}
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
              <button type="button" className="playback-open" ref={playbackButtonRef} onClick={openLastWorkingDay}>
                Play back a day
              </button>
            ) : null}
          </main>
          <SidePanels
            session={session}
            panel={panel}
            shownPanel={shownPanel}
            compact={compact}
            onPanel={setPanel}
            onSheet={setSheetOpen}
            panelsRef={panelsRef}
            floorId={floorId}
            floorName={floorName}
            onShowPerson={showPerson}
            onGoToPerson={goToPerson}
            onShowRoom={showRoom}
            replaying={!!replayInstant}
            placePoint={placePoint}
            placeSaid={placeSaid}
            center={center}
            pick={pick}
            onPick={startPick}
            report={report}
            onReport={setReport}
            timeZone={timeZone}
            building={building ? { id: building.building.id, name: building.building.name } : null}
          />
        </ReplayScope>
      </div>
    </AppContext.Provider>
  );
}
