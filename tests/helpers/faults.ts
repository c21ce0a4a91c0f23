// Fault tools of the reliability scenarios (issue 11): a fetch and a live
// transport wrapped around the real ones, so a test can make one request
// hang, answer a wrong status or body, strip headers, or hold a transport's
// connect and subscribe, and inject raw payloads into the real decode path.

import type { StreamScope } from '../../src/shared/protocol.js';
import type { Settings } from '../../src/shared/types.js';
import type { Transport, TransportContext, TransportFactory } from '../../src/worker/ports.js';

export type FetchAction =
  /** never answers; rejects only when the caller aborts (the engine's step timeout) */
  | { kind: 'hang' }
  /** answers this status and body instead of asking the server */
  | { kind: 'answer'; status: number; body: string; contentType?: string; headers?: Record<string, string> }
  /** asks the server, then drops the stream position headers */
  | { kind: 'stripPosition' }
  /** asks the server, then replaces the JSON body (keeps status and headers) */
  | { kind: 'rewrite'; body: (json: unknown) => unknown }
  /** a network failure */
  | { kind: 'fail' };

export interface FetchFault {
  method?: string;
  /** matched against the URL's path (without the query) */
  path: RegExp;
  /** how many matching requests it hits; default once */
  times?: number;
  action: FetchAction;
}

export interface FaultyFetch {
  fetch: typeof fetch;
  /** adds a fault; returns how many requests it has hit so far */
  add(fault: FetchFault): () => number;
  clear(): void;
  /** requests still hanging (each must end when its caller aborts) */
  hanging(): number;
  /** `METHOD path` of every request, in order */
  log: string[];
}

export function createFaultyFetch(base: typeof fetch = globalThis.fetch): FaultyFetch {
  const faults: Array<FetchFault & { hits: number }> = [];
  const log: string[] = [];
  let hanging = 0;

  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const method = (init?.method ?? 'GET').toUpperCase();
    log.push(`${method} ${url.pathname}`);
    const fault = faults.find((f) => (!f.method || f.method === method) && f.path.test(url.pathname) && f.hits < (f.times ?? 1));
    if (!fault) return base(input, init);
    fault.hits += 1;
    const action = fault.action;
    switch (action.kind) {
      case 'hang':
        hanging += 1;
        return new Promise<Response>((_, reject) => {
          const signal = init?.signal;
          const abort = () => { hanging -= 1; reject(signal?.reason ?? new DOMException('Aborted', 'AbortError')); };
          if (signal?.aborted) abort(); else signal?.addEventListener('abort', abort, { once: true });
        });
      case 'answer':
        return new Response(action.body, { status: action.status, headers: { 'content-type': action.contentType ?? 'application/json', ...action.headers } });
      case 'fail':
        throw new TypeError('fetch failed');
      case 'stripPosition': {
        const real = await base(input, init);
        const headers = new Headers(real.headers);
        headers.delete('x-stream-id');
        headers.delete('x-stream-sequence');
        return new Response(await real.text(), { status: real.status, headers });
      }
      case 'rewrite': {
        const real = await base(input, init);
        const body = JSON.stringify(action.body(await real.json()));
        return new Response(body, { status: real.status, headers: real.headers });
      }
    }
  }) as typeof fetch;

  return {
    fetch: fetchFn,
    add(fault) {
      const entry = { ...fault, hits: 0 };
      faults.push(entry);
      return () => entry.hits;
    },
    clear() { faults.length = 0; },
    hanging: () => hanging,
    log,
  };
}

export interface FaultyTransports {
  factory: TransportFactory;
  /** the next `n` connects never finish (until the transport is closed) */
  hangConnects(n: number): void;
  /** holds every connect until release() */
  holdConnects(): { release(): void };
  /** the next `n` subscribes never finish (until unsubscribed or closed) */
  hangSubscribes(n: number): void;
  /** a raw payload into the current transport's message listeners, as if the service sent it */
  inject(scope: StreamScope, payload: unknown): void;
  /** the current transport reports a loss */
  cut(): void;
  /** every scope subscribed on every transport, in order, with the user the transport was made for */
  subscribed: Array<{ userId: string; scope: StreamScope }>;
  /** transports made so far */
  made(): number;
  /** messages the real transports delivered to the engine so far */
  received(): number;
}

interface Wrapped extends Transport {
  emitMessage(scope: StreamScope, payload: unknown): void;
  emitState(state: string): void;
}

export function createFaultyTransports(real: TransportFactory): FaultyTransports {
  let current: Wrapped | null = null;
  let hangConnects = 0;
  let hangSubscribes = 0;
  let held: Array<() => void> | null = null;
  let made = 0;
  let received = 0;
  const subscribed: FaultyTransports['subscribed'] = [];

  const factory: TransportFactory = (settings: Settings, context: TransportContext) => {
    const inner = real(settings, context);
    made += 1;
    const messageListeners = new Set<(scope: StreamScope, payload: string) => void>();
    const stateListeners = new Set<(state: string) => void>();
    let closed = false;
    const closers = new Set<() => void>();
    const never = () => new Promise<never>((_, reject) => { closers.add(() => reject(new Error('closed while held'))); });
    const wrapped: Wrapped = {
      name: inner.name,
      async connect() {
        if (hangConnects > 0) { hangConnects -= 1; return never(); }
        if (held) await new Promise<void>((resolve) => held!.push(resolve));
        if (closed) throw new Error('closed while held');
        return inner.connect();
      },
      async disconnect() {
        closed = true;
        for (const close of closers) close();
        closers.clear();
        await inner.disconnect();
      },
      async subscribe(scope) {
        subscribed.push({ userId: settings.user.id, scope });
        if (hangSubscribes > 0) { hangSubscribes -= 1; return never(); }
        return inner.subscribe(scope);
      },
      unsubscribe: (scope) => inner.unsubscribe(scope),
      onMessage(listener) {
        messageListeners.add(listener);
        const off = inner.onMessage((scope, payload) => { received += 1; listener(scope, payload); });
        return () => { messageListeners.delete(listener); off(); };
      },
      onStateChange(listener) {
        stateListeners.add(listener);
        const off = inner.onStateChange(listener);
        return () => { stateListeners.delete(listener); off(); };
      },
      emitMessage(scope, payload) { for (const l of messageListeners) l(scope, payload as string); },
      emitState(state) { for (const l of stateListeners) l(state); },
    };
    current = wrapped;
    return wrapped;
  };

  return {
    factory,
    hangConnects(n) { hangConnects = n; },
    holdConnects() {
      held = [];
      return { release() { const go = held ?? []; held = null; for (const f of go) f(); } };
    },
    hangSubscribes(n) { hangSubscribes = n; },
    inject(scope, payload) { current?.emitMessage(scope, payload); },
    cut() { current?.emitState('disconnected'); },
    subscribed,
    made: () => made,
    received: () => received,
  };
}
