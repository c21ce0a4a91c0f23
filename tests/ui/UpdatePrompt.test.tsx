import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpdatePrompt } from '../../src/ui/components/UpdatePrompt.js';
import { createAppUpdate } from '../../src/ui/lib/appUpdate.js';

afterEach(cleanup);

describe('UpdatePrompt', () => {
  it('stays hidden until a new build waits, then reloads into it', async () => {
    const update = createAppUpdate();
    render(<UpdatePrompt update={update} />);
    expect(screen.queryByRole('alert')).toBeNull();
    const apply = vi.fn(async () => undefined);
    act(() => update.offer(apply));
    expect(screen.getByRole('alert').textContent).toContain('A new version of Storey is available.');
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(apply).toHaveBeenCalledOnce();
  });

  it('goes away on Later and comes back for the next build', () => {
    const update = createAppUpdate();
    render(<UpdatePrompt update={update} />);
    act(() => update.offer(async () => undefined));
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => update.offer(async () => undefined));
    expect(screen.getByRole('alert')).toBeTruthy();
  });
});
