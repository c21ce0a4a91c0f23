import { StrictMode } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type AssetDetail, type DrawState, type FloorViewMeta } from '../../src/shared/api.js';
import { DEFAULT_LAYERS, POPUP_DEFAULT_HEIGHT, POPUP_DEFAULT_WIDTH, type MapLayer } from '../../src/shared/constants.js';
import { MSG } from '../../src/shared/messages.js';
import { FloorViewer, floorPlanUrl } from '../../src/ui/components/FloorViewer.js';
import { BUBBLE_MAX_CHARS } from '../../src/ui/components/AssetNode.js';
import { createViewMirror, type ViewMirror } from '../../src/ui/engine/viewMirror.js';
import { STATUS_MARK_MIN_ZOOM } from '../../src/ui/lib/statusMark.js';
import { PAINTED_COVER_WAIT_MS } from '../../src/ui/lib/paintedFloor.js';
import { AppContext } from '../../src/ui/hooks/appContext.js';
import { EngineContext } from '../../src/ui/hooks/engineContext.js';
import { createFakeEngine, detail, draw, floor, floorMeta, room, sessionView, signedInWorld, type FakeEngine } from './fakeEngine.js';

afterEach(cleanup);

const policy = { apiHost: 'http://api.test', cdnBaseUrl: 'http://cdn.test/t/', origin: 'http://app.test' };

/** The open popup, once its details arrived from the asset view. */
async function openedPopup(): Promise<HTMLElement> {
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(within(dialog).queryByText('Loading…')).toBeNull());
  return dialog;
}

async function renderViewer(
  entries: Record<string, DrawState>,
  options: {
    layers?: readonly MapLayer[]; meta?: Partial<FloorViewMeta>; engine?: FakeEngine; openId?: string; details?: Record<string, Partial<AssetDetail>>; highlightId?: string;
  } = {},
) {
  const world = signedInWorld();
  world['floor:f1'] = { entries, meta: floorMeta(options.meta) };
  // each drawn asset's popup details, as the worker's asset view would send them
  for (const [id, entry] of Object.entries(entries)) world[`asset:${id}`] = { entries: { [SELF_KEY]: detail(entry, options.details?.[id]) }, meta: null };
  const engine = options.engine ?? createFakeEngine(world);
  const handle = engine.client.view({ view: 'floor', floorId: 'f1', layers: options.layers ?? DEFAULT_LAYERS });
  const rooms = engine.client.view({ view: 'rooms' });
  await engine.flush();
  const app = { session: sessionView(), rooms: rooms.mirror, timeZone: 'UTC', announce: vi.fn(), floorName: () => null, writable: true };
  const ui = (layers: readonly MapLayer[]) => (
    <EngineContext.Provider value={engine.client}>
      <AppContext.Provider value={app}>
        <FloorViewer mirror={handle.mirror as ViewMirror<DrawState, FloorViewMeta>} layers={layers} imagePolicy={policy} openId={options.openId ?? null} highlightId={options.highlightId ?? null} />
      </AppContext.Provider>
    </EngineContext.Provider>
  );
  const utils = render(ui(options.layers ?? DEFAULT_LAYERS));
  return { ...utils, engine, handle, app, rerenderLayers: (layers: readonly MapLayer[]) => utils.rerender(ui(layers)) };
}

describe('FloorViewer', () => {
  describe('drawing', () => {
    it('draws desks, rooms, zones, lockers, portals, sensors, co-workers and bubbles with accessible names', async () => {
      const layers: MapLayer[] = ['desk_usage', 'rooms', 'zones', 'lockers', 'co-workers', 'service', 'satisfaction', 'co2', 'info'];
      await renderViewer(
        {
          d1: draw('d1', { status: 'occupied' }),
          r1: room('r1', { status: 'reserved', layers: ['rooms'] }),
          z1: room('z1', { kind: 'zone', name: 'Lounge', label: MSG.ZONE_CHILLING_LABEL, layers: ['zones'], status: null, statusKind: 'none' }),
          l1: draw('l1', { kind: 'locker', name: 'Locker 3', layers: ['lockers'], status: 'free' }),
          p1: draw('p1', { kind: 'portal', name: 'Stairs', layers: ['info'], status: null, statusKind: 'none' }),
          s1: draw('s1', { kind: 'sensor', name: 'CO2 north', layers: ['co2'], text: '812 ppm', label: 'CO2 north', status: 'good' }),
          e1: draw('e1', { kind: 'employee', name: 'Grace', layers: ['co-workers'], status: null, statusKind: 'none', decoration: 'crown', avatarUrl: null }),
          t1: draw('t1', { kind: 'ticket', name: 'Broken lamp', text: 'The lamp flickers', layers: ['service'], status: 'open', statusKind: 'none' }),
          v1: draw('v1', { kind: 'voice', name: 'Too cold', text: 'Too cold here', layers: ['satisfaction'], status: null, statusKind: 'none' }),
        },
        { layers },
      );
      for (const name of [
        'Desk d1, occupied', 'Room r1, reserved', 'Zone Lounge', 'Locker 3, free', 'Portal Stairs',
        'Sensor CO2 north, good, 812 ppm', 'Co-worker Grace, wearing crown', 'Ticket Broken lamp, open, The lamp flickers', 'Voice Too cold, Too cold here',
      ]) {
        expect(screen.getByRole('button', { name })).toBeTruthy();
      }
      expect(screen.getByText(MSG.ZONE_CHILLING_LABEL)).toBeTruthy();
      expect(screen.getByText('Chilling out')).toBeTruthy();
      expect(document.querySelector('.decoration-crown')).not.toBeNull();
      expect(screen.getByText(/The lamp flickers/)).toBeTruthy();
    });

    it('adds a status mark to busy, reserved, unknown and attention desks from their status kind, so colour is not the only cue', async () => {
      await renderViewer({
        // the words differ on purpose: the mark follows the worker's statusKind, never the words
        d1: draw('d1', { status: 'in use', statusKind: 'busy' }), d2: draw('d2', { status: 'free', statusKind: 'free' }),
        d3: draw('d3', { status: 'reserved', statusKind: 'booked' }), d4: draw('d4', { status: 'no data', statusKind: 'unknown' }),
        d5: draw('d5', { status: 'clean desk policy exceeded', statusKind: 'attention' }),
      });
      const mark = (name: RegExp) => screen.getByRole('button', { name }).querySelector('.status-mark');
      expect(mark(/Desk d1/)?.getAttribute('class')).toBe('status-mark mark-busy');
      expect(mark(/Desk d2/)).toBeNull();
      expect(mark(/Desk d3/)?.getAttribute('class')).toBe('status-mark mark-booked');
      expect(mark(/Desk d4/)?.getAttribute('class')).toBe('status-mark mark-unknown');
      expect(mark(/Desk d5/)?.getAttribute('class')).toBe('status-mark mark-attention');
      expect(document.querySelector('pattern')).toBeNull();
    });

    it('names each asset by aria-label alone, with its status words, and keeps it reachable by keyboard', async () => {
      await renderViewer({ d1: draw('d1', { status: 'occupied' }) });
      const desk = screen.getByRole('button', { name: 'Desk d1, occupied' });
      expect(desk.getAttribute('tabindex')).toBe('0');
      expect(desk.querySelector('title')).toBeNull();
    });

    it('shows status marks only from the zoom where a desk is big enough to read them', async () => {
      await renderViewer({ d1: draw('d1', { status: 'occupied', statusKind: 'busy' }) });
      const world = document.querySelector('g.world')!;
      const zoomIn = screen.getByRole('button', { name: 'Zoom in' });
      const zoomOut = screen.getByRole('button', { name: 'Zoom out' });
      for (let i = 0; i < 40 && world.getAttribute('data-detail') !== 'false'; i++) fireEvent.click(zoomOut);
      const k = () => Number(/scale\(([\d.e+-]+)\)/.exec(world.getAttribute('transform') ?? '')![1]);
      expect(k()).toBeLessThan(STATUS_MARK_MIN_ZOOM);
      for (let i = 0; i < 40 && world.getAttribute('data-detail') !== 'true'; i++) fireEvent.click(zoomIn);
      expect(k()).toBeGreaterThanOrEqual(STATUS_MARK_MIN_ZOOM);
    });

    it('draws unrotated desks at their floor coordinates without a transform, and rotated ones through one', async () => {
      await renderViewer({ d1: draw('d1', { status: 'occupied', statusKind: 'busy', x: 10, y: 4 }), d2: draw('d2', { x: 20, y: 4, angle: 30 }) });
      const flat = screen.getByRole('button', { name: /Desk d1/ });
      const turned = screen.getByRole('button', { name: /Desk d2/ });
      expect(flat.getAttribute('transform')).toBeNull();
      expect(flat.querySelector('[transform]')).toBeNull();
      const rect = flat.querySelector('rect')!;
      expect(Number(rect.getAttribute('x')) + Number(rect.getAttribute('width')) / 2).toBeCloseTo(10);
      expect(flat.querySelector('.status-mark')!.getAttribute('d')).toMatch(/^M9\.\d+,3\.\d+L10\.\d+,4\.\d+/);
      expect(turned.getAttribute('transform')).toBe('translate(20 4)');
      expect(turned.querySelector('g')!.getAttribute('transform')).toBe('rotate(30)');
    });

    it('promotes the world group for compositing while the map moves and drops it once the move settles', async () => {
      await renderViewer({ d1: draw('d1', { status: 'occupied', statusKind: 'busy' }) });
      const world = document.querySelector<SVGGElement>('g.world')!;
      await waitFor(() => expect(world.style.willChange).toBe(''));
      fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
      expect(world.style.willChange).toBe('transform');
      await waitFor(() => expect(world.style.willChange).toBe(''));
    });

    it('renders server text as text, never as markup', async () => {
      await renderViewer({ t1: draw('t1', { kind: 'ticket', name: '<img src=x onerror=alert(1)>', text: '<b>bold</b>', layers: ['desk_usage'] }) });
      expect(document.querySelector('img')).toBeNull();
      expect(document.querySelector('b')).toBeNull();
      expect(screen.getByText(/<b>bold<\/b>/)).toBeTruthy();
    });

    it('cuts a long ticket to what its bubble holds, at a word, and keeps the whole text in its name', async () => {
      const long = 'The coffee machine on the third floor kitchen leaks water all over the floor again';
      const link = `https://example.test/${'x'.repeat(200)}`;
      await renderViewer({
        t1: draw('t1', { kind: 'ticket', name: 'Leak', text: long, layers: ['desk_usage'] }),
        t2: draw('t2', { kind: 'voice', name: 'Link', text: link, layers: ['desk_usage'] }),
        t3: draw('t3', { kind: 'ticket', name: 'Short', text: 'Lamp out', layers: ['desk_usage'] }),
      });
      const bubbles = [...document.querySelectorAll('.bubble-text')].map((t) => t.textContent);
      expect(bubbles).toContain('⚑ The coffee machine on the…');
      expect(bubbles).toContain(`“${link.slice(0, BUBBLE_MAX_CHARS - 1)}…”`);
      expect(bubbles).toContain('⚑ Lamp out');
      expect(bubbles.every((b) => b!.length <= BUBBLE_MAX_CHARS + 2)).toBe(true);
      expect(screen.getByRole('button', { name: new RegExp(long) })).toBeTruthy();
    });

    it('shows the default avatar for co-workers without an allowed image', async () => {
      await renderViewer({
        e1: draw('e1', { kind: 'employee', name: 'Evil', layers: ['co-workers'], avatarUrl: 'https://evil.test/a.png' }),
        e2: draw('e2', { kind: 'employee', name: 'Good', layers: ['co-workers'], avatarUrl: 'http://cdn.test/t/a.png' }),
      });
      const evil = screen.getByRole('button', { name: /Evil/ }).querySelector('image')!;
      const good = screen.getByRole('button', { name: /Good/ }).querySelector('image')!;
      expect(evil.getAttribute('href')).toBe('/avatar-default.svg');
      expect(good.getAttribute('href')).toBe('http://cdn.test/t/a.png');
    });

    it("loads a co-worker's avatar path from the CDN, and shows the default one when it fails to load", async () => {
      await renderViewer({
        e1: draw('e1', { kind: 'employee', name: 'Pia', layers: ['co-workers'], avatarUrl: 'avatars/u1.svg' }),
      });
      const image = () => screen.getByRole('button', { name: /Pia/ }).querySelector('image')!;
      // spec §3: avatar_url is relative to settings.cdn_base_url, not to the page
      expect(image().getAttribute('href')).toBe('http://cdn.test/t/avatars/u1.svg');
      act(() => { image().dispatchEvent(new Event('error')); });
      expect(image().getAttribute('href')).toBe('/avatar-default.svg');
    });

    it('draws a highlighted co-worker again above a bubble standing over them, whose click opens them; a room stays under its desks', async () => {
      // what is painted, in order: each asset by its id, the picture drawn on top by the one it shows
      const painted = () => [...document.querySelectorAll('g.asset, g.asset-copy')].map((g) => g.getAttribute('data-asset-id') ?? `copy of ${g.getAttribute('data-raised-for')}`);
      const entries = {
        r1: room('r1', { layers: ['rooms'] }),
        d1: draw('d1', { x: 5, y: 5 }),
        e1: draw('e1', { kind: 'employee', name: 'Pia', layers: ['co-workers'], x: 5, y: 5 }),
        t1: draw('t1', { kind: 'ticket', name: 'Lamp', text: 'Lamp out', layers: ['desk_usage'], x: 5, y: 5 }),
      };
      const layers: MapLayer[] = ['rooms', 'desk_usage', 'co-workers'];
      const { unmount } = await renderViewer(entries, { layers, highlightId: 'e1' });
      // the bubble is drawn over people; the person the user asked to see once more over the bubble
      expect(painted()).toEqual(['r1', 'd1', 'e1', 't1', 'copy of e1']);
      // the person is still one button (one name, one place in the keyboard's order); the picture is hidden from it
      expect(screen.getAllByRole('button', { name: /Pia/ })).toHaveLength(1);
      const copy = document.querySelector('[data-raised-for="e1"]')!;
      expect(copy.getAttribute('aria-hidden')).toBe('true');
      expect(copy.hasAttribute('tabindex')).toBe(false);
      fireEvent.click(copy.querySelector('circle')!);
      expect(within(await openedPopup()).getByText('Pia')).toBeTruthy();
      unmount();
      // a room drawn on top would cover its desks
      await renderViewer(entries, { layers, highlightId: 'r1' });
      expect(painted()).toEqual(['r1', 'd1', 'e1', 't1']);
      expect(document.querySelector('g.asset.highlighted')!.getAttribute('data-asset-id')).toBe('r1');
    });

    it('draws the floor-plan image from the CDN only while the floorplan layer is on', async () => {
      const meta = { floor: floor('f1', { floor_plan_img_path: 'plans/f1.svg' }) };
      const { rerenderLayers } = await renderViewer({ d1: draw('d1') }, { meta });
      expect(document.querySelector('image.floor-plan')!.getAttribute('href')).toBe('http://cdn.test/t/plans/f1.svg');
      rerenderLayers(['desk_usage']);
      expect(document.querySelector('image.floor-plan')).toBeNull();
    });

    it('lays the floor out at its building location_offset', async () => {
      await renderViewer({ d1: draw('d1') }, { meta: { building: { ...floorMeta().building!, location_offset: [80, 0] } } });
      expect(document.querySelector('g.world > g')!.getAttribute('transform')).toBe('translate(80 0)');
    });

    it('shows the loading and empty states', async () => {
      const { engine } = await renderViewer({}, { meta: { loading: true } });
      expect(screen.getByRole('status').textContent).toBe('Loading floor…');
      act(() => engine.emit('floor:f1', { meta: floorMeta({ loading: false, fromCache: true }) }));
      await waitFor(() => expect(screen.getByText('Nothing to show on this floor yet.')).toBeTruthy());
    });

    it('draws the heatmap under everything when its layer is on', async () => {
      const e1 = draw('e1', { kind: 'employee', layers: ['co-workers', 'co-workers-heatmap'], heat: 0.7 });
      const { rerenderLayers } = await renderViewer({ e1 }, { layers: ['co-workers'] });
      expect(document.querySelector('circle.heat')).toBeNull();
      rerenderLayers(['co-workers-heatmap']);
      expect(document.querySelector('circle.heat')!.getAttribute('opacity')).toBe('0.7');
      // heat alone does not draw the avatar
      expect(screen.queryByRole('button', { name: /Co-worker/ })).toBeNull();
    });
  });

  describe('StrictMode', () => {
    it('draws assets that arrive after a StrictMode mount, unmount and remount', async () => {
      const engine = createFakeEngine(signedInWorld());
      const handle = engine.client.view({ view: 'floor', floorId: 'f1', layers: DEFAULT_LAYERS });
      const app = { session: sessionView(), rooms: null, timeZone: 'UTC', announce: vi.fn(), floorName: () => null, writable: true };
      render(
        <StrictMode>
          <EngineContext.Provider value={engine.client}>
            <AppContext.Provider value={app}>
              <FloorViewer mirror={handle.mirror as ViewMirror<DrawState, FloorViewMeta>} layers={DEFAULT_LAYERS} imagePolicy={policy} />
            </AppContext.Provider>
          </EngineContext.Provider>
        </StrictMode>,
      );
      expect(await screen.findByRole('button', { name: /Desk d1/ })).toBeTruthy();
      act(() => engine.emit('floor:f1', { upserted: { d7: draw('d7') } }));
      expect(await screen.findByRole('button', { name: /Desk d7/ })).toBeTruthy();
    });
  });

  describe('layers', () => {
    it('shows an asset when any of its layers is active and hides it otherwise', async () => {
      const { rerenderLayers } = await renderViewer({ d1: draw('d1', { layers: ['desks', 'desk_usage'] }) }, { layers: ['desks'] });
      expect(screen.getByRole('button', { name: /Desk d1/ })).toBeTruthy();
      rerenderLayers(['floorplan']);
      expect(screen.queryByRole('button', { name: /Desk d1/ })).toBeNull();
      rerenderLayers(['desk_usage']);
      expect(screen.getByRole('button', { name: /Desk d1/ })).toBeTruthy();
    });

    it('hides assets the worker removes (hidden assets have no entry at all)', async () => {
      const { engine } = await renderViewer({ d1: draw('d1') });
      act(() => engine.emit('floor:f1', { removed: ['d1'] }));
      await waitFor(() => expect(screen.queryByRole('button', { name: /Desk d1/ })).toBeNull());
    });
  });

  describe('live updates', () => {
    it('re-renders only the asset whose key changed', async () => {
      const { engine, handle } = await renderViewer({ d1: draw('d1'), d2: draw('d2') });
      // the label layout measures the floor's labels in a task after the mount: let it finish first
      await act(() => new Promise((done) => setTimeout(done, 0)));
      const reads = new Map<string, number>();
      const original = handle.mirror.getSnapshot;
      (handle.mirror as { getSnapshot: typeof original }).getSnapshot = (key: string) => {
        reads.set(key, (reads.get(key) ?? 0) + 1);
        return original(key);
      };
      const d2Element = screen.getByRole('button', { name: /Desk d2/ });
      act(() => engine.emit('floor:f1', { upserted: { d1: draw('d1', { status: 'occupied', color: '#e53935' }) } }));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Desk d1, occupied' })).toBeTruthy());
      expect(reads.get('d1')).toBeGreaterThan(0);
      expect(reads.get('d2') ?? 0).toBe(0);
      expect(screen.getByRole('button', { name: /Desk d2/ })).toBe(d2Element);
      expect(screen.getByRole('button', { name: /Desk d1/ }).getAttribute('data-color')).toBe('#e53935');
    });

    it('adds and removes assets from patches', async () => {
      const { engine } = await renderViewer({ d1: draw('d1') });
      act(() => engine.emit('floor:f1', { upserted: { d3: draw('d3') }, removed: ['d1'] }));
      await screen.findByRole('button', { name: /Desk d3/ });
      expect(screen.queryByRole('button', { name: /Desk d1/ })).toBeNull();
    });
  });

  describe('pan and zoom', () => {
    it('transforms one group, leaving the viewBox alone', async () => {
      await renderViewer({ d1: draw('d1') });
      const svg = screen.getByRole('application');
      const world = svg.querySelector('g.world')!;
      const before = world.getAttribute('transform');
      fireEvent.keyDown(svg, { key: '+' });
      const zoomed = world.getAttribute('transform');
      expect(zoomed).not.toBe(before);
      fireEvent.keyDown(svg, { key: 'ArrowLeft' });
      expect(world.getAttribute('transform')).not.toBe(zoomed);
      expect(svg.getAttribute('viewBox')).toBeNull();
    });

    it('zooms with the wheel and pans by dragging', async () => {
      await renderViewer({ d1: draw('d1') });
      const svg = screen.getByRole('application');
      const world = svg.querySelector('g.world')!;
      const scale = () => Number(/scale\(([^)]+)\)/.exec(world.getAttribute('transform')!)![1]);
      const k0 = scale();
      fireEvent.wheel(svg, { deltaY: -200, clientX: 100, clientY: 100 });
      await waitFor(() => expect(scale()).toBeGreaterThan(k0));
      const t0 = world.getAttribute('transform');
      fireEvent.pointerDown(svg, { pointerId: 1, clientX: 100, clientY: 100 });
      fireEvent.pointerMove(svg, { pointerId: 1, clientX: 150, clientY: 120 });
      fireEvent.pointerUp(svg, { pointerId: 1 });
      await waitFor(() => expect(world.getAttribute('transform')).not.toBe(t0));
    });

    it('moves the map on the compositor during a gesture and lands the world group where it showed it', async () => {
      await renderViewer({ d1: draw('d1') });
      const svg = screen.getByRole('application') as unknown as SVGSVGElement;
      const world = svg.querySelector('g.world')!;
      const parse = (t: string) => {
        const m = /translate\(([-\d.e+]+) ([-\d.e+]+)\) scale\(([-\d.e+]+)\)/.exec(t)!;
        return { x: Number(m[1]), y: Number(m[2]), k: Number(m[3]) };
      };
      await waitFor(() => expect(svg.style.transform).toBe(''));
      const before = world.getAttribute('transform')!;
      fireEvent.wheel(svg, { deltaY: -200, clientX: 100, clientY: 100 });
      fireEvent.pointerDown(svg, { pointerId: 1, clientX: 100, clientY: 100 });
      fireEvent.pointerMove(svg, { pointerId: 1, clientX: 160, clientY: 130 });
      // nothing of the floor is painted again while it moves: only the svg's layer is moved and scaled
      expect(world.getAttribute('transform')).toBe(before);
      expect(svg.style.willChange).toBe('transform');
      const lift = /translate\(([-\d.e+]+)px, ([-\d.e+]+)px\) scale\(([-\d.e+]+)\)/.exec(svg.style.transform)!;
      const [tx, ty, r] = [Number(lift[1]), Number(lift[2]), Number(lift[3])];
      expect(r).toBeGreaterThan(1);
      const d = parse(before);
      fireEvent.pointerUp(svg, { pointerId: 1 });
      await waitFor(() => expect(svg.style.transform).toBe(''));
      // settled: the world group holds exactly what the lifted layer showed, so nothing jumps
      const after = parse(world.getAttribute('transform')!);
      expect(after.k).toBeCloseTo(d.k * r, 6);
      expect(after.x).toBeCloseTo(r * d.x + tx, 6);
      expect(after.y).toBeCloseTo(r * d.y + ty, 6);
      expect(svg.style.willChange).toBe('');
    });

    it('culls assets far outside the view on large floors once the view settles', async () => {
      const entries: Record<string, DrawState> = {};
      for (let i = 0; i < 450; i++) entries[`d${i}`] = draw(`d${i}`, { x: (i % 40) + 0.5, y: (i % 20) + 0.5 });
      entries.far = draw('far', { name: 'Far away', x: 500, y: 500 });
      await renderViewer(entries);
      // a floor this large is drawn over a few frames (lib/revealOrder.ts), saying so meanwhile
      expect(screen.getByText(/Drawing the floor/)).toBeTruthy();
      await waitFor(() => expect(screen.queryByText(/Drawing the floor/)).toBeNull());
      await waitFor(() => expect(screen.queryByRole('button', { name: /Far away/ })).toBeNull());
      expect(screen.getByRole('button', { name: 'Desk d0, free' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Desk d449, free' })).toBeTruthy();
    });

    it('fits the floor from the toolbar and the keyboard', async () => {
      await renderViewer({ d1: draw('d1') });
      const svg = screen.getByRole('application');
      const world = svg.querySelector('g.world')!;
      const fitted = world.getAttribute('transform');
      fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
      expect(world.getAttribute('transform')).not.toBe(fitted);
      fireEvent.click(screen.getByRole('button', { name: 'Fit to floor' }));
      expect(world.getAttribute('transform')).toBe(fitted);
      fireEvent.keyDown(svg, { key: '-' });
      fireEvent.keyDown(svg, { key: '0' });
      expect(world.getAttribute('transform')).toBe(fitted);
    });
  });

  describe('popups', () => {
    it(`opens a ${POPUP_DEFAULT_WIDTH}×${POPUP_DEFAULT_HEIGHT} popup with details, value, reservation text and history from the keyboard`, async () => {
      await renderViewer({ r1: room('r1', { status: 'reserved', statusKind: 'booked' }) }, {
        details: {
          r1: {
            value: { text: '3 people', quantity: 'Occupancy', unit: 'people' },
            reservation: {
              text: `${MSG.NEXT_PREFIX} 10:00–10:30 Standup`,
              active: null,
              next: { start: Date.UTC(2030, 0, 1, 10), end: Date.UTC(2030, 0, 1, 10, 30), subject: 'Standup', user_id: 'u1', booking_ref: 'b1' },
              upcoming: [{ start: Date.UTC(2030, 0, 1, 10), end: Date.UTC(2030, 0, 1, 10, 30), subject: 'Standup', user_id: 'u1', booking_ref: 'b1' }],
            },
            history: [{ time: Date.UTC(2024, 0, 1, 9), text: 'Occupied' }],
          },
        },
      });
      fireEvent.keyDown(screen.getByRole('button', { name: /Room r1/ }), { key: 'Enter' });
      const dialog = await screen.findByRole('dialog', { name: 'Room r1' });
      expect(dialog.style.width).toBe('300px');
      expect(dialog.style.height).toBe('250px');
      expect(within(dialog).getByText('reserved')).toBeTruthy();
      expect(within(dialog).getByText('3 people')).toBeTruthy();
      // the next meeting from its times, in the location's zone, in one format
      const next = within(dialog).getByText('Next').nextElementSibling!.textContent!;
      expect(next).toMatch(/10:00/);
      expect(next).toMatch(/Standup$/);
      // the status once, in the header
      expect(within(dialog).getAllByText('reserved')).toHaveLength(1);
      expect(within(dialog).getByText(/Occupied/)).toBeTruthy();
      fireEvent.keyDown(dialog, { key: 'Escape' });
      expect(screen.queryByRole('dialog')).toBeNull();
    });

    it('shows a device\'s battery and last communication', async () => {
      await renderViewer({ d1: draw('d1', { status: 'battery low', statusKind: 'attention' }) }, {
        openId: 'd1', details: { d1: { battery: 15, lastCommunication: Date.UTC(2024, 0, 1, 9) } },
      });
      const dialog = await openedPopup();
      expect(within(dialog).getByText('Battery').nextElementSibling!.textContent).toBe('15 %');
      expect(within(dialog).getByText('Last heard').nextElementSibling!.textContent).toMatch(/\d/);
      expect(within(dialog).getByText('battery low')).toBeTruthy();
    });

    it("uses the asset's own popup size", async () => {
      await renderViewer({ d1: draw('d1') }, { openId: 'd1', details: { d1: { popup: { width: 420, height: 320, type: null } } } });
      const dialog = await openedPopup();
      expect(dialog.style.width).toBe('420px');
      expect(dialog.style.height).toBe('320px');
    });

    it("shows a room's booking controls with the popup's other actions in one render: nothing moves in under a pointer", async () => {
      // what the popup's footer holds when it first appears (a control added a moment later moves the ones below it)
      const first: string[][] = [];
      const seen = new MutationObserver(() => {
        const footer = document.querySelector('[data-testid="asset-popup"] footer');
        if (footer && first.length === 0) first.push([...footer.querySelectorAll('button')].map((b) => b.textContent ?? ''));
      });
      seen.observe(document.body, { childList: true, subtree: true });
      await renderViewer({ r1: room('r1', { status: 'free' }) }, { openId: 'r1' });
      const dialog = await openedPopup();
      await within(dialog).findByRole('button', { name: 'Book now' });
      seen.disconnect();
      expect(first[0]).toContain('Book now');
    });

    it('shows reservation text of a free room and books it', async () => {
      const { engine } = await renderViewer({ r1: room('r1', { status: 'free' }) }, { openId: 'r1' });
      const dialog = await openedPopup();
      expect(within(dialog).getByText('No reservations')).toBeTruthy();
      fireEvent.change(await within(dialog).findByLabelText('Subject'), { target: { value: 'Planning' } });
      fireEvent.change(within(dialog).getByLabelText('Duration'), { target: { value: '60' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Book now' }));
      await waitFor(() => expect(engine.bookRoom).toHaveBeenCalled());
      // the UI sends the intent; the worker computes the times
      expect(vi.mocked(engine.bookRoom).mock.calls[0]![0]).toEqual({ roomId: 'r1', until: { minutes: 60 }, subject: 'Planning' });
    });

    it('lets the booker cancel their active booking', async () => {
      const active = { start: 0, end: Date.now() + 3_600_000, subject: 'Mine', user_id: 'u1', booking_ref: 'bk1' };
      const { engine } = await renderViewer({ r1: room('r1', { status: 'reserved', statusKind: 'booked' }) }, {
        openId: 'r1',
        details: { r1: { reservation: { text: 'Mine', active, next: null, upcoming: [active] }, room: { free: false, capacity: 6 }, actions: { book: false, cancellable: ['bk1'], vote: false, rename: false, closeTicket: false, publish: false } } },
      });
      const dialog = await openedPopup();
      fireEvent.click(await within(dialog).findByRole('button', { name: /Cancel booking “Mine”/ }));
      await waitFor(() => expect(engine.cancelBooking).toHaveBeenCalledWith('r1', 'bk1'));
    });

    it('keeps the focus in the popup when the action pressed goes away (a booking cancelled), so Escape still closes it', async () => {
      const active = { start: 0, end: Date.now() + 3_600_000, subject: 'Mine', user_id: 'u1', booking_ref: 'bk1' };
      const cancellable = { book: false, cancellable: ['bk1'], vote: false, rename: false, closeTicket: false, publish: false };
      const r1 = room('r1', { status: 'reserved', statusKind: 'booked' });
      const { engine } = await renderViewer({ r1 }, {
        openId: 'r1', details: { r1: { reservation: { text: 'Mine', active, next: null, upcoming: [active] }, room: { free: false, capacity: 6 }, actions: cancellable } },
      });
      const dialog = await openedPopup();
      const cancel = await within(dialog).findByRole('button', { name: /Cancel booking “Mine”/ });
      cancel.focus();
      fireEvent.click(cancel);
      await waitFor(() => expect(engine.cancelBooking).toHaveBeenCalled());
      // the worker's asset view: the booking is gone, and so is its button
      const after = detail(r1, { reservation: { text: 'No reservations', active: null, next: null, upcoming: [] }, room: { free: true, capacity: 6 }, actions: { ...cancellable, cancellable: [] } });
      act(() => engine.emit('asset:r1', { upserted: { [SELF_KEY]: after } }));
      await waitFor(() => expect(within(dialog).queryByRole('button', { name: /Cancel booking/ })).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close details' })));
      fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    });

    it('votes on tickets and voices', async () => {
      const { engine } = await renderViewer(
        { v1: draw('v1', { kind: 'voice', name: 'Cold' }) },
        { openId: 'v1', details: { v1: { votes: { up: 2, down: 1, mine: 0 }, actions: { book: false, cancellable: [], vote: true, rename: false, closeTicket: false, publish: false } } } },
      );
      const dialog = await openedPopup();
      fireEvent.click(within(dialog).getByRole('button', { name: '▲ Agree (2)' }));
      await waitFor(() => expect(engine.vote).toHaveBeenCalledWith('v1', 1));
    });
  });

  describe('the painted floor (index.html painted the saved floor before the app ran)', () => {
    let picture: HTMLElement | null = null;
    afterEach(() => {
      picture?.remove();
      delete window.__storeyPainted;
    });

    /** The picture of floor f1 with a room and a co-worker on it, and a click made on the room before the app was ready. */
    function paint(): void {
      picture = document.createElement('div');
      picture.className = 'painted';
      picture.setAttribute('aria-hidden', 'true');
      picture.innerHTML = '<svg class="floor-svg"><g class="layer-assets" data-painted-count="2"></g></svg>';
      document.body.append(picture);
      // the room is the floor's own; the co-worker e9, also on the picture, comes and goes
      window.__storeyPainted = { floorId: 'f1', view: null, clicked: 'r1', fixed: ['r1'] };
    }

    /** The viewer over a floor mirror fed by hand, as the worker's messages would feed it. */
    function renderPainted(first: { entries: Record<string, DrawState>; fromCache: boolean }) {
      const world = signedInWorld();
      world['asset:r1'] = { entries: { [SELF_KEY]: detail(room('r1')) }, meta: null };
      const engine = createFakeEngine(world);
      const mirror = createViewMirror<DrawState, FloorViewMeta>();
      mirror.apply({ type: 'snapshot', version: 1, entries: first.entries, meta: floorMeta({ fromCache: first.fromCache }) });
      const app = { session: sessionView(), rooms: engine.client.view({ view: 'rooms' }).mirror, timeZone: 'UTC', announce: vi.fn(), floorName: () => null, writable: true };
      render(
        <EngineContext.Provider value={engine.client}>
          <AppContext.Provider value={app}>
            <FloorViewer mirror={mirror} layers={DEFAULT_LAYERS} imagePolicy={policy} openId={null} paint={{ userId: 'u1', floorId: 'f1' }} />
          </AppContext.Provider>
        </EngineContext.Provider>,
      );
      return mirror;
    }

    const frames = () => act(() => new Promise((done) => setTimeout(done, 350)));

    it('stays, with the click kept, while the saved data lacks a room it shows, and opens that room once it comes', async () => {
      paint();
      // a reopen before the floor's own part was saved: only a co-worker placed on the floor, no room
      const mirror = renderPainted({ entries: { e1: draw('e1', { kind: 'employee', name: 'Grace', layers: ['co-workers'], statusKind: 'none', status: null }) }, fromCache: true });
      await frames();
      expect(picture!.isConnected).toBe(true);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(window.__storeyPainted?.clicked).toBe('r1');

      // the room comes (the rest of the saved location, or live data); the co-worker of the picture need not
      act(() => void mirror.apply({ type: 'patch', version: 2, upserted: { r1: room('r1') }, removed: [] }));
      const dialog = await openedPopup();
      expect(within(dialog).getByRole('heading', { name: 'Room r1' })).toBeTruthy();
      expect(picture!.isConnected).toBe(false);
      expect(window.__storeyPainted?.clicked).toBeNull();
    });

    it('gives way to live data even without an asset it shows, and a click on an asset gone since opens nothing', async () => {
      paint();
      renderPainted({ entries: { d1: draw('d1') }, fromCache: false });
      await waitFor(() => expect(picture!.isConnected).toBe(false));
      await frames();
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(window.__storeyPainted?.clicked).toBeNull();
      expect(screen.getByRole('button', { name: 'Desk d1, free' })).toBeTruthy();
    });

    it(`gives way after ${PAINTED_COVER_WAIT_MS} ms to saved data that lacks an asset it shows (offline, nothing more comes), the click kept for when it does`, async () => {
      paint();
      const mirror = renderPainted({ entries: { d1: draw('d1') }, fromCache: true });
      await frames();
      expect(picture!.isConnected).toBe(true);
      // offline: neither the rest of the saved data nor live data comes; the app is not kept hidden
      await waitFor(() => expect(picture!.isConnected).toBe(false), { timeout: PAINTED_COVER_WAIT_MS + 1000 });
      expect(screen.getByRole('button', { name: 'Desk d1, free' })).toBeTruthy();
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(window.__storeyPainted?.clicked).toBe('r1');
      // back online, the room comes: the click made on the picture opens it
      act(() => void mirror.apply({ type: 'patch', version: 2, upserted: { r1: room('r1') }, removed: [], meta: floorMeta({ fromCache: false }) }));
      const dialog = await openedPopup();
      expect(within(dialog).getByRole('heading', { name: 'Room r1' })).toBeTruthy();
    });
  });

  describe('floorPlanUrl', () => {
    it('puts relative paths under the CDN, else the API host, and refuses foreign hosts', () => {
      expect(floorPlanUrl('/plans/a.png', policy)).toBe('http://cdn.test/t/plans/a.png');
      expect(floorPlanUrl('plans/a.png', { ...policy, cdnBaseUrl: null })).toBe('http://api.test/plans/a.png');
      expect(floorPlanUrl('https://evil.test/a.png', policy)).toBeNull();
      expect(floorPlanUrl(null, policy)).toBeNull();
    });
  });
});
