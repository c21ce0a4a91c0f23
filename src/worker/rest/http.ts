// The one place the engine talks HTTP: base `{host}/v{version}`, the bearer
// header when a token exists, JSON / form / blob bodies, and non-OK answers
// thrown as HttpError. The token only ever travels in the header.

import { stringifyForm } from '../../shared/query.js';
import { apiBase, DEFAULT_API_VERSION } from '../../shared/rest.js';
import { STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER, type StreamPosition } from '../../shared/protocol.js';
import type { FetchFn } from '../ports.js';
import { HttpError } from './httpError.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RequestBody =
  | { json: unknown }
  | { form: Record<string, string> }
  | { blob: Blob | ArrayBuffer | Uint8Array; contentType?: string };

export interface RequestOptions {
  body?: RequestBody;
  /** API version of this call; default the client's */
  version?: number;
  /** send cookies (GET /v2/settings) */
  credentials?: boolean;
  /** aborts the request (the session's step timeouts) */
  signal?: AbortSignal;
}

export interface HttpResult<T> {
  status: number;
  data: T;
  headers: Headers;
  /** stream position of an initial load (x-stream-id / x-stream-sequence), or null */
  position: StreamPosition | null;
}

export interface HttpOptions {
  host: string;
  version?: number;
  fetch: FetchFn;
  token(): string | null;
}

export interface Http {
  readonly baseUrl: string;
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<HttpResult<T>>;
}

export function createHttp(options: HttpOptions): Http {
  const version = options.version ?? DEFAULT_API_VERSION;
  const baseUrl = apiBase(options.host, version);

  async function request<T>(method: HttpMethod, path: string, req: RequestOptions = {}): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = options.token();
    if (token) headers.authorization = `Bearer ${token}`;
    const init: RequestInit = { method, headers };
    if (req.credentials) init.credentials = 'include';
    if (req.signal) init.signal = req.signal;
    const body = req.body;
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body.json);
    } else if (body && 'form' in body) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      init.body = stringifyForm(body.form);
    } else if (body && 'blob' in body) {
      const type = body.contentType ?? (body.blob instanceof Blob ? body.blob.type : '') ?? '';
      headers['content-type'] = type || 'application/octet-stream';
      init.body = body.blob as BodyInit;
    }
    const url = `${req.version === undefined ? baseUrl : apiBase(options.host, req.version)}${path}`;
    const response = await options.fetch(url, init);
    const data = await readBody(response);
    if (!response.ok) {
      const headerRecord: Record<string, string> = {};
      response.headers.forEach((value, key) => { headerRecord[key] = value; });
      throw new HttpError({ status: response.status, statusText: response.statusText, path, headers: headerRecord }, data);
    }
    return { status: response.status, data: data as T, headers: response.headers, position: readPosition(response.headers) };
  }

  return { baseUrl, request };
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try { return JSON.parse(text); } catch { return text; }
  }
  return text;
}

/** Position of the scope's stream a response contains, when both headers are present and sane. */
export function readPosition(headers: Headers): StreamPosition | null {
  const id = headers.get(STREAM_ID_HEADER);
  const seq = headers.get(STREAM_SEQUENCE_HEADER);
  if (!id || seq === null || !/^\d+$/.test(seq.trim())) return null;
  return { stream_id: id, stream_sequence: Number(seq) };
}
