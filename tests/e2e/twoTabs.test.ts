// Two tabs of one user in real Chromium (issue 11 §6): both run their own
// worker on the same IndexedDB database and both save the location while
// the server changes it under them. Then the browser is closed and reopened
// with no network: the saved floor holds every change both tabs saw, none
// lost, none half-written (docs/reliability.md "More than one tab"). A
// sign-out in one tab then signs the other out too.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_WARNINGS } from '../../src/worker/storage/storagePort.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createApiProxy, type ApiProxy } from './apiProxy.js';
import { ARTIFACTS_DIR, buildViewer, launchPersistentChromium, serveViewer, type ViewerServer } from './harness.js';
import { shot, signIn } from './people.js';

let server: TestServer;
let proxy: ApiProxy;
let viewer: ViewerServer;
let profile: string;
let context: BrowserContext;

beforeAll(async () => {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  profile = mkdtempSync(join(tmpdir(), 'storey-two-tabs-'));
  server = await startTestServer();
  proxy = await createApiProxy(server.url);
  viewer = await serveViewer(await buildViewer(), proxy.url);
  context = await launchPersistentChromium(profile);
});

afterAll(async () => {
  await context?.close();
  await viewer?.close();
  await proxy?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const selected = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((el) => (el as HTMLSelectElement).value);
const drawn = (page: Page, id: string) => page.locator(`[data-asset-id="${id}"]`).count();

describe('two tabs of one user', () => {
  const made: string[] = [];
  let removed = '';

  it('saves what both tabs see to one database, and a reopen without network shows all of it', async () => {
    const a = context.pages()[0] ?? (await context.newPage());
    a.on('pageerror', (error) => console.error(`[tab A] ${error.message}`));
    await a.goto(`${viewer.url}/`);
    await signIn(a, server.accounts.regular);
    // the second tab opens signed in: the session is the one both share
    const b = await context.newPage();
    b.on('pageerror', (error) => console.error(`[tab B] ${error.message}`));
    await b.goto(`${viewer.url}/`);
    await b.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 20_000 });
    const [locationId, floorId] = [await selected(a, 'Location'), await selected(a, 'Floor')];
    expect([await selected(b, 'Location'), await selected(b, 'Floor')]).toEqual([locationId, floorId]);

    // the server changes the floor in bursts: both tabs save each burst, inside and across their write throttles
    const token = await server.signIn('edit');
    const base = `/organizations/${server.accounts.regular.organizationId}/locations/${locationId}/assets`;
    for (let burst = 0; burst < 4; burst++) {
      for (let i = 0; i < 4; i++) {
        const res = await server.api(base, { method: 'POST', token, json: { type: 'shape', subtype: 'desk', name: `Two-tab desk ${burst}.${i}`, parent_id: floorId, x: 2 + i * 2, y: 2 + burst * 2 } });
        expect(res.status).toBe(201);
        made.push(((await res.json()) as { id: string }).id);
      }
      await a.waitForTimeout(400 + burst * 300);
    }
    removed = made.shift()!;
    expect((await server.api(`${base}/${removed}`, { method: 'DELETE', token })).status).toBe(204);
    for (const page of [a, b]) {
      await expect.poll(async () => (await Promise.all(made.map((id) => drawn(page, id)))).every((n) => n > 0), { timeout: 20_000 }).toBe(true);
      await expect.poll(() => drawn(page, removed), { timeout: 20_000 }).toBe(0);
    }
    // both throttled writers save
    await a.waitForTimeout(2500);
    await shot(b, '30-two-tabs-second');

    await context.close();
    await viewer.stop();
    await proxy.stop();
    context = await launchPersistentChromium(profile);
    await context.setOffline(true);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${viewer.url}/`);
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('from-cache').isVisible()).toBe(true);
    expect(await selected(page, 'Floor')).toBe(floorId);
    await expect.poll(async () => (await Promise.all(made.map((id) => drawn(page, id)))).every((n) => n > 0), { timeout: 15_000 }).toBe(true);
    expect(await drawn(page, removed)).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain(STORAGE_WARNINGS.UNREADABLE_DROPPED);
    await shot(page, '31-two-tabs-offline-reopen');
  });

  it('signs the user out in every tab when they sign out in one', async () => {
    await viewer.start();
    await proxy.start();
    await context.setOffline(false);
    const a = context.pages()[0]!;
    await a.goto(`${viewer.url}/`);
    // the browser reopened on the saved session: live again, signed in
    await a.getByTestId('from-cache').waitFor({ state: 'hidden', timeout: 30_000 });
    const b = await context.newPage();
    await b.goto(`${viewer.url}/`);
    await b.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 20_000 });
    await a.getByRole('button', { name: 'Sign out' }).click();
    await a.getByRole('form', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    // the other tab did not wait for the server to refuse its token: it left at once
    const form = b.getByRole('form', { name: 'Sign in' });
    await form.waitFor({ timeout: 5000 });
    expect(await b.getByRole('application', { name: /Floor plan of/ }).count()).toBe(0);
    expect(await form.getByRole('alert').count()).toBe(0);
    await shot(b, '32-two-tabs-signed-out-in-the-other');
    // and stays out on a reload: nothing of the session is left to resume
    await b.reload();
    await b.getByRole('form', { name: 'Sign in' }).waitFor({ timeout: 20_000 });
    expect(await b.locator('.painted').count()).toBe(0);
  });
});
