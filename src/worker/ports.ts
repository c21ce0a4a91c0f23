// The engine's side effects, injected so the core runs in Node under vitest
// (DESIGN §2). The browser worker passes real ones; tests pass fakes or the
// reference server on 127.0.0.1.

import type { Collection, AnyChangeKind, StreamScope } from '../shared/protocol.js';
import type { Id, Settings } from '../shared/types.js';

export type TimerHandle = unknown;

/** Raw time. Rules read time through the corrected clock (see timeSync); the real one is systemClock.ts. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}
// the real clock is its own adapter file, the one place the lint lets read the
// wall clock; offered here too, beside its port, for code that wires an engine
export { systemClock } from './systemClock.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

export type FetchFn = typeof fetch;

/** One live transport (Pusher or MQTT); payloads are base64 text. */
export interface Transport {
  readonly name: 'pusher' | 'mqtt';
  /** resolves once connected; rejects on failure */
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  subscribe(scope: StreamScope): Promise<void>;
  unsubscribe(scope: StreamScope): Promise<void>;
  onMessage(listener: (scope: StreamScope, payload: string) => void): () => void;
  /** the transport's own state words; 'disconnected' or 'error' after a loss */
  onStateChange(listener: (state: string) => void): () => void;
}

export interface TransportContext {
  /** {host}/v{version} */
  baseUrl: string;
  token: string;
  fetch: FetchFn;
  logger: Logger;
}

export type TransportFactory = (settings: Settings, context: TransportContext) => Transport;

/**
 * Engine-local collections: facts the server's records do not carry, written
 * through the same batch applier (the viewer's own votes with their tally).
 */
export type LocalCollection = 'votes';

/** A change as the sync layer (or an action's answer) hands it to the store: wire JSON, not normalized yet. */
export interface SinkChange {
  collection: Collection | LocalCollection;
  kind: AnyChangeKind;
  id?: Id;
  data?: unknown;
  /** kind 'initial': the whole collection within the scope */
  items?: unknown[];
  /**
   * the server's answer to this client's own create call, applied as 'modified': the live 'created' of
   * the same record that follows it is the same record, not a duplicate id (spec §5)
   */
  ownCreate?: true;
}

export interface ChangeBatch {
  scope: StreamScope;
  changes: SinkChange[];
}

/** Where the sync layer delivers validated, ordered changes. */
export interface ChangeSink {
  apply(batch: ChangeBatch): void;
}
