// Turns thrown failures into the typed ApiResult of src/shared/api.ts: Comlink
// keeps only message and name of a thrown error, so non-OK responses cross
// to the UI as data (status, parsed body, message), never as throws.

import { NEEDS_SERVER, type ApiResult } from '../../shared/api.js';
import { isHttpError } from '../rest/httpError.js';

export function failure(status: number, body: unknown, message: string): { ok: false; status: number; body: unknown; message: string } {
  return { ok: false, status, body, message };
}

/** A write refused before sending: the server cannot be reached now (typed, so the UI need not read the words). */
export function serverUnreachable(): { ok: false; status: number; body: unknown; message: string; code: 'serverUnreachable' } {
  return { ok: false, status: 0, body: null, message: NEEDS_SERVER, code: 'serverUnreachable' };
}

export async function toResult<T>(call: () => Promise<T>): Promise<ApiResult<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (isHttpError(error)) return failure(error.status, error.body, error.message);
    return failure(0, null, error instanceof Error ? error.message : String(error));
  }
}
