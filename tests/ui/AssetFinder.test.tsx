import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchMeta, SearchResult } from '../../src/shared/api.js';
import { AssetFinder } from '../../src/ui/components/finder/AssetFinder.js';
import { EngineContext } from '../../src/ui/hooks/engineContext.js';
import { createFakeEngine } from './fakeEngine.js';

afterEach(cleanup);

function room(id: string, name: string, rank: number): SearchResult {
  return {
    key: `a:${id}`, id, target: 'asset', group: 'room', kind: 'room', name, rank, status: 'free', statusKind: 'free', layers: ['room_reservation'],
    floorId: 'f1', floorName: 'Floor 1', buildingId: 'b1', buildingName: 'HQ', x: 10, y: 10,
  };
}

const meta = (query: string, total: number): SearchMeta => ({ query, total, groups: [{ group: 'room', count: total }], indexing: null });

function renderFinder(results: SearchResult[], query: string) {
  const engine = createFakeEngine({
    search: { entries: Object.fromEntries(results.map((r) => [r.key, r])), meta: meta(query, results.length) },
  });
  const onShow = vi.fn();
  render(
    <EngineContext.Provider value={engine.client}>
      <AssetFinder onShow={onShow} multipleBuildings={false} />
    </EngineContext.Provider>,
  );
  return { engine, onShow, box: screen.getByRole('combobox') };
}

const selected = () => screen.getAllByRole('option').filter((o) => o.getAttribute('aria-selected') === 'true').map((o) => o.textContent);

describe('AssetFinder', () => {
  it('keeps the result the arrows moved to highlighted when results re-rank under it, and Enter shows that one', async () => {
    const { engine, onShow, box } = renderFinder([room('r1', 'Room One', 0), room('r2', 'Room Two', 1), room('r3', 'Room Three', 2)], 'room');
    fireEvent.change(box, { target: { value: 'room' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(selected()).toEqual([expect.stringContaining('Room Three')]);
    // a new best match arrives above it (a live change, or the typed query answered late)
    await act(async () => {
      engine.emit('search', { upserted: { 'a:r0': room('r0', 'Room Zero', 0), 'a:r1': room('r1', 'Room One', 1), 'a:r2': room('r2', 'Room Two', 2), 'a:r3': room('r3', 'Room Three', 3) }, meta: meta('room', 4) });
      await engine.flush();
    });
    expect(screen.getAllByRole('option')).toHaveLength(4);
    expect(selected()).toEqual([expect.stringContaining('Room Three')]);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onShow).toHaveBeenCalledTimes(1);
    expect(onShow.mock.calls[0]![0]).toMatchObject({ id: 'r3' });
  });

  it('starts at the top again when the user types, and while the highlighted result is out of the list', async () => {
    const { engine, onShow, box } = renderFinder([room('r1', 'Room One', 0), room('r2', 'Room Two', 1)], 'room');
    fireEvent.change(box, { target: { value: 'room' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(selected()).toEqual([expect.stringContaining('Room Two')]);
    await act(async () => {
      engine.emit('search', { removed: ['a:r2'], meta: meta('room', 1) });
      await engine.flush();
    });
    expect(selected()).toEqual([expect.stringContaining('Room One')]);
    // back in the list (the search view answering in between), it is the user's pick again
    await act(async () => {
      engine.emit('search', { upserted: { 'a:r2': room('r2', 'Room Two', 1) }, meta: meta('room', 2) });
      await engine.flush();
    });
    expect(selected()).toEqual([expect.stringContaining('Room Two')]);
    fireEvent.change(box, { target: { value: 'room ' } });
    expect(selected()).toEqual([expect.stringContaining('Room One')]);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onShow.mock.calls[0]![0]).toMatchObject({ id: 'r1' });
  });

  it('takes `/` from anywhere but a field the user types in: a layer checkbox just toggled, not the subject of a booking', () => {
    const engine = createFakeEngine({ search: { entries: {}, meta: meta('', 0) } });
    render(
      <EngineContext.Provider value={engine.client}>
        <label><input type="checkbox" /> CO₂</label>
        <label><input type="text" /> Subject</label>
        <AssetFinder onShow={vi.fn()} multipleBuildings={false} />
      </EngineContext.Provider>,
    );
    const layer = screen.getByRole('checkbox', { name: 'CO₂' });
    layer.focus();
    fireEvent.keyDown(layer, { key: '/' });
    expect(document.activeElement).toBe(screen.getByRole('combobox'));
    const subject = screen.getByRole('textbox', { name: 'Subject' });
    subject.focus();
    fireEvent.keyDown(subject, { key: '/' });
    expect(document.activeElement).toBe(subject);
  });

  it('opens the results again on a click into the box after Escape closed them', async () => {
    const { box } = renderFinder([room('r1', 'Room One', 0)], 'room');
    box.focus();
    fireEvent.change(box, { target: { value: 'room' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    fireEvent.click(box);
    expect(screen.getAllByRole('option')).toHaveLength(1);
  });
});
