// What the security tests share: a fingerprint of everything the reference
// server stores (so a refusal can be shown to have changed nothing), raw
// requests an attacker would craft, and polling without fixed sleeps.

import type { TestServer } from '../../helpers/server.js';

/** Every stored record and credential, as one string; equal before and after means nothing changed. */
export function storeFingerprint(t: TestServer): string {
  const s = t.server.store;
  return JSON.stringify({
    organizations: [...s.organizations.values()],
    locations: [...s.locations.values()],
    assets: [...s.assets.values()],
    sensors: [...s.sensors.values()],
    history: [...s.history.entries()].map(([id, rows]) => [id, rows.length]),
    users: [...s.users.values()],
    credentials: [...s.credentials.entries()],
    externalObjects: [...s.externalObjects.values()],
    notifications: [...s.notifications.values()],
    locationTags: [...s.locationTags.values()],
    bookings: [...s.bookings.values()],
    files: [...s.files.keys()],
  });
}

/** A request with a body sent exactly as given (JSON.stringify cannot write `1e999`). */
export function rawRequest(t: TestServer, path: string, init: { method: string; token?: string; body: string; type?: string }): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': init.type ?? 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  return fetch(`${t.baseUrl}${path}`, { method: init.method, headers, body: init.body });
}

/** The JSON text of `{"a":{"a":…{}}}`, `depth` objects deep (JSON.stringify overflows the stack long before 10,000). */
export function nestedText(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
}

/** `{"a":{"a":…{}}}` nested `depth` objects deep. */
export function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i += 1) value = { a: value };
  return value;
}

export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== undefined && value !== null) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${String(last)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function messageOf(res: Response): Promise<string> {
  return ((await res.json()) as { message: string }).message;
}
