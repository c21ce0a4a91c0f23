// Pusher transport (spec §7, docs/protocol.md §5): pusher-js with private
// channels authorised by POST /pusher/auth with the bearer token. The only file
// that imports pusher-js, lazily: its Node build in Node (tests), its worker
// build in the browser worker (the web build touches window and document).

import { stringifyForm } from '../../shared/query.js';
import type { ChannelAuthorizationCallback, Options } from 'pusher-js';
import { pusherChannel, PUSHER_EVENT, type StreamScope } from '../../shared/protocol.js';
import { restPaths } from '../../shared/rest.js';
import type { PusherConfig } from '../../shared/types.js';
import type { FetchFn, Logger, Transport } from '../ports.js';
import { PUSHER_CONFIG_MESSAGE, SubscriptionCancelledError, TransportConfigError } from './transportError.js';

/** The slice of pusher-js this adapter uses (its own types misbehave under ESM interop). */
interface PusherChannelLike {
  readonly subscribed: boolean;
  bind(event: string, callback: (data: unknown) => void): unknown;
  unbind_all(): unknown;
}
interface PusherLike {
  connection: {
    state: string;
    bind(event: 'state_change', callback: (change: { previous: string; current: string }) => void): unknown;
    bind(event: string, callback: (data: unknown) => void): unknown;
    unbind_all(): unknown;
  };
  subscribe(channel: string): PusherChannelLike;
  unsubscribe(channel: string): void;
  disconnect(): void;
}
type PusherConstructor = new (key: string, options: Options) => PusherLike;

export interface PusherTransportOptions {
  config: PusherConfig | undefined;
  /** {host}/v{version} */
  baseUrl: string;
  token: string;
  fetch: FetchFn;
  logger: Logger;
  /** extra params sent to /pusher/auth with socket_id and channel_name */
  authParams?: Record<string, string>;
  /** tests may inject a constructor; default loads pusher-js */
  loadPusher?: () => Promise<PusherConstructor>;
}

async function loadPusherJs(): Promise<PusherConstructor> {
  const isNode = typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';
  // CJS interop: the constructor is the module, its default, or its default's default
  type PusherModule = PusherConstructor & { default?: PusherConstructor & { default?: PusherConstructor } };
  const mod = (isNode ? await import('pusher-js') : await import('pusher-js/worker')) as unknown as PusherModule;
  return mod.default?.default ?? mod.default ?? mod;
}

const LOSS_STATES = new Set(['connecting', 'unavailable', 'failed', 'disconnected']);

export function createPusherTransport(options: PusherTransportOptions): Transport {
  const config = options.config;
  if (!config || typeof config.app_key !== 'string' || !config.app_key || typeof config.cluster !== 'string' || !config.cluster) {
    throw new TransportConfigError(PUSHER_CONFIG_MESSAGE);
  }
  const { logger } = options;
  const messageListeners = new Set<(scope: StreamScope, payload: string) => void>();
  const stateListeners = new Set<(state: string) => void>();
  /** channel → its subscription, with the way to settle it if it is dropped before the service answers */
  const subscriptions = new Map<string, { done: Promise<void>; cancel(): void }>();
  let pusher: PusherLike | null = null;
  let wasConnected = false;
  let lost = false;

  const emitState = (state: string) => { for (const l of stateListeners) l(state); };

  function authorize(params: { socketId: string; channelName: string }, callback: ChannelAuthorizationCallback) {
    const body = stringifyForm({ ...options.authParams, socket_id: params.socketId, channel_name: params.channelName });
    options.fetch(`${options.baseUrl}${restPaths.pusherAuth()}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.token}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: body.toString(),
    }).then(async (response) => {
      if (!response.ok) throw new Error(`Channel authorization refused (${response.status})`);
      callback(null, (await response.json()) as Parameters<ChannelAuthorizationCallback>[1]);
    }).catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null));
  }

  function pusherOptions(): Options {
    const selfHosted = typeof config!.ws_host === 'string' && config!.ws_host !== '';
    const forceTLS = config!.force_tls ?? true;
    return {
      // required by pusher-js's types and validation even when wsHost points elsewhere
      cluster: config!.cluster,
      forceTLS,
      ...(selfHosted
        ? { wsHost: config!.ws_host, wsPort: config!.ws_port, wssPort: config!.ws_port, enabledTransports: [forceTLS ? 'wss' : 'ws'], disableStats: true }
        : {}),
      channelAuthorization: { customHandler: authorize },
    } as Options;
  }

  return {
    name: 'pusher',
    async connect() {
      const Pusher = await (options.loadPusher ?? loadPusherJs)();
      const client = new Pusher(config.app_key, pusherOptions());
      pusher = client;
      await new Promise<void>((resolve, reject) => {
        let settled = false;
        client.connection.bind('state_change', (change: { current: string }) => {
          if (pusher !== client) return;
          const state = change.current;
          emitState(state);
          if (state === 'connected') {
            wasConnected = true;
            if (!settled) { settled = true; resolve(); }
          } else if (LOSS_STATES.has(state) && state !== 'connecting') {
            if (!settled) { settled = true; reject(new Error(`Pusher connection ${state}`)); }
          }
          // any drop after connecting may have lost messages: report it once
          if (wasConnected && LOSS_STATES.has(state) && !lost) {
            lost = true;
            emitState('disconnected');
          }
        });
        client.connection.bind('error', (error: unknown) => logger.debug('Pusher connection error', describe(error)));
      });
    },
    async disconnect() {
      const client = pusher;
      pusher = null;
      for (const sub of subscriptions.values()) sub.cancel();
      subscriptions.clear();
      if (!client) return;
      client.connection.unbind_all();
      client.disconnect();
    },
    subscribe(scope) {
      const client = pusher;
      if (!client) return Promise.reject(new Error('Pusher transport is not connected'));
      const name = pusherChannel(scope);
      const existing = subscriptions.get(name);
      if (existing) return existing.done;
      const channel = client.subscribe(name);
      let cancel = () => undefined as void;
      const subscribed = new Promise<void>((resolve, reject) => {
        cancel = () => reject(new SubscriptionCancelledError(name));
        channel.bind('pusher:subscription_succeeded', () => resolve());
        channel.bind('pusher:subscription_error', (status: unknown) => {
          subscriptions.delete(name);
          channel.unbind_all();
          client.unsubscribe(name);
          reject(new Error(`Subscription to ${name} refused: ${describe(status)}`));
        });
        channel.bind(PUSHER_EVENT, (data: unknown) => {
          if (pusher !== client) return;
          for (const l of messageListeners) l(scope, data as string);
        });
      });
      subscriptions.set(name, { done: subscribed, cancel });
      return subscribed;
    },
    async unsubscribe(scope) {
      const name = pusherChannel(scope);
      // a subscription still waiting for pusher:subscription_succeeded would otherwise never settle
      subscriptions.get(name)?.cancel();
      subscriptions.delete(name);
      pusher?.unsubscribe(name);
    },
    onMessage(listener) {
      messageListeners.add(listener);
      return () => { messageListeners.delete(listener); };
    },
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => { stateListeners.delete(listener); };
    },
  };
}

function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  try { return JSON.stringify(value); } catch { return String(value); }
}
