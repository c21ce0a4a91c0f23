// The panels beside the map (docs/ui.md, "Side panels"): two rows of tabs,
// what one looks up and what one tells, and the panel shown. What was typed
// in People, Rooms and "Report an issue" is kept here while another panel is
// shown, and goes with the session; on a phone the panels are a sheet.

import { useRef, useState, type RefObject } from 'react';
import type { PersonEntry, RoomEntry, SessionView } from '../../../shared/api.js';
import type { ReportRequest } from '../../../shared/reports/types.js';
import type { PickKind } from '../../hooks/usePointPick.js';
import { useRovingTabs } from '../../hooks/useRovingTabs.js';
import { useScrollEdges } from '../../hooks/useScrollEdges.js';
import { MyLocation } from '../MyLocation.js';
import { Notifications } from '../Notifications.js';
import { PeopleFinder } from '../PeopleFinder.js';
import { RoomFinder, type RoomSearch } from '../RoomFinder.js';
import { ReportsPanel } from '../reports/ReportsPanel.js';
import { ReplayAside } from '../reports/ReplayNote.js';
import { EMPTY_TICKET_DRAFT, TicketForm, type TicketDraft } from '../TicketForm.js';
import { canReportLayer } from './reportLayer.js';

export type Panel = 'people' | 'rooms' | 'analytics' | 'report' | 'notifications' | 'me';
// two rows beside the map: what one looks up, then what one tells
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

type Point = { x: number; y: number };

export interface SidePanelsProps {
  session: SessionView;
  /** the panel chosen, and the one shown (null while a phone's sheet is closed) */
  panel: Panel;
  shownPanel: Panel | null;
  compact: boolean;
  onPanel(panel: Panel): void;
  onSheet(open: boolean): void;
  /** the skip link past the map focuses the panels */
  panelsRef: RefObject<HTMLElement | null>;
  floorId: string | null;
  floorName(floorId: string): string | null;
  onShowPerson(person: PersonEntry): void;
  onGoToPerson(person: PersonEntry): void;
  onShowRoom(room: RoomEntry): void;
  /** a replay is on the map: the panels that act on the floor as it is now are set aside */
  replaying: boolean;
  /** where a ticket or voice goes, and that place in words */
  placePoint: Point | null;
  placeSaid: string | null;
  /** the centre of the view, for setting one's location */
  center: Point | null;
  pick: PickKind | null;
  onPick(kind: PickKind | null): void;
  report: ReportRequest;
  onReport(report: ReportRequest): void;
  timeZone: string;
  building: { id: string; name: string } | null;
}

export function SidePanels(props: SidePanelsProps) {
  const { session, panel, shownPanel, compact, floorId, floorName, replaying, pick, onPick } = props;
  // what the person wrote in "Report an issue": kept while another panel is shown, gone with the session
  const [ticketDraft, setTicketDraft] = useState<TicketDraft>(EMPTY_TICKET_DRAFT);
  // and what was typed in People and Rooms: the tabs select as the arrow keys pass them
  const [peopleQuery, setPeopleQuery] = useState('');
  const [roomSearch, setRoomSearch] = useState<RoomSearch>({ query: '', filter: 'all' });

  const canReport = session.capabilities.report;
  const tabs = PANELS.filter((p) => (p.id === 'report' ? canReport : p.id === 'analytics' ? canReportLayer(session) : true));
  // automatic activation (a panel is local and shows at once); a phone's closed sheet opens only on Enter or
  // Space, as it would cover half of the map for a tab the arrows merely pass
  const roving = useRovingTabs({
    ids: tabs.map((p) => p.id),
    selected: panel,
    automatic: shownPanel !== null,
    onSelect: (id) => props.onPanel(id),
  });
  // on a phone the tabs are one row that scrolls: its edges fade where more tabs lie (styles.css)
  const tablistRef = useRef<HTMLDivElement>(null);
  useScrollEdges(tablistRef, compact);

  return (
    <aside className="right" id="panels" ref={props.panelsRef} tabIndex={-1} aria-label="Panels">
      <div className="sheet-head">
        <div role="tablist" aria-label="Panels" aria-orientation="horizontal" className="tabs" ref={tablistRef} {...roving.listProps}>
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
                    props.onPanel(p.id);
                    props.onSheet(true);
                  }}
                >
                  {p.title}
                </button>
              ))}
            </div>
          ))}
        </div>
        {compact && shownPanel ? (
          // "Hide" on the screen, whose width the tabs need; its name says what it hides
          <button type="button" className="sheet-hide" aria-label="Hide panel" title="Hide panel" aria-controls={`panel-${shownPanel}`} aria-expanded onClick={() => props.onSheet(false)}>
            Hide
          </button>
        ) : null}
      </div>
      {shownPanel ? (
        <div role="tabpanel" id={`panel-${panel}`} aria-labelledby={`tab-${panel}`} className="panel">
          {panel === 'people' ? <PeopleFinder floorName={floorName} onShow={props.onShowPerson} query={peopleQuery} onQuery={setPeopleQuery} onGoTo={props.onGoToPerson} /> : null}
          {panel === 'rooms' ? <RoomFinder floorName={floorName} onShow={props.onShowRoom} search={roomSearch} onSearch={setRoomSearch} /> : null}
          {panel === 'report' && replaying ? (
            <ReplayAside title="Report an issue or give feedback" reason="An issue or feedback is for the floor as it is now: go back to live to report it." />
          ) : panel === 'report' && floorId ? (
            <TicketForm
              floorId={floorId}
              draft={ticketDraft}
              onDraft={setTicketDraft}
              point={props.placePoint}
              placeSaid={props.placeSaid}
              picking={pick === 'ticket'}
              onPick={(on) => onPick(on ? 'ticket' : null)}
            />
          ) : null}
          {panel === 'analytics' && canReportLayer(session) ? (
            <ReportsPanel
              request={props.report}
              onChange={props.onReport}
              timeZone={props.timeZone ?? 'UTC'}
              buildingId={props.building?.id ?? null}
              buildingName={props.building?.name ?? null}
              floorId={floorId}
              floorName={floorName}
            />
          ) : null}
          {panel === 'notifications' ? <Notifications /> : null}
          {panel === 'me' && replaying ? (
            <ReplayAside title="My location" reason="Your location is set on the floor as it is now: go back to live to set it." />
          ) : panel === 'me' && floorId ? (
            <MyLocation floorId={floorId} center={props.center} picking={pick === 'location'} onPick={(on) => onPick(on ? 'location' : null)} />
          ) : null}
        </div>
      ) : null}
    </aside>
  );
}
