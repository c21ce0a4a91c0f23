// The page's end of a view's one-way port (shared/api.ts VIEW_PORT_HANDLER, issue 14).
// A Comlink.proxy made each view message a call with an id, a wrapped argument
// list and a promise, which the page answered and the worker then handled though
// nobody reads the answer: a reply task per message on each side. A listener
// marked here crosses as a MessagePort instead, and the worker only posts on it.
// (The worker's sending fell from 4.0 to 3.4 % of a live load's time: the rest
// is the patch's structured clone, docs/bench.md "One-way view ports".)

import * as Comlink from 'comlink';
import { VIEW_PORT_HANDLER, type ViewListener, type ViewMessage } from '../../shared/api.js';

const ONE_WAY = Symbol('storey.oneWayListener');

type Marked = ViewListener & { [ONE_WAY]?: true };

/** The handler as registered, with which halves it holds (VIEW_PORT_HANDLER: one name, both ends). */
type Halves = Comlink.TransferHandler<unknown, unknown> & { sends: boolean; takes: boolean };

/** The listener, marked to cross as a one-way port (the engine client's `markCallback`); the same function. */
export function oneWayListener(listener: ViewListener): ViewListener {
  (listener as Marked)[ONE_WAY] = true;
  return listener;
}

/** The port the worker will post on; the listener gets each message, and a `null` closes the page's end. */
function receiving(listener: ViewListener): MessagePort {
  const { port1, port2 } = new MessageChannel();
  port1.onmessage = (event: MessageEvent<ViewMessage | null>) => {
    if (event.data === null) port1.close();
    else listener(event.data);
  };
  return port2;
}

/**
 * Registers the page's half of the handler with Comlink: marked listeners are sent as ports. The worker's half
 * (worker/views/viewPort.ts) takes them; where both ends run in one realm (tests), the two halves make one handler.
 */
export function registerViewPortSender(): void {
  const other = Comlink.transferHandlers.get(VIEW_PORT_HANDLER) as Halves | undefined;
  if (other?.sends) return;
  const handler: Halves = {
    sends: true,
    takes: other?.takes ?? false,
    canHandle: (value): value is ViewListener => typeof value === 'function' && (value as Marked)[ONE_WAY] === true,
    serialize: (listener) => {
      const port = receiving(listener as ViewListener);
      return [port, [port]];
    },
    deserialize: other?.deserialize ?? (() => { throw new Error('A view port reached the page: only the worker takes them'); }),
  };
  Comlink.transferHandlers.set(VIEW_PORT_HANDLER, handler);
}
