// Finishing account flows from the mail, as a person does in real Chromium
// against the reference server: signing up and typing the code of the mail
// the server sent (a wrong code first: the screen says so in words), which
// signs the new account in; and a forgotten password set again from the
// reset link, opened as the mail gives it, then used to sign in; and an
// invitation accepted from its link.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { DEMO_DOMAIN } from '../../server/seed/demo.js';
import type { Mail } from '../../server/mail.js';
import { startE2eRig, type E2eRig } from './rig.js';
import { shot } from './people.js';

let rig: E2eRig;
let server: TestServer;
async function newPage(): Promise<Page> {
  return (await rig.openPage({ viewport: { width: 1200, height: 800 } })).page;
}

/** The latest mail of `purpose` to `to`, as the server's outbox captured it. */
async function mailTo(to: string, purpose: Mail['purpose']): Promise<Mail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = server.server.outbox.latest(to);
    if (mail?.purpose === purpose) return mail;
    if (Date.now() > deadline) throw new Error(`no ${purpose} mail to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The link of a mail as the person's mail program shows it, on the viewer's origin (the deployment's --public-url). */
function linkIn(mail: Mail): string {
  const url = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
  return `${rig.viewer.url}/${url.hash}`;
}

beforeAll(async () => {
  rig = await startE2eRig({ server: { simulate: false } });
  ({ server } = rig);
});

afterAll(() => rig?.close());

describe('account mails in Chromium', () => {
  it('signs up, types the mailed code (a wrong one first) and lands on the floor signed in', async () => {
    const page = await newPage();
    const email = `newcomer.e2e@${DEMO_DOMAIN}`;
    await page.goto(rig.viewer.url);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Email').click();
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Finish signing up' }).waitFor();
    expect(await page.getByRole('status').textContent()).toMatch(/^Check your inbox: we sent a code/);
    const mail = await mailTo(email, 'signup');
    expect(server.server.store.userByEmail(email)).toBeUndefined();

    // a mistyped code: refused in words, nothing created
    await page.getByLabel('Code from the mail').click();
    await page.keyboard.type(`${mail.code.slice(0, -2)}xx`);
    await page.keyboard.press('Tab');
    await page.keyboard.type('a fresh passphrase');
    await page.keyboard.press('Tab');
    await page.keyboard.type('a fresh passphrase');
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('This code is wrong, used or expired. Check the mail, or sign up again for a new code.');
    await shot(page, 'accounts-01-signup-wrong-code');
    expect(server.server.store.userByEmail(email)).toBeUndefined();

    // the code as the mail has it
    await page.getByLabel('Code from the mail').click({ clickCount: 3 });
    await page.keyboard.type(mail.code);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 20_000 });
    await page.locator('[data-asset-id][role="button"]').first().waitFor();
    await shot(page, 'accounts-02-signed-up-floor');
    const user = server.server.store.userByEmail(email)!;
    expect(user.organization_id).toBe(mail.organization_id);
    expect(user.permissions).toEqual(['USER_UPDATE_SELF']);
  });

  it('sets a forgotten password from the reset link and signs in with it', async () => {
    const page = await newPage();
    const account = server.accounts.service;
    await page.goto(rig.viewer.url);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').click();
    await page.keyboard.type(account.email);
    await page.keyboard.press('Enter');
    await page.getByText(/reset the password is on its way/).waitFor();
    const mail = await mailTo(account.email, 'recover');

    // the mail program opens the link in a new tab
    const tab = await page.context().newPage();
    await tab.goto(linkIn(mail));
    await tab.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    // the code leaves the address bar (and so the history) at once
    expect(tab.url()).not.toContain(mail.code);
    await tab.getByLabel('New password', { exact: true }).click();
    await tab.keyboard.type('my new passphrase');
    await tab.keyboard.press('Tab');
    await tab.keyboard.type('my new passphrase!');
    await tab.keyboard.press('Enter');
    expect(await tab.getByRole('alert').textContent()).toBe('The two passwords differ. Type the same password twice.');
    await shot(tab, 'accounts-03-reset-passwords-differ');
    await tab.getByLabel('Repeat the password').click({ clickCount: 3 });
    await tab.keyboard.type('my new passphrase');
    await tab.getByRole('button', { name: 'Set password' }).click();
    await tab.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await tab.getByRole('status').textContent()).toBe('Your password is set. Sign in with it.');
    await shot(tab, 'accounts-04-password-set');

    const old = await server.api('/login', { method: 'POST', form: { email: account.email, password: account.password } });
    expect(old.status).toBe(401);
    await tab.getByLabel('Email').click();
    await tab.keyboard.type(account.email);
    await tab.keyboard.press('Tab');
    await tab.keyboard.type('my new passphrase');
    await tab.keyboard.press('Enter');
    await tab.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 20_000 });

    // the link is single use: opened again, it is refused in words
    const again = await newPage();
    await again.goto(linkIn(mail));
    await again.getByLabel('New password', { exact: true }).fill('another passphrase');
    await again.getByLabel('Repeat the password').fill('another passphrase');
    await again.getByRole('button', { name: 'Set password' }).click();
    expect(await again.getByRole('alert').textContent()).toBe('This link is wrong, used or expired. Ask for a new one with “Forgot your password?”.');
    await shot(again, 'accounts-05-reset-link-used');
  });

  it('accepts an invitation to an address of no organization’s domain from its link: the account is made then, in the inviting organization', async () => {
    // an edit user invites a contractor (docs/security.md "Addresses that have an account"): nothing is made yet
    const edit = await server.signIn('edit');
    const email = 'contractor.e2e@freemail.test';
    const invited = await server.api(`/organizations/${server.accounts.edit.organizationId}/invite_user`, {
      method: 'POST', token: edit, json: { email, first_name: 'Casey', permissions: ['ASSET_UPDATE_SERVICE_TICKET', 'USER_UPDATE_SELF'] },
    });
    expect(invited.status).toBe(202);
    expect(server.server.store.userByEmail(email)).toBeUndefined();
    const mail = await mailTo(email, 'invite');

    // the mail program opens the link: the code is filled in, the person chooses a password
    const page = await newPage();
    await page.goto(linkIn(mail));
    await page.getByRole('heading', { name: 'Finish signing up' }).waitFor();
    expect(page.url()).not.toContain(mail.code);
    expect(await page.getByLabel('Code from the mail').inputValue()).toBe(mail.code);
    await page.getByLabel('New password', { exact: true }).click();
    await page.keyboard.type('contractor passphrase');
    await page.keyboard.press('Tab');
    await page.keyboard.type('contractor passphrase');
    await shot(page, 'accounts-06-invitation-link');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 20_000 });
    await page.locator('[data-asset-id][role="button"]').first().waitFor();
    await shot(page, 'accounts-07-invited-signed-in');
    const user = server.server.store.userByEmail(email)!;
    expect(user).toMatchObject({ organization_id: server.accounts.edit.organizationId, first_name: 'Casey', permissions: ['ASSET_UPDATE_SERVICE_TICKET', 'USER_UPDATE_SELF'] });
  });
});
