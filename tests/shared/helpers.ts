// Test helpers for the pure layer: a recording logger and fixed instants.
import { vi } from 'vitest';
import type { NormalizeContext } from '../../src/shared/normalize/primitives.js';

export function recordingContext(extra: Partial<NormalizeContext> = {}) {
  const warn = vi.fn<(message: string, ...details: unknown[]) => void>();
  const ctx: NormalizeContext = { logger: { warn }, ...extra };
  const messages = () => warn.mock.calls.map((call) => call[0]);
  return { ctx, warn, messages };
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
