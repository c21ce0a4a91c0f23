// The side panels' tabs follow the WAI-ARIA tabs pattern: one tab stop for the
// list, Left/Right/Home/End move between tabs and select as they go
// (automatic activation), and what the person wrote in a panel stays.

import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderShell } from './renderShell.js';

afterEach(cleanup);

const tabs = () => screen.getAllByRole('tab') as HTMLButtonElement[];
const names = (list: HTMLElement[]) => list.map((t) => t.textContent);
const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key });
const focus = (el: HTMLElement) => el.focus();

describe('side panel tabs', () => {
  it('are one tab stop: the selected tab', async () => {
    renderShell();
    await screen.findByRole('tab', { name: 'People' });
    expect(names(tabs().filter((t) => t.tabIndex === 0))).toEqual(['People']);
    expect(tabs().filter((t) => t.tabIndex === -1).length).toBe(tabs().length - 1);
    expect(screen.getByRole('tablist', { name: 'Panels' }).getAttribute('aria-orientation')).toBe('horizontal');
    const panel = screen.getByRole('tabpanel');
    expect(panel.getAttribute('aria-labelledby')).toBe('tab-people');
    expect(screen.getByRole('tab', { name: 'People' }).getAttribute('aria-controls')).toBe(panel.id);
  });

  it('move with the arrow keys, Home and End, selecting each tab they reach', async () => {
    renderShell();
    const people = await screen.findByRole('tab', { name: 'People' });
    focus(people);
    press('ArrowRight');
    expect(document.activeElement?.textContent).toBe('Rooms');
    expect(screen.getByRole('tab', { name: 'Rooms' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('tab-rooms');
    // still one tab stop, now on Rooms
    expect(names(tabs().filter((t) => t.tabIndex === 0))).toEqual(['Rooms']);
    press('End');
    const last = tabs().at(-1)!;
    expect(document.activeElement).toBe(last);
    expect(last.getAttribute('aria-selected')).toBe('true');
    // wraps round from the last to the first, and back
    press('ArrowRight');
    expect(document.activeElement?.textContent).toBe('People');
    press('ArrowLeft');
    expect(document.activeElement).toBe(last);
    press('Home');
    expect(document.activeElement?.textContent).toBe('People');
    expect(screen.getByRole('tab', { name: 'People' }).getAttribute('aria-selected')).toBe('true');
  });

  it('keep the ticket being written and the queries typed while the arrows pass other panels', async () => {
    renderShell();
    fireEvent.click(await screen.findByRole('tab', { name: 'Report an issue' }));
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'The printer is jammed' } });
    fireEvent.click(screen.getByRole('radio', { name: /Voice/ }));
    focus(screen.getByRole('tab', { name: 'Report an issue' }));
    press('Home');
    fireEvent.change(screen.getByLabelText('Find a co-worker'), { target: { value: 'aino' } });
    focus(screen.getByRole('tab', { name: 'People' }));
    press('ArrowRight');
    fireEvent.change(screen.getByLabelText('Find a room'), { target: { value: 'F0' } });
    focus(screen.getByRole('tab', { name: 'Rooms' }));
    for (const step of ['ArrowLeft', 'ArrowRight', 'ArrowRight']) press(step);
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).not.toBe('tab-rooms');
    press('Home');
    expect((screen.getByLabelText('Find a co-worker') as HTMLInputElement).value).toBe('aino');
    press('ArrowRight');
    expect((screen.getByLabelText('Find a room') as HTMLInputElement).value).toBe('F0');
    fireEvent.click(screen.getByRole('tab', { name: 'Report an issue' }));
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('The printer is jammed');
    expect((screen.getByRole('radio', { name: /Voice/ }) as HTMLInputElement).checked).toBe(true);
  });
});
