// The room display's one-time setup is a sign-in too: while the browser is
// offline it waits for the network and says why, as the viewer's form does.

import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY } from '../../src/shared/api.js';
import { offlineText } from '../../src/ui/components/OfflineNote.js';
import { DisplayApp } from '../../src/ui/display/DisplayApp.js';
import { createFakeEngine, sessionView } from './fakeEngine.js';

afterEach(cleanup);

describe('DisplaySetup', () => {
  it('waits for the network to start the display while the browser is offline, and starts it once back', async () => {
    const engine = createFakeEngine({ session: { entries: { [SELF_KEY]: sessionView({ signedIn: false, user: null }) }, meta: null } });
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      render(<DisplayApp client={engine.client} route={{ roomId: 'r1', locationId: 'l1' }} />);
      await screen.findByRole('heading', { name: 'Set up this room display' });
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
      fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
      const start = screen.getByRole('button', { name: 'Start the display' }) as HTMLButtonElement;
      expect(start.disabled).toBe(true);
      expect(document.getElementById(start.getAttribute('aria-describedby')!)?.textContent).toBe(offlineText('setting up the display'));
      fireEvent.submit(start.closest('form')!);
      expect(engine.signIn).not.toHaveBeenCalled();

      onLine.mockReturnValue(true);
      act(() => { window.dispatchEvent(new Event('online')); });
      expect(start.disabled).toBe(false);
      expect(screen.queryByText(offlineText('setting up the display'))).toBeNull();
      fireEvent.click(start);
      await waitFor(() => expect(engine.signIn).toHaveBeenCalledWith('ada@example.com', 'secret', { device: 'display' }));
    } finally {
      onLine.mockRestore();
    }
  });
});
