import { BASE_CONFIG } from '../../src/shared/config.js';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY } from '../../src/shared/api.js';
import { App, idTokenFromHash } from '../../src/ui/App.js';
import { offlineText } from '../../src/ui/components/OfflineNote.js';
import {
  building, connectionView, createFakeEngine, detail, draw, floor, sessionView, signedInWorld, structureEntry,
} from './fakeEngine.js';
import { renderShell } from './renderShell.js';

afterEach(cleanup);

function signedOutWorld() {
  const world = signedInWorld();
  world.session = { entries: { [SELF_KEY]: sessionView({ signedIn: false, user: null, organizationId: null, locationId: null }) }, meta: null };
  return world;
}

describe('App', () => {
  describe('sign-in screen', () => {
    it('shows the sign-in form when no session resumes', async () => {
      const engine = createFakeEngine(signedOutWorld());
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="" />);
      expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
      expect(engine.resume).toHaveBeenCalled();
    });

    it('signs in with email and password and then shows the floor', async () => {
      const engine = createFakeEngine(signedOutWorld());
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="" />);
      fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
      fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
      await waitFor(() => expect(engine.signIn).toHaveBeenCalledWith('ada@example.com', 'secret'));
      expect(await screen.findByRole('application', { name: /Floor plan of Floor f1/ })).toBeTruthy();
    });

    it('waits for the network to sign in while the browser is offline, says why, and signs in once it is back', async () => {
      const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      try {
        const engine = createFakeEngine(signedOutWorld());
        render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="" />);
        // the fields can be filled in meanwhile
        fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
        fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
        const signIn = screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;
        const sso = screen.getByRole('button', { name: 'Sign in with single sign-on' }) as HTMLButtonElement;
        const reason = offlineText('signing in');
        expect(reason).toBe('You are offline: signing in needs a network connection. This comes back on by itself once you are online.');
        for (const button of [signIn, sso]) {
          expect(button.disabled).toBe(true);
          expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(reason);
        }
        // neither the button nor Enter in a field sends anything
        fireEvent.click(signIn);
        fireEvent.submit(signIn.closest('form')!);
        expect(engine.signIn).not.toHaveBeenCalled();
        // the other forms say it in their words
        fireEvent.click(screen.getByRole('button', { name: 'Create an account' }));
        expect((screen.getByRole('button', { name: 'Sign up' }) as HTMLButtonElement).disabled).toBe(true);
        expect(screen.getByText(offlineText('signing up'))).toBeTruthy();
        fireEvent.click(screen.getByRole('button', { name: 'I have a code' }));
        expect((screen.getByRole('button', { name: 'Create account' }) as HTMLButtonElement).disabled).toBe(true);
        expect(screen.getByText(offlineText('creating the account'))).toBeTruthy();
        fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
        fireEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));
        expect((screen.getByRole('button', { name: 'Send reset link' }) as HTMLButtonElement).disabled).toBe(true);
        expect(screen.getByText(offlineText('resetting a password'))).toBeTruthy();
        fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));

        // back online: offered again by itself, the reason gone, and it signs in
        onLine.mockReturnValue(true);
        act(() => { window.dispatchEvent(new Event('online')); });
        const again = screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;
        expect(again.disabled).toBe(false);
        expect(again.getAttribute('aria-describedby')).toBeNull();
        expect(screen.queryByText(reason)).toBeNull();
        fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
        fireEvent.click(again);
        await waitFor(() => expect(engine.signIn).toHaveBeenCalledWith('ada@example.com', 'secret'));
      } finally {
        onLine.mockRestore();
      }
    });

    it('turns sign-in off when the browser goes offline on the form', async () => {
      const engine = createFakeEngine(signedOutWorld());
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="" />);
      const signIn = (await screen.findByRole('button', { name: 'Sign in' })) as HTMLButtonElement;
      expect(signIn.disabled).toBe(false);
      const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      try {
        act(() => { window.dispatchEvent(new Event('offline')); });
        expect(signIn.disabled).toBe(true);
        expect(screen.getByRole('status').textContent).toBe(offlineText('signing in'));
      } finally {
        onLine.mockRestore();
      }
    });

    it('tells the user when the password is wrong', async () => {
      const engine = createFakeEngine(signedOutWorld());
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="" />);
      fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
      fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'nope' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
      expect((await screen.findByRole('alert')).textContent).toBe('Wrong email or password.');
    });

    it('offers signup and password recovery', async () => {
      const engine = createFakeEngine(signedOutWorld());
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="" />);
      fireEvent.click(await screen.findByRole('button', { name: 'Create an account' }));
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'new@example.com' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
      await screen.findByText(/Check your inbox/);
      expect(engine.signUp).toHaveBeenCalledWith('new@example.com');
      expect(screen.getByRole('heading', { name: 'Finish signing up' })).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
      fireEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
      fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
      await screen.findByText(/reset the password is on its way/);
      expect(engine.recoverPassword).toHaveBeenCalledWith('ada@example.com');
    });

    it('finishes a signup with the mailed code and signs the new account in', async () => {
      const engine = createFakeEngine(signedOutWorld());
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="" />);
      fireEvent.click(await screen.findByRole('button', { name: 'Create an account' }));
      fireEvent.click(screen.getByRole('button', { name: 'I have a code' }));
      fireEvent.change(screen.getByLabelText('Code from the mail'), { target: { value: 'good-code' } });
      fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'secret' } });
      fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: 'secret' } });
      fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
      await waitFor(() => expect(engine.confirmSignUp).toHaveBeenCalledWith('good-code', 'secret'));
      await waitFor(() => expect(engine.signIn).toHaveBeenCalledWith('new@example.com', 'secret'));
      expect(await screen.findByRole('application', { name: /Floor plan of Floor f1/ })).toBeTruthy();
    });

    it('says in words when the code is refused or the two passwords differ', async () => {
      const engine = createFakeEngine(signedOutWorld());
      const clearHash = vi.fn();
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="#/signup?code=used-code" clearHash={clearHash} />);
      expect(((await screen.findByLabelText('Code from the mail')) as HTMLInputElement).value).toBe('used-code');
      expect(clearHash).toHaveBeenCalled();
      fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'long enough 1' } });
      fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: 'long enough 2' } });
      fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
      expect((await screen.findByRole('alert')).textContent).toBe('The two passwords differ. Type the same password twice.');
      expect(engine.confirmSignUp).not.toHaveBeenCalled();
      fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: 'long enough 1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('This code is wrong, used or expired. Check the mail, or sign up again for a new code.'));
      expect(engine.signIn).not.toHaveBeenCalled();
    });

    it('sets a new password from a reset link, then asks to sign in with it', async () => {
      const engine = createFakeEngine(signedOutWorld());
      const clearHash = vi.fn();
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="#/set-password?organization=o1&user=u7&code=good-code" clearHash={clearHash} />);
      fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'new password 1' } });
      fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: 'new password 1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
      expect((await screen.findByRole('status')).textContent).toBe('Your password is set. Sign in with it.');
      expect(engine.setPasswordWithCode).toHaveBeenCalledWith({ organizationId: 'o1', userId: 'u7', code: 'good-code' }, 'new password 1');
      expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
      expect(clearHash).toHaveBeenCalled();
    });

    it('opens a link over a signed-in session too, then shows the app again', async () => {
      const engine = createFakeEngine(signedInWorld());
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="#/set-password?organization=o1&user=u7&code=good-code" clearHash={vi.fn()} />);
      fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'new password 1' } });
      expect(screen.queryByRole('application')).toBeNull();
      fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: 'new password 1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
      expect(await screen.findByRole('application', { name: /Floor plan of Floor f1/ })).toBeTruthy();
      expect(engine.setPasswordWithCode).toHaveBeenCalledTimes(1);
    });

    it('picks up a link opened in a tab that already shows the app, and takes it out of the address bar', async () => {
      const engine = createFakeEngine(signedOutWorld());
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="" />);
      await screen.findByRole('heading', { name: 'Sign in' });
      act(() => {
        window.history.replaceState(null, '', '/#/signup?code=good-code');
        window.dispatchEvent(new HashChangeEvent('hashchange'));
      });
      expect(((await screen.findByLabelText('Code from the mail')) as HTMLInputElement).value).toBe('good-code');
      expect(window.location.hash).toBe('');
    });

    it('says so when a reset link is refused or cut short', async () => {
      const refused = createFakeEngine(signedOutWorld());
      render(<App client={refused.client} apiHost="http://127.0.0.1:9" hash="#/set-password?organization=o1&user=u7&code=old-code" clearHash={vi.fn()} />);
      fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'new password 1' } });
      fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: 'new password 1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
      expect((await screen.findByRole('alert')).textContent).toBe('This link is wrong, used or expired. Ask for a new one with “Forgot your password?”.');
      cleanup();
      const cut = createFakeEngine(signedOutWorld());
      render(<App client={cut.client} apiHost="http://127.0.0.1:9" hash="#/set-password?organization=o1&code=c" clearHash={vi.fn()} />);
      expect((await screen.findByRole('alert')).textContent).toMatch(/^This link is incomplete/);
      expect(screen.queryByRole('button', { name: 'Set password' })).toBeNull();
    });

    it('says so when single sign-on is not configured for the address', async () => {
      const engine = createFakeEngine(signedOutWorld());
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="" />);
      fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign in with single sign-on' }));
      expect((await screen.findByRole('alert')).textContent).toMatch(/Single sign-on is not set up/);
      expect(engine.authUri).toHaveBeenCalledWith('ada@example.com');
    });

    it('finishes an OpenID return with the id_token of the fragment and clears it', async () => {
      const engine = createFakeEngine(signedOutWorld());
      const clearHash = vi.fn();
      render(<App client={engine.client} apiHost="http://127.0.0.1:9" hash="#id_token=abc.def.ghi&state=1" clearHash={clearHash} />);
      await waitFor(() => expect(engine.signInWithIdToken).toHaveBeenCalledWith('abc.def.ghi'));
      expect(clearHash).toHaveBeenCalled();
      expect(engine.resume).not.toHaveBeenCalled();
    });
  });

  describe('idTokenFromHash', () => {
    it('reads only well-formed tokens', () => {
      expect(idTokenFromHash('#id_token=a.b.c')).toBe('a.b.c');
      expect(idTokenFromHash('#id_token=<x>')).toBeNull();
      expect(idTokenFromHash('')).toBeNull();
    });
  });
});

describe('Shell', () => {
  describe('choosers', () => {
    it('opens the default floor of the first building and lists floors in order', async () => {
      // the worker chose the default floor (session.floorId); the Shell draws it
      const { engine } = renderShell();
      expect(await screen.findByRole('application', { name: /Floor plan of Floor f1/ })).toBeTruthy();
      const floorSelect = screen.getByLabelText('Floor') as HTMLSelectElement;
      expect([...floorSelect.options].map((o) => o.textContent)).toEqual(['Floor f1 (default)', 'Floor f2']);
      expect(engine.open('floor')).toEqual([{ view: 'floor', floorId: 'f1', layers: expect.any(Array) }]);
      expect(engine.selectFloor).not.toHaveBeenCalled();
    });

    it('switches floors and re-subscribes the floor view', async () => {
      const { engine } = renderShell();
      await screen.findByRole('button', { name: /Desk d1/ });
      fireEvent.change(screen.getByLabelText('Floor'), { target: { value: 'f2' } });
      expect(engine.selectFloor).toHaveBeenCalledWith('f2');
      expect(await screen.findByRole('button', { name: /Desk upstairs/ })).toBeTruthy();
      expect(engine.open('floor')).toEqual([{ view: 'floor', floorId: 'f2', layers: expect.any(Array) }]);
    });

    it('loads the location chosen in the location chooser', async () => {
      const { engine } = renderShell();
      await screen.findByRole('application');
      fireEvent.change(screen.getByLabelText('Location'), { target: { value: 'l2' } });
      await waitFor(() => expect(engine.selectLocation).toHaveBeenCalledWith('l2'));
    });

    it('marks hidden floors, which only reach edit-role users', async () => {
      const engine = createFakeEngine(signedInWorld());
      engine.bucket('structure').entries.b1 = structureEntry(building('b1', ['f1', 'f2']), [floor('f1'), floor('f2', { hidden: true })], 'f1');
      renderShell(engine);
      await screen.findByRole('application');
      const floorSelect = screen.getByLabelText('Floor') as HTMLSelectElement;
      await waitFor(() => expect(floorSelect.options[1]?.textContent).toBe('Floor f2 (hidden)'));
    });

    it('shows the empty state when the location has no floors', async () => {
      const engine = createFakeEngine(signedInWorld());
      engine.bucket('structure').entries = {};
      engine.bucket('session').entries[SELF_KEY] = sessionView({ navigation: 'noFloors', floorId: null, buildingId: null });
      renderShell(engine);
      expect(await screen.findByText('This location has no floors to show.')).toBeTruthy();
    });

    it('says what is loading instead of claiming there is nothing, while navigation loads', async () => {
      const engine = createFakeEngine(signedInWorld());
      engine.bucket('session').entries[SELF_KEY] = sessionView({ navigation: 'locations', locationId: null, floorId: null, buildingId: null, locations: [] });
      renderShell(engine);
      expect(await screen.findByText('Loading locations…')).toBeTruthy();
      expect(screen.queryByText(/no locations/i)).toBeNull();
    });
  });

  describe('deep links', () => {
    it('opens the floor, layers and asset of the link', async () => {
      const { engine, location } = renderShell(undefined, '?location=l1&floor=f2&layers=desks,desk_usage&asset=d9');
      expect(await screen.findByRole('application', { name: /Floor plan of Floor f2/ })).toBeTruthy();
      expect(engine.open('floor')[0]).toEqual({ view: 'floor', floorId: 'f2', layers: ['desks', 'desk_usage'] });
      expect((screen.getByRole('checkbox', { name: 'Desks' }) as HTMLInputElement).checked).toBe(true);
      expect((screen.getByRole('checkbox', { name: 'Floor plan' }) as HTMLInputElement).checked).toBe(false);
      expect(await screen.findByRole('dialog', { name: 'Desk upstairs' })).toBeTruthy();
      expect(location.search).toBe('?location=l1&floor=f2&layers=desks,desk_usage&asset=d9');
    });

    it('writes a layer change into the URL', async () => {
      const { location } = renderShell();
      await screen.findByRole('application');
      fireEvent.click(screen.getByRole('checkbox', { name: 'CO₂' }));
      await waitFor(() => expect(location.search).toContain('layers=floorplan,info,room_reservation,desk_usage,co-workers,co2'));
    });
  });

  describe('connection banner', () => {
    it('stays hidden while connected', async () => {
      renderShell();
      const banner = await screen.findByTestId('connection-banner');
      expect(banner.hidden).toBe(true);
    });

    it('shows the state and the next retry, then clears when connected again', async () => {
      const { engine } = renderShell();
      await screen.findByTestId('connection-banner');
      act(() =>
        engine.emit('connection', {
          upserted: { [SELF_KEY]: connectionView({ state: 'unavailable', nextRetryAt: Date.now() + 10_000, attempts: 2, lastError: 'Problem connecting to server.' }) },
        }),
      );
      await waitFor(() => expect(screen.getByTestId('connection-banner').hidden).toBe(false));
      const text = screen.getByTestId('connection-banner').textContent!;
      expect(text).toMatch(/^Connection unavailable · next retry in 1\d s · attempt 2 · Problem connecting to server\.$/);
      act(() => engine.emit('connection', { upserted: { [SELF_KEY]: connectionView() } }));
      await waitFor(() => expect(screen.getByTestId('connection-banner').hidden).toBe(true));
    });

    it('shows offline and from-cache indicators', async () => {
      const { engine } = renderShell();
      await screen.findByTestId('connection-banner');
      act(() => engine.emit('connection', { upserted: { [SELF_KEY]: connectionView({ state: 'connecting', online: false, fromCache: true }) } }));
      await waitFor(() => expect(screen.getByTestId('connection-banner').textContent).toBe('Offline: no network'));
      expect(screen.getByTestId('connection-banner').dataset.state).toBe('offline');
      act(() => engine.emit('structure', { meta: { locationId: 'l1', fromCache: true } }));
      expect(await screen.findByTestId('from-cache')).toBeTruthy();
    });
  });

  describe('controls by role', () => {
    it('hides the report layer below the configured role and edit controls from regular users', async () => {
      const engine = createFakeEngine(signedInWorld());
      engine.bucket('session').entries[SELF_KEY] = sessionView({ config: { ...BASE_CONFIG, reportViewingRolesAtLeast: { location: 'edit', desk: 'edit', room: 'edit', environment: 'edit' } } });
      renderShell(engine);
      fireEvent.click(await screen.findByRole('button', { name: /Desk d1/ }));
      expect(screen.queryByRole('checkbox', { name: 'Report' })).toBeNull();
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).queryByRole('button', { name: 'Rename' })).toBeNull();
    });

    it('gives edit-role users the rename control', async () => {
      const engine = createFakeEngine(signedInWorld());
      engine.bucket('session').entries[SELF_KEY] = sessionView({ roles: ['edit', 'regular'] });
      // the worker decides the actions: the edit role may rename
      engine.bucket('asset:d1').entries[SELF_KEY] = detail(draw('d1'), { actions: { book: false, cancellable: [], vote: false, rename: true, closeTicket: false, publish: true } });
      renderShell(engine);
      fireEvent.click(await screen.findByRole('button', { name: /Desk d1/ }));
      const dialog = await screen.findByRole('dialog');
      fireEvent.change(await within(dialog).findByLabelText('Name'), { target: { value: 'Window desk' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
      await waitFor(() => expect(engine.updateAsset).toHaveBeenCalledWith('d1', { name: 'Window desk' }));
      expect(screen.getByRole('checkbox', { name: 'Report' })).toBeTruthy();
    });
  });
});
