// Failed actions in words a person understands: no "Failed to fetch", no raw
// "body/subtype must …" — an unreachable server says so, and a refused field
// is named the way the form names it. The engine's own refusals are already
// words and pass through.

import { NEEDS_SERVER, type ApiResult } from '../../shared/api.js';

export type Failure = Extract<ApiResult<unknown>, { ok: false }>;

export const SERVER_UNREACHABLE = 'The server could not be reached. Try again.';
export const SERVER_PROBLEM = 'The server had a problem. Try again in a moment.';

/** Wire field names as the forms call them. */
const FIELD_WORDS: Record<string, string> = {
  email: 'Email', password: 'Password', old_password: 'Current password', name: 'Name',
  first_name: 'First name', last_name: 'Last name', subtype: 'Category', label: 'Category',
  speech_bubble: 'Message', text: 'Message', subject: 'Subject', x: 'Place', y: 'Place',
  parent_id: 'Floor', floor_id: 'Floor', location: 'Location', room_id: 'Room', direction: 'Vote',
};

const BY_STATUS: Record<number, string> = {
  403: 'You are not allowed to do that.',
  404: 'It is no longer there. The view will catch up.',
  408: SERVER_UNREACHABLE,
  409: 'Someone changed it meanwhile. Try again.',
  413: 'That is too large to send.',
  429: 'Too many requests at once. Wait a moment and try again.',
};

function fieldWord(name: string): string {
  return FIELD_WORDS[name] ?? name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** A JSON-schema validator's complaint about one field, in words. */
function complaint(rule: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^must NOT have fewer than (\d+) characters?/i.exec(rule))) return Number(m[1]) <= 1 ? 'cannot be empty' : `needs at least ${m[1]} characters`;
  if ((m = /^must NOT have more than (\d+) characters?/i.exec(rule))) return `can have at most ${m[1]} characters`;
  if ((m = /^must be one of (.+)$/i.exec(rule))) return `must be one of ${m[1]}`;
  if ((m = /^must be equal to one of the allowed values/i.exec(rule))) return 'is not one of the choices';
  if (/^must be (>=|<=|>|<) /i.test(rule)) return 'is out of range';
  return 'is not valid';
}

/**
 * A validation message of the shape the usual JSON-schema validators give
 * ("body/email must match pattern …", "body must have required property 'name'"),
 * named by field; null when the message is of another kind.
 */
export function fieldMessage(message: string): string | null {
  const required = /^(?:body|querystring|params)\b.*must have required property '([^']+)'/.exec(message);
  if (required) return `${fieldWord(required[1]!)} is required.`;
  const m = /^(?:body|querystring|params)\/([A-Za-z_]\w*)(?:\/\S*)? (.+)$/.exec(message);
  if (!m) return null;
  return `${fieldWord(m[1]!)} ${complaint(m[2]!)}.`;
}

function bodyMessage(body: unknown): string | null {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') return (body as { message: string }).message;
  return null;
}

/** The words for a failed action. */
export function errorText(failure: Failure): string {
  // the worker refused to send it: the server cannot be reached now (nothing was tried, so no "Try again" yet)
  if (failure.code === 'serverUnreachable') return NEEDS_SERVER;
  if (failure.status === 0) return SERVER_UNREACHABLE;
  if (failure.status >= 500) return SERVER_PROBLEM;
  if (failure.status === 404) return BY_STATUS[404]!;
  const told = bodyMessage(failure.body) ?? failure.message;
  const field = told ? fieldMessage(told) : null;
  if (field) return field;
  // the engine's own refusals and the server's plain sentences are shown as they are
  if (told && !/^\d{3}\b/.test(told) && /^[A-Z]/.test(told)) return /[.!?]$/.test(told) ? told : `${told}.`;
  return BY_STATUS[failure.status] ?? (failure.status === 401 ? 'Your session has ended — sign in again.' : 'That did not work. Check what you entered and try again.');
}
