// The error a non-OK response becomes (spec §7, §8: "thrown to the caller as
// the response"). It carries status, parsed body and headers, so the engine can
// turn it into an ApiResult across Comlink, which would keep only the message.

export interface ResponseInfo {
  status: number;
  statusText: string;
  /** path relative to the API base; never contains the token */
  path: string;
  headers: Record<string, string>;
}

export class HttpError extends Error {
  readonly status: number;
  readonly statusText: string;
  /** parsed JSON when the body is JSON, else its text ('' when empty) */
  readonly body: unknown;
  readonly response: ResponseInfo;

  constructor(response: ResponseInfo, body: unknown) {
    super(`${response.status} ${response.statusText || bodyError(body) || 'HTTP error'}${bodyMessage(body)}`);
    this.name = 'HttpError';
    this.status = response.status;
    this.statusText = response.statusText;
    this.body = body;
    this.response = response;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

/** 4xx answers other than timeouts and rate limits: retrying the same request will not help. */
export function isClientError(error: unknown): boolean {
  return error instanceof HttpError && error.status >= 400 && error.status < 500
    && error.status !== 408 && error.status !== 429;
}

function bodyError(body: unknown): string {
  const error = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  return typeof error === 'string' ? error : '';
}

function bodyMessage(body: unknown): string {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
    return `: ${(body as { message: string }).message}`;
  }
  if (typeof body === 'string' && body.length > 0 && body.length < 200) return `: ${body}`;
  return '';
}
