// What a person does in the e2e tests, written once: sign in through the form,
// find where an asset is drawn on screen, click or tap it there, and look.

import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { TestAccount, TestServer } from '../helpers/server.js';
import { ARTIFACTS_DIR } from './harness.js';

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`) });
}

/** Signs in through the form with the mouse (or a tap, on a touch page) and waits for the floor. */
export async function signIn(page: Page, account: TestAccount, how: 'mouse' | 'touch' = 'mouse'): Promise<void> {
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  const button = page.getByRole('button', { name: 'Sign in', exact: true });
  if (how === 'touch') await button.tap();
  else await button.click();
  await page.getByRole('application', { name: /Floor plan of/ }).waitFor();
  await page.locator('[data-asset-id][role="button"]').first().waitFor();
}

/**
 * Opens the app at `viewerUrl`, signs in through the form with the mouse and waits until the app's shell is in the
 * service worker's cache, so the page reloads or reopens with no network: the location and floor it shows.
 */
export async function signInForOffline(page: Page, viewerUrl: string, account: TestAccount): Promise<{ locationId: string; floorId: string }> {
  await page.goto(`${viewerUrl}/`);
  await signIn(page, account);
  await page.waitForURL((url) => url.searchParams.has('floor'));
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  const url = new URL(page.url());
  return { locationId: url.searchParams.get('location')!, floorId: url.searchParams.get('floor')! };
}

/** How many times the asset is drawn on the map (0 or 1). */
export function drawnCount(page: Page, id: string): Promise<number> {
  return page.locator(`g.asset[data-asset-id="${id}"]`).count();
}

/**
 * An open ticket or voice, valid for a day, posted on a floor through the API as someone on another device
 * reports it (facility staff unless `token` is another's): the server's answer.
 */
export async function postNote(
  server: TestServer,
  note: { locationId: string; floorId: string; type: 'ticket' | 'voice'; label: string; text: string; x: number; y: number },
  token?: string,
): Promise<Response> {
  const { locationId, floorId, type, label, text, x, y } = note;
  const now = Date.now();
  return server.api(`/organizations/${server.accounts.regular.organizationId}/locations/${locationId}/assets`, {
    method: 'POST', token: token ?? await server.signIn('edit'),
    json: {
      type, name: text, subtype: label, parent_id: floorId, x, y, speech_bubble: text,
      value: { text, label, status: 'open', time: now, valid_for: 86_400_000, valid_to: now + 86_400_000 },
    },
  });
}

/**
 * The screen point where the first asset matching `selector` is what a
 * person would hit: its box centre, with nothing (a label, a legend, another
 * asset) drawn over it there. Null when none is hittable.
 */
export async function hitPoint(page: Page, selector: string): Promise<{ id: string; x: number; y: number } | null> {
  return page.evaluate((sel) => {
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest('[data-asset-id]') === el) return { id: el.getAttribute('data-asset-id')!, x, y };
    }
    return null;
  }, selector);
}

/**
 * Waits until an asset matching `selector` can be hit (people walk, move
 * between floors and into privacy zones, so one may be out of reach a moment).
 */
export async function waitForHitPoint(page: Page, selector: string, timeoutMs = 15_000): Promise<{ id: string; x: number; y: number } | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const at = await hitPoint(page, selector);
    if (at || Date.now() > until) return at;
    await page.waitForTimeout(250);
  }
}

/** "Show" on a co-worker's row of the People tab, by mouse or by a tap: the map goes to them. */
export async function showCoWorker(page: Page, name: string, how: 'mouse' | 'touch' = 'mouse'): Promise<void> {
  const press = (target: Locator) => (how === 'touch' ? target.tap() : target.click());
  await press(page.getByRole('tab', { name: 'People' }));
  await press(page.getByRole('listitem').filter({ hasText: name }).getByRole('button', { name: 'Show' }));
}

/** The open popup, named by the asset's name. */
export function popup(page: Page): Locator {
  return page.getByTestId('asset-popup');
}

/**
 * The map's world transform as numbers, once the map has settled: during a
 * gesture the svg is moved on the compositor and the world group gets the
 * gesture's viewport when it settles (src/ui/lib/camera.ts).
 */
export async function worldTransform(page: Page): Promise<{ x: number; y: number; k: number }> {
  await page.waitForFunction(() => document.querySelector<SVGSVGElement>('svg.floor-svg')?.style.transform === '');
  const t = (await page.locator('g.world').getAttribute('transform')) ?? '';
  const m = /translate\(([-\d.e]+) ([-\d.e]+)\) scale\(([-\d.e]+)\)/.exec(t);
  if (!m) throw new Error(`unexpected transform ${t}`);
  return { x: Number(m[1]), y: Number(m[2]), k: Number(m[3]) };
}

/**
 * A day key ("2026-11-23") in the page's own words ("Nov 23" in a US English browser, the year
 * added for another year's): the short month and day the popups write (src/ui/lib/timeFormat.ts), from the browser's Intl.
 */
export function dayInWords(page: Page, day: string): Promise<string> {
  return page.evaluate((key) => {
    const [y, m, d] = key.split('-').map(Number);
    // with its year only when it is not this year's (a day replayed in the first days of January)
    const year = y === new Date().getFullYear() ? {} : { year: 'numeric' as const };
    return new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC', ...year }).format(Date.UTC(y!, m! - 1, d!, 12));
  }, day);
}

/** A label a person sees on the map: the asset it names, its words, its font size and its box on screen. */
export interface ShownLabel { id: string; text: string; fontSize: number; left: number; right: number; top: number; bottom: number }

/** The labels a person sees on the map (not hidden by the label layout), with their boxes on screen. */
export function shownLabels(page: Page): Promise<ShownLabel[]> {
  return page.evaluate(() => [...document.querySelectorAll<SVGTextElement>('svg.floor-svg text[data-label-for]')]
    .filter((t) => getComputedStyle(t).display !== 'none')
    .map((t) => {
      const b = t.getBoundingClientRect();
      return { id: t.getAttribute('data-label-for')!, text: t.textContent ?? '', fontSize: Number(t.getAttribute('font-size')), left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    })
    .filter((l) => l.right > l.left));
}

/** Pairs of shown labels whose boxes overlap on screen by more than `slack` px (their glyph boxes, not their ink). */
export function overlappingLabels(labels: readonly ShownLabel[], slack = 0): string[] {
  const out: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      const [a, b] = [labels[i]!, labels[j]!];
      if (a.left < b.right - slack && b.left < a.right - slack && a.top < b.bottom - slack && b.top < a.bottom - slack) out.push(`${a.text} × ${b.text}`);
    }
  }
  return out;
}
