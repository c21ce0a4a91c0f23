import { BASE_CONFIG } from '../../src/shared/config.js';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type AssetDetail, type Legend } from '../../src/shared/api.js';
import { MAP_LAYERS, MANUAL_LOCATION_TIMEOUT_MS } from '../../src/shared/constants.js';
import { LayerPanel, LAYER_LABELS } from '../../src/ui/components/LayerPanel.js';
import { MapLegends } from '../../src/ui/components/MapLegends.js';
import { matchPeople } from '../../src/ui/components/PeopleFinder.js';
import { filterRooms } from '../../src/ui/components/RoomFinder.js';
import { renderShell as renderLiveShell } from './renderShell.js';
import { connectionView, createFakeEngine, floorMeta, notification, person, roomEntry, sessionView, signedInWorld } from './fakeEngine.js';

afterEach(cleanup);

function renderShell(engine = createFakeEngine(signedInWorld())) {
  return renderLiveShell(engine).engine;
}

const co2Legend: Legend = {
  layer: 'co2', title: 'CO₂', unit: 'ppm',
  stops: [{ value: 400, color: '#2e7d32', label: '400 good' }, { value: 1200, color: '#c62828', label: '1200 poor' }],
};

describe('LayerPanel', () => {
  it('lists every layer of spec §2 with the defaults on', () => {
    const onChange = vi.fn();
    render(<LayerPanel active={['floorplan', 'info', 'desk_usage', 'room_reservation', 'co-workers']} onChange={onChange} />);
    const boxes = screen.getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((b) => b.name).sort()).toEqual([...MAP_LAYERS].sort());
    expect(boxes.length).toBe(25);
    expect(boxes.filter((b) => b.checked).map((b) => b.name).sort()).toEqual(['co-workers', 'desk_usage', 'floorplan', 'info', 'room_reservation']);
  });

  it('reports the new layer list in map order when a layer is toggled', () => {
    const onChange = vi.fn();
    render(<LayerPanel active={['floorplan', 'co2']} onChange={onChange} />);
    fireEvent.click(screen.getByRole('checkbox', { name: LAYER_LABELS.desks }));
    expect(onChange).toHaveBeenLastCalledWith(['floorplan', 'desks', 'co2']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Floor plan' }));
    expect(onChange).toHaveBeenLastCalledWith(['co2']);
  });

  it('shows the legend of an active scale-coloured layer with words next to the colours', () => {
    const { rerender } = render(<MapLegends active={[]} legends={[co2Legend]} />);
    expect(screen.queryByRole('figure')).toBeNull();
    rerender(<MapLegends active={['co2']} legends={[co2Legend]} />);
    const legend = screen.getByRole('figure', { name: 'Legend: CO₂' });
    expect(within(legend).getByText('CO₂ (ppm)')).toBeTruthy();
    expect(within(legend).getByText('400 good')).toBeTruthy();
    expect(within(legend).getByText('1200 poor')).toBeTruthy();
  });

  it('explains the desk status marks in words while a desk layer is on', () => {
    const { rerender } = render(<MapLegends active={['floorplan']} legends={[]} />);
    expect(screen.queryByRole('figure', { name: 'Legend: Desk status marks' })).toBeNull();
    rerender(<MapLegends active={['desk_usage']} legends={[]} />);
    const legend = screen.getByRole('figure', { name: 'Legend: Desk status marks' });
    expect(within(legend).getByText('Busy (occupied, short break)')).toBeTruthy();
    expect(within(legend).getByText('Needs attention (to be cleared, battery low)')).toBeTruthy();
    expect(within(legend).getByText('Booked (reserved)')).toBeTruthy();
    expect(within(legend).getByText('No recent data')).toBeTruthy();
    expect(legend.querySelectorAll('svg path')).toHaveLength(4);
  });

  it('on a narrow map shows one legend at a time behind a tab per legend, the arrows moving between them', () => {
    const temperature: Legend = { layer: 'temperature', title: 'Temperature', unit: '°C', stops: [{ value: 16, color: '#1e88e5', label: '16 °C' }] };
    const { rerender } = render(<MapLegends narrow active={['co2', 'temperature']} legends={[co2Legend, temperature]} />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['CO₂ (ppm)', 'Temperature (°C)']);
    expect(tabs.map((t) => t.tabIndex)).toEqual([0, -1]);
    expect(screen.getAllByRole('figure').map((f) => f.getAttribute('aria-label'))).toEqual(['Legend: CO₂']);
    expect(within(screen.getByRole('tabpanel')).getByText('400 good')).toBeTruthy();
    tabs[0]!.focus();
    fireEvent.keyDown(tabs[0]!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Temperature (°C)' }));
    expect(screen.getByRole('figure', { name: 'Legend: Temperature' })).toBeTruthy();
    expect(screen.queryByRole('figure', { name: 'Legend: CO₂' })).toBeNull();
    // a layer switched on brings its own legend to the front
    const desk: Legend = { layer: 'desk_usage', title: 'Desk usage', unit: '', stops: [{ value: 0, color: '#43a047', label: 'Free', mark: 'free' }] };
    rerender(<MapLegends narrow active={['co2', 'temperature', 'desk_usage']} legends={[co2Legend, temperature, desk]} />);
    expect(screen.getByRole('tab', { name: 'Desk usage' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('figure', { name: 'Legend: Desk usage' })).toBeTruthy();
    // folded to one button, and back
    fireEvent.click(screen.getByRole('button', { name: 'Hide legends' }));
    expect(screen.queryByRole('figure')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show legends (3)' }));
    expect(screen.getAllByRole('figure').length).toBe(1);
  });

  it('leaves out layers the user may not see', () => {
    render(<LayerPanel active={[]} onChange={vi.fn()} unavailable={new Set(['report'])} />);
    expect(screen.queryByRole('checkbox', { name: 'Report' })).toBeNull();
    expect(screen.getAllByRole('checkbox').length).toBe(24);
  });

  it('shows legends from the floor view in the shell', async () => {
    const engine = createFakeEngine(signedInWorld());
    engine.bucket('floor:f1').meta = floorMeta({ legends: [co2Legend] });
    renderShell(engine);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'CO₂' }));
    expect(await screen.findByRole('figure', { name: 'Legend: CO₂' })).toBeTruthy();
    await waitFor(() => expect(engine.open('floor')[0]).toMatchObject({ layers: expect.arrayContaining(['co2']) }));
  });
});

describe('PeopleFinder', () => {
  it('finds a co-worker and shows them on the floor', async () => {
    renderShell();
    fireEvent.change(await screen.findByLabelText('Find a co-worker'), { target: { value: 'grace' } });
    const item = (await screen.findByText('Grace Hopper')).closest('li')!;
    expect(within(item).getByText('on Floor f1')).toBeTruthy();
    fireEvent.click(within(item).getByRole('button', { name: 'Show Grace Hopper on the floor' }));
    expect(await screen.findByText('Grace Hopper is on Floor f1.')).toBeTruthy();
  });

  it('lists hidden co-workers without a place', async () => {
    renderShell();
    const item = (await screen.findByText('Alan Turing')).closest('li')!;
    expect(within(item).getByText('not shown on a floor')).toBeTruthy();
    expect(within(item).queryByRole('button')).toBeNull();
  });

  it('says at which other location a person is, goes there and shows them once that location places them', async () => {
    const engine = createFakeEngine(signedInWorld());
    engine.bucket('people').entries.p3 = person('p3', {
      name: 'Mary Jackson', visible: false, locationId: null, floorId: null, x: null, y: null, assetId: null,
      elsewhere: { locationId: 'l2', locationName: 'New York office', since: 0 },
    });
    renderShell(engine);
    const item = (await screen.findByText('Mary Jackson')).closest('li')!;
    expect(within(item).getByText('at New York office')).toBeTruthy();
    fireEvent.click(within(item).getByRole('button', { name: 'Go to New York office and show Mary Jackson' }));
    expect(engine.selectLocation).toHaveBeenCalledWith('l2');
    expect(await screen.findByText('Mary Jackson is at New York office: switching there.')).toBeTruthy();
    // the location's floors place her: she is shown there
    engine.emit('people', { upserted: { p3: person('p3', { name: 'Mary Jackson', floorId: 'f1', x: 5, y: 6, assetId: 'ua-p3' }) } });
    expect(await screen.findByText('Mary Jackson is on Floor f1.')).toBeTruthy();
  });

  it('says so when nobody matches', async () => {
    renderShell();
    fireEvent.change(await screen.findByLabelText('Find a co-worker'), { target: { value: 'zzz' } });
    expect(await screen.findByText('Nobody matches.')).toBeTruthy();
  });

  it('matches by name or email, visible people first', () => {
    const people = [person('a', { name: 'Bo', visible: false }), person('b', { name: 'Al', email: 'x@y.z' }), person('c', { name: 'Bob' })];
    expect(matchPeople(people, 'bo').map((p) => p.id)).toEqual(['c', 'a']);
    expect(matchPeople(people, 'x@y').map((p) => p.id)).toEqual(['b']);
  });
});

describe('RoomFinder', () => {
  it('lists rooms with free or busy in words and books one', async () => {
    const engine = createFakeEngine(signedInWorld());
    engine.bucket('rooms').entries.r2 = roomEntry('r2', { free: false, status: 'occupied', text: 'Standup until 10:00' });
    renderShell(engine);
    fireEvent.click(await screen.findByRole('tab', { name: 'Rooms' }));
    const panel = await screen.findByRole('tabpanel');
    const free = (await within(panel).findByText('Room r1')).closest('li')!;
    const busy = within(panel).getByText('Room r2').closest('li')!;
    // the status is said once, in words
    expect(within(free).getAllByText(/^free$/i)).toHaveLength(1);
    expect(within(busy).getAllByText(/^occupied$/i)).toHaveLength(1);
    expect(within(busy).queryByText('Busy')).toBeNull();
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'free' } });
    expect(screen.queryByText('Room r2')).toBeNull();
    fireEvent.click(within(free).getByRole('button', { name: 'Booking of Room r1' }));
    fireEvent.click(await within(free).findByRole('button', { name: 'Book now' }));
    await waitFor(() => expect(engine.bookRoom).toHaveBeenCalledWith({ roomId: 'r1', until: { minutes: 30 }, subject: '' }));
    expect(await screen.findByText(/Room r1 booked until/)).toBeTruthy();
  });

  it('tells the user when booking fails', async () => {
    const engine = createFakeEngine(signedInWorld());
    vi.mocked(engine.bookRoom).mockResolvedValueOnce({ ok: false, status: 409, body: null, message: 'Room is taken' });
    renderShell(engine);
    fireEvent.click(await screen.findByRole('tab', { name: 'Rooms' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Booking of Room r1' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Book now' }));
    expect(await screen.findByText('Booking failed: Room is taken.')).toBeTruthy();
  });

  it('offers "Rest of the day" only while no booking starts later that day, and "until" that booking\'s start instead', async () => {
    // 10:47 in the location's zone (UTC): a fixed clock, so "later today" holds whatever the hour the test runs at
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 24, 10, 47, 30) });
    try {
      const world = signedInWorld();
      const config = { ...BASE_CONFIG, allDayBookingButton: true };
      world.session!.entries[SELF_KEY] = sessionView({ config, timeZone: 'UTC' });
      const laterToday = { start: Date.UTC(2026, 10, 24, 12, 0, 0), end: Date.UTC(2026, 10, 24, 13, 0, 0), subject: 'Review', user_id: 'u2', booking_ref: 'later' };
      const roomDetail = world['asset:r1']!.entries[SELF_KEY] as AssetDetail;
      roomDetail.reservation = { text: 'Next: 12:00–13:00 Review', active: null, next: laterToday, upcoming: [laterToday] };
      const engine = createFakeEngine(world);
      renderShell(engine);
      fireEvent.click(await screen.findByRole('tab', { name: 'Rooms' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Booking of Room r1' }));
      const panel = screen.getByRole('tabpanel');
      const length = await within(panel).findByLabelText('Duration');
      // half an hour and an hour end by 12:00; the rest of the day would run into the 12:00 booking (409)
      expect([...(length as HTMLSelectElement).options].map((o) => o.text)).toEqual(['30 min', '1 h', 'until 12:00']);
      expect(within(panel).queryByRole('button', { name: 'Book for the rest of the day' })).toBeNull();

      // the next booking moves to tomorrow: the rest of today is free, and offered
      const tomorrow = { ...laterToday, start: Date.UTC(2026, 10, 25, 9, 0, 0), end: Date.UTC(2026, 10, 25, 10, 0, 0) };
      act(() => engine.emit('asset:r1', { upserted: { [SELF_KEY]: { ...roomDetail, reservation: { text: 'No reservations', active: null, next: tomorrow, upcoming: [tomorrow] } } } }));
      const restOfDay = await within(panel).findByRole('button', { name: 'Book for the rest of the day' });
      expect([...(within(panel).getByLabelText('Duration') as HTMLSelectElement).options].map((o) => o.text)).toEqual(['30 min', '1 h', '2 h']);
      fireEvent.click(restOfDay);
      await waitFor(() => expect(engine.bookRoom).toHaveBeenCalledWith({ roomId: 'r1', until: 'restOfDay', subject: '' }));
    } finally {
      vi.useRealTimers();
    }
  });

  it('says why the worker refused a booking, in its words', async () => {
    const engine = createFakeEngine(signedInWorld());
    const message = 'The room is booked again at 15:00 today: book it until then instead.';
    vi.mocked(engine.bookRoom).mockResolvedValueOnce({ ok: false, status: 409, body: { statusCode: 409, error: 'Conflict', message }, message });
    renderShell(engine);
    fireEvent.click(await screen.findByRole('tab', { name: 'Rooms' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Booking of Room r1' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Book now' }));
    expect(await screen.findByText(`Booking failed: ${message}`)).toBeTruthy();
  });

  it('offers no booking for a room the location does not let the viewer book', async () => {
    const engine = createFakeEngine(signedInWorld());
    engine.bucket('rooms').entries.r1 = roomEntry('r1', { bookable: false });
    renderShell(engine);
    fireEvent.click(await screen.findByRole('tab', { name: 'Rooms' }));
    const row = (await within(await screen.findByRole('tabpanel')).findByText('Room r1')).closest('li')!;
    expect(within(row).getByRole('button', { name: 'Show Room r1 on the floor' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Booking of Room r1' })).toBeNull();
  });

  it('filters by name and status, free rooms first', () => {
    const rooms = [roomEntry('b', { name: 'Beta', free: false }), roomEntry('a', { name: 'Alpha' }), roomEntry('c', { name: 'Gamma' })];
    expect(filterRooms(rooms, '', 'all').map((r) => r.id)).toEqual(['a', 'c', 'b']);
    expect(filterRooms(rooms, 'a', 'busy').map((r) => r.id)).toEqual(['b']);
  });
});

describe('TicketForm', () => {
  it('creates a ticket with a configured label at the view centre', async () => {
    const engine = renderShell();
    fireEvent.click(await screen.findByRole('tab', { name: 'Report an issue' }));
    // the view's centre once the floor is drawn and fitted
    const place = await screen.findByText(/^Placed at the red pin on the map \(-?\d+\.\d, -?\d+\.\d\)(?:, (?:in |outside |\d+ m from ).+)?\./);
    const [, x, y] = /\((-?\d+\.\d), (-?\d+\.\d)\)/.exec(place.textContent!)!;
    const select = (await screen.findByLabelText('Category')) as HTMLSelectElement;
    // a valid category from the start: the server refuses a ticket without one
    expect([...select.options].map((o) => o.value)).toEqual(['it', 'cleaning', 'maintenance', 'facility']);
    expect(select.value).toBe('facility');
    fireEvent.change(select, { target: { value: 'cleaning' } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Spilled coffee' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send ticket' }));
    await waitFor(() =>
      expect(engine.createTicket).toHaveBeenCalledWith(expect.objectContaining({ kind: 'ticket', floorId: 'f1', label: 'cleaning', text: 'Spilled coffee' })),
    );
    const sent = vi.mocked(engine.createTicket).mock.calls[0]![0];
    expect([sent.x.toFixed(1), sent.y.toFixed(1)]).toEqual([x, y]);
    expect(await screen.findByText('Thanks! Your ticket is on the floor.')).toBeTruthy();
  });

  it('offers the voice labels for voices', async () => {
    renderShell();
    fireEvent.click(await screen.findByRole('tab', { name: 'Report an issue' }));
    fireEvent.click(await screen.findByRole('radio', { name: /Voice/ }));
    const select = screen.getByLabelText('Category') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['space', 'tech', 'culture', 'work', 'other']);
    expect(select.value).toBe('other');
  });

  it('follows the flags: category required, email asked, moderation notice', async () => {
    const engine = createFakeEngine(signedInWorld());
    engine.bucket('session').entries[SELF_KEY] = sessionView({
      config: { ...BASE_CONFIG, ticketsRequireCategory: true, ticketsAskForEmail: true, ticketsVoicesRequireModeration: true },
    });
    renderShell(engine);
    fireEvent.click(await screen.findByRole('tab', { name: 'Report an issue' }));
    await screen.findByText(/^Placed at the red pin on the map/);
    expect(await screen.findByLabelText('Category (required)')).toBeTruthy();
    expect(screen.getByLabelText('Email for updates')).toBeTruthy();
    expect(screen.getByText(/checked by a moderator/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Printer jam' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send ticket' }));
    // the form asks for one, naming the field
    expect((await screen.findByRole('alert')).textContent).toBe('Category: choose one.');
    expect(screen.getByLabelText('Category (required)').getAttribute('aria-invalid')).toBe('true');
    expect(engine.createTicket).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Category (required)'), { target: { value: 'it' } });
    fireEvent.change(screen.getByLabelText('Email for updates'), { target: { value: 'me@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send ticket' }));
    await waitFor(() => expect(engine.createTicket).toHaveBeenCalledWith(expect.objectContaining({ label: 'it', email: 'me@example.com' })));
    expect(await screen.findByText(/will show once a moderator approves it/)).toBeTruthy();
  });
});

describe('TicketForm while the location changes its rules', () => {
  it('asks for a category when the location starts requiring one while the form is open', async () => {
    const engine = renderShell();
    fireEvent.click(await screen.findByRole('tab', { name: 'Report an issue' }));
    expect(((await screen.findByLabelText('Category')) as HTMLSelectElement).value).toBe('facility');
    const setConfig = (config: typeof BASE_CONFIG) =>
      act(() => engine.emit('session', { upserted: { [SELF_KEY]: sessionView({ config }) } }));
    setConfig({ ...BASE_CONFIG, ticketsRequireCategory: true });
    const select = (await screen.findByLabelText('Category (required)')) as HTMLSelectElement;
    expect(select.value).toBe('');
    // a choice the person made stays theirs
    fireEvent.change(select, { target: { value: 'it' } });
    setConfig({ ...BASE_CONFIG, ticketsRequireCategory: false });
    expect(((await screen.findByLabelText('Category')) as HTMLSelectElement).value).toBe('it');
  });
});

describe('Notifications', () => {
  it('lists notifications newest first, unread in words, and marks one read', async () => {
    const engine = renderShell();
    fireEvent.click(await screen.findByRole('tab', { name: 'Notifications' }));
    const panel = await screen.findByRole('region', { name: 'Notifications' });
    const items = await within(panel).findAllByRole('listitem');
    expect(items[0]!.textContent).toContain('Title n1');
    expect(within(items[0]!).getByText('(unread)')).toBeTruthy();
    expect(within(items[1]!).queryByText('(unread)')).toBeNull();
    expect(screen.getByText('1 unread')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Mark “Title n1” as read' }));
    await waitFor(() => expect(engine.markNotificationRead).toHaveBeenCalledWith('n1'));
  });

  it('makes a link clickable only when it is http(s) or a relative path', async () => {
    const engine = createFakeEngine(signedInWorld());
    const links: Record<string, unknown> = {
      web: 'https://intranet.example/desks?floor=2', relative: 'reports/weekly.pdf', script: 'javascript:alert(document.cookie)',
      data: 'data:text/html,<script>alert(1)</script>', protocolRelative: '//evil.example/x', climbing: '../../v1/organizations',
      notText: { href: 'https://x.example' },
    };
    engine.bucket('notifications').entries = Object.fromEntries(Object.entries(links).map(([id, link], i) =>
      [id, notification(id, { title: `Note ${id}`, link, created: 1_700_000_000_000 - i })]));
    renderShell(engine);
    fireEvent.click(await screen.findByRole('tab', { name: 'Notifications' }));
    const panel = await screen.findByRole('region', { name: 'Notifications' });
    const items = await within(panel).findAllByRole('listitem');
    const hrefOf = (id: string) => {
      const item = items.find((li) => li.textContent?.includes(`Note ${id}`))!;
      return within(item).queryByRole('link', { name: 'Open link' })?.getAttribute('href') ?? null;
    };
    expect(hrefOf('web')).toBe('https://intranet.example/desks?floor=2');
    expect(hrefOf('relative')).toBe('reports/weekly.pdf');
    for (const id of ['script', 'data', 'protocolRelative', 'climbing', 'notText']) expect(hrefOf(id), id).toBeNull();
    expect(items).toHaveLength(7);
    const web = within(items.find((li) => li.textContent?.includes('Note web'))!).getByRole('link');
    expect(web.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows the empty state', async () => {
    const engine = createFakeEngine(signedInWorld());
    engine.bucket('notifications').entries = {};
    renderShell(engine);
    fireEvent.click(await screen.findByRole('tab', { name: 'Notifications' }));
    expect(await screen.findByText('No notifications.')).toBeTruthy();
  });
});

describe('MyLocation', () => {
  it(`sets one's own location for ${MANUAL_LOCATION_TIMEOUT_MS / 3_600_000} hours and clears it`, async () => {
    const engine = renderShell();
    fireEvent.click(await screen.findByRole('tab', { name: 'My location' }));
    expect(await screen.findByText(/expires after 12 hours/)).toBeTruthy();
    const centre = screen.getByRole('button', { name: 'Use the centre of the view' }) as HTMLButtonElement;
    // usable once the floor is drawn and the view's centre known
    await waitFor(() => expect(centre.disabled).toBe(false));
    fireEvent.click(centre);
    await waitFor(() => expect(engine.setManualLocation).toHaveBeenCalledWith(expect.objectContaining({ floorId: 'f1' })));
    expect(await screen.findByText('Your location is set for 12 hours.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear my location' }));
    await waitFor(() => expect(engine.setManualLocation).toHaveBeenLastCalledWith(null));
  });

  it('places nothing by the view\'s centre before the floor is drawn', async () => {
    const world = signedInWorld();
    // the floor's data has not come
    delete world['floor:f1'];
    const engine = renderShell(createFakeEngine(world));
    fireEvent.click(await screen.findByRole('tab', { name: 'My location' }));
    const centre = screen.getByRole('button', { name: 'Use the centre of the view' }) as HTMLButtonElement;
    expect(centre.disabled).toBe(true);
    fireEvent.click(centre);
    fireEvent.click(screen.getByRole('tab', { name: 'Report an issue' }));
    expect(screen.getByText(/Placed at the centre of the view once the floor is drawn\./)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Printer jam' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send ticket' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Place: the floor is not drawn yet. Wait for it, or pick a place on the floor.');
    expect(engine.setManualLocation).not.toHaveBeenCalled();
    expect(engine.createTicket).not.toHaveBeenCalled();
    // the floor comes: the form says where the ticket goes, and no longer that the floor is not drawn
    act(() => engine.emit('floor:f1', { upserted: signedInWorld()['floor:f1']!.entries, meta: floorMeta({ loading: false }) }));
    await waitFor(() => expect(screen.getByText(/^Placed at the red pin on the map/)).toBeTruthy());
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send ticket' }));
    await waitFor(() => expect(engine.createTicket).toHaveBeenCalledWith(expect.objectContaining({ floorId: 'f1', text: 'Printer jam' })));
  });

  it('picks the place with a click on the floor', async () => {
    const engine = renderShell();
    await screen.findByRole('button', { name: /Desk d1/ });
    fireEvent.click(screen.getByRole('tab', { name: 'My location' }));
    fireEvent.click(screen.getByRole('button', { name: 'Pick my place on the floor' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('application'), { clientX: 10, clientY: 10 });
    });
    await waitFor(() => expect(engine.setManualLocation).toHaveBeenCalledWith(expect.objectContaining({ floorId: 'f1', x: expect.any(Number), y: expect.any(Number) })));
  });
});

describe('picking a place by keyboard', () => {
  it('moves the marker with the arrow keys and places it with Enter, the focus back on the button', async () => {
    const engine = renderShell();
    await screen.findByRole('button', { name: /Desk d1/ });
    fireEvent.click(screen.getByRole('tab', { name: 'My location' }));
    const button = screen.getByRole('button', { name: 'Pick my place on the floor' });
    button.focus();
    fireEvent.click(button);
    const map = screen.getByRole('application');
    await waitFor(() => expect(document.activeElement).toBe(map));
    const marker = () => document.querySelector('.pick-marker')!;
    const x0 = Number(marker().getAttribute('data-x'));
    const y0 = Number(marker().getAttribute('data-y'));
    fireEvent.keyDown(map, { key: 'ArrowRight' });
    fireEvent.keyDown(map, { key: 'ArrowUp', shiftKey: true });
    const x1 = Number(marker().getAttribute('data-x'));
    const y1 = Number(marker().getAttribute('data-y'));
    expect(x1).toBeGreaterThan(x0);
    // up on screen is up the floor plan: five steps against one
    expect(Math.abs(y1 - y0)).toBeCloseTo((x1 - x0) * 5, 5);
    expect(await screen.findByText(/^Marker (in|outside|at|on|\d)/)).toBeTruthy();
    fireEvent.keyDown(map, { key: 'Enter' });
    await waitFor(() => expect(engine.setManualLocation).toHaveBeenCalledWith({ floorId: 'f1', x: x1, y: y1 }));
    expect(document.querySelector('.pick-marker')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Pick my place on the floor' }));
  });
});

describe('writes while the server cannot be reached', () => {
  const NEEDS_SERVER = 'Not available while the server cannot be reached.';
  const reasonOf = (button: HTMLElement) => document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent ?? null;

  it('disables every write action with the reason beside it, and offers them again once the server is back', async () => {
    const engine = createFakeEngine(signedInWorld());
    renderShell(engine);
    await screen.findByRole('button', { name: /Room r1/ });
    act(() => engine.emit('connection', { upserted: { [SELF_KEY]: connectionView({ state: 'unavailable', phase: 'retrying', nextRetryAt: Date.now() + 5000, attempts: 1 }) } }));

    // the room's popup: its booking is in sight, disabled, the footer says why once
    fireEvent.keyDown(screen.getByRole('button', { name: /Room r1/ }), { key: 'Enter' });
    const dialog = await screen.findByTestId('asset-popup');
    const book = await within(dialog).findByRole('button', { name: 'Book now' });
    expect((book as HTMLButtonElement).disabled).toBe(true);
    expect(reasonOf(book)).toBe(NEEDS_SERVER);
    expect(within(dialog).getAllByText(NEEDS_SERVER)).toHaveLength(1);
    // the subject can still be written meanwhile
    expect((within(dialog).getByLabelText('Subject') as HTMLInputElement).disabled).toBe(false);
    fireEvent.click(book);
    expect(engine.bookRoom).not.toHaveBeenCalled();

    // the room finder's booking
    fireEvent.click(screen.getByRole('tab', { name: 'Rooms' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Booking of Room r1' }));
    const panel = screen.getByRole('tabpanel');
    const finderBook = await within(panel).findByRole('button', { name: 'Book now' });
    expect((finderBook as HTMLButtonElement).disabled).toBe(true);
    expect(reasonOf(finderBook)).toBe(NEEDS_SERVER);

    // a ticket: written, not sent
    fireEvent.click(screen.getByRole('tab', { name: 'Report an issue' }));
    fireEvent.change(await screen.findByLabelText('Message'), { target: { value: 'Lamp flickers' } });
    const send = screen.getByRole('button', { name: 'Send ticket' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    expect(reasonOf(send)).toBe(NEEDS_SERVER);

    // one's own location
    fireEvent.click(screen.getByRole('tab', { name: 'My location' }));
    for (const name of ['Pick my place on the floor', 'Use the centre of the view', 'Clear my location']) {
      const button = await screen.findByRole('button', { name });
      expect((button as HTMLButtonElement).disabled).toBe(true);
      expect(reasonOf(button)).toBe(NEEDS_SERVER);
    }

    // marking a notification read
    fireEvent.click(screen.getByRole('tab', { name: 'Notifications' }));
    const markRead = await screen.findByRole('button', { name: 'Mark “Title n1” as read' });
    expect((markRead as HTMLButtonElement).disabled).toBe(true);
    expect(reasonOf(markRead)).toBe(NEEDS_SERVER);

    // the server is back: everything is offered again and the reason is gone
    act(() => engine.emit('connection', { upserted: { [SELF_KEY]: connectionView() } }));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Mark “Title n1” as read' }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByText(NEEDS_SERVER)).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Report an issue' }));
    expect((await screen.findByRole('button', { name: 'Send ticket' }) as HTMLButtonElement).disabled).toBe(false);
    const dialogBook = within(screen.getByTestId('asset-popup')).getByRole('button', { name: 'Book now' });
    expect((dialogBook as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(dialogBook);
    await waitFor(() => expect(engine.bookRoom).toHaveBeenCalled());
  });

  it('says so when the worker refuses a write the UI still offered (it heard of the loss first), keeping what was written', async () => {
    const engine = createFakeEngine(signedInWorld());
    const refused = { ok: false as const, status: 0, body: null, message: NEEDS_SERVER, code: 'serverUnreachable' as const };
    vi.mocked(engine.createTicket).mockResolvedValueOnce(refused);
    vi.mocked(engine.bookRoom).mockResolvedValueOnce(refused);
    renderShell(engine);
    await screen.findByRole('button', { name: /Room r1/ });
    // a ticket written and sent: the reason, the message still in the field to send later
    fireEvent.click(screen.getByRole('tab', { name: 'Report an issue' }));
    await screen.findByText(/^Placed at the red pin on the map/);
    fireEvent.change(await screen.findByLabelText('Message'), { target: { value: 'Lamp flickers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send ticket' }));
    expect((await screen.findByRole('alert')).textContent).toBe(`Sending failed: ${NEEDS_SERVER}`);
    expect(engine.createTicket).toHaveBeenCalledTimes(1);
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Lamp flickers');
    // a booking from the room's popup: the outcome says why, the subject stays
    fireEvent.keyDown(screen.getByRole('button', { name: /Room r1/ }), { key: 'Enter' });
    const dialog = await screen.findByTestId('asset-popup');
    fireEvent.change(await within(dialog).findByLabelText('Subject'), { target: { value: 'Planning' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Book now' }));
    expect(await screen.findByText(`Booking failed: ${NEEDS_SERVER}`)).toBeTruthy();
    expect((within(dialog).getByLabelText('Subject') as HTMLInputElement).value).toBe('Planning');
  });

  it('says the browser is offline the same way, even before the engine hears of it', async () => {
    const engine = createFakeEngine(signedInWorld());
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      renderShell(engine);
      fireEvent.click(await screen.findByRole('tab', { name: 'Report an issue' }));
      const send = await screen.findByRole('button', { name: 'Send ticket' });
      expect((send as HTMLButtonElement).disabled).toBe(true);
      expect(reasonOf(send)).toBe(NEEDS_SERVER);
      onLine.mockReturnValue(true);
      act(() => { window.dispatchEvent(new Event('online')); });
      await waitFor(() => expect((screen.getByRole('button', { name: 'Send ticket' }) as HTMLButtonElement).disabled).toBe(false));
    } finally {
      onLine.mockRestore();
    }
  });
});
