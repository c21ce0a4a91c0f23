import { describe, expect, it } from 'vitest';
import { NEEDS_SERVER } from '../../src/shared/api.js';
import { errorText, fieldMessage, SERVER_PROBLEM, SERVER_UNREACHABLE } from '../../src/ui/lib/errorText.js';

const server = (status: number, message: string) => ({ ok: false as const, status, body: { statusCode: status, error: 'Bad Request', message }, message: `${status} Bad Request: ${message}` });

describe('errorText', () => {
  it('says the server could not be reached instead of "Failed to fetch"', () => {
    expect(errorText({ ok: false, status: 0, body: null, message: 'Failed to fetch' })).toBe(SERVER_UNREACHABLE);
    // a write the worker refused unsent because the server cannot be reached: said as the disabled actions say it
    expect(errorText({ ok: false, status: 0, body: null, message: 'anything', code: 'serverUnreachable' })).toBe(NEEDS_SERVER);
    expect(SERVER_UNREACHABLE).toBe('The server could not be reached. Try again.');
  });

  it('names the refused field in words, never as body/subtype', () => {
    expect(errorText(server(400, 'body/subtype must be one of it, cleaning, maintenance, facility'))).toBe('Category must be one of it, cleaning, maintenance, facility.');
    expect(errorText(server(400, 'body/email must match pattern "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"'))).toBe('Email is not valid.');
    expect(errorText(server(400, 'body/name must NOT have fewer than 1 characters'))).toBe('Name cannot be empty.');
    expect(errorText(server(400, 'body/speech_bubble must NOT have more than 500 characters'))).toBe('Message can have at most 500 characters.');
    expect(errorText(server(400, "body must have required property 'email'"))).toBe('Email is required.');
  });

  it("passes the engine's own words through and hides server internals", () => {
    expect(errorText({ ok: false, status: 400, body: { message: 'A name cannot be empty.' }, message: 'A name cannot be empty.' })).toBe('A name cannot be empty.');
    expect(errorText({ ok: false, status: 409, body: null, message: 'Room is taken' })).toBe('Room is taken.');
    expect(errorText(server(500, 'Internal Server Error'))).toBe(SERVER_PROBLEM);
    expect(errorText({ ok: false, status: 403, body: null, message: '403 Forbidden' })).toBe('You are not allowed to do that.');
  });

  it('leaves messages that are not about a field alone', () => {
    expect(fieldMessage('Only tickets and voices take votes')).toBeNull();
  });
});
