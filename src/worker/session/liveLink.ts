// The one live transport of a session (Pusher or MQTT through the Transport
// port): opening and closing it, subscribing scopes, and handing its decoded
// packets to the scope subscriptions. A loss after it was up is reported
// once; packets of a replaced transport are dropped.

import type { StreamScope } from '../../shared/protocol.js';
import { decodePacket, decodePayload, errorText } from '../decode.js';
import type { Logger, Transport } from '../ports.js';
import { createFrameAssembler } from '../sync/frames.js';
import type { Subscriptions } from '../sync/subscriptions.js';

export interface LiveLinkOptions {
  logger: Logger;
  subs: Subscriptions;
  /** the transport went down after it was up */
  onLost(): void;
  /** the transport's own state words changed */
  onState(): void;
}

export interface LiveInfo {
  name: 'pusher' | 'mqtt' | null;
  /** the transport's own words (pusher-js or mqtt.js) */
  state: string | null;
}

export interface LiveLink {
  open(transport: Transport): Promise<void>;
  close(): void;
  subscribe(scope: StreamScope): Promise<void>;
  unsubscribe(scope: StreamScope): void;
  info(): LiveInfo;
  /** forgets the last transport (the session ended) */
  reset(): void;
}

export function createLiveLink(options: LiveLinkOptions): LiveLink {
  const { logger, subs } = options;
  let transport: Transport | null = null;
  let off: Array<() => void> = [];
  let up = false;
  let lastName: LiveInfo['name'] = null;
  let words: string | null = null;
  /** the words of the last loss, shown until the next transport opens */
  let lost: string | null = null;

  function close() {
    for (const f of off) f();
    off = [];
    const t = transport;
    transport = null;
    up = false;
    words = null;
    if (t) t.disconnect().catch((error: unknown) => logger.debug('Transport disconnect failed', errorText(error)));
  }

  return {
    async open(t) {
      close();
      lost = null;
      transport = t;
      // a change too large for one message arrives in frames (docs/protocol.md §5)
      const frames = createFrameAssembler({ decode: (text) => decodePayload(text, logger), logger });
      off = [
        t.onMessage((scope, payload) => {
          if (transport !== t) return;
          const packet = decodePacket(payload, logger);
          if (packet) subs.receive(scope, frames.accept(packet));
        }),
        t.onStateChange((word) => {
          if (transport !== t) return;
          words = word;
          options.onState();
          if ((word === 'disconnected' || word === 'error') && up) {
            lost = word;
            logger.warn('Live connection lost; reconnecting on the back-off schedule.');
            up = false;
            options.onLost();
          }
        }),
      ];
      await t.connect();
      if (transport === t) {
        up = true;
        words ??= 'connected';
      }
    },
    close,
    async subscribe(scope) {
      const t = transport;
      if (t && up) await t.subscribe(scope);
    },
    unsubscribe(scope) {
      const t = transport;
      if (t && up) t.unsubscribe(scope).catch((error: unknown) => logger.debug('Unsubscribe failed', errorText(error)));
    },
    info: () => ({ name: transport?.name ?? lastName, state: transport ? words : lost }),
    reset() { lost = null; lastName = null; },
  };
}
