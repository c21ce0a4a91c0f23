// The worker's end of a view's one-way port (shared/api.ts VIEW_PORT_HANDLER,
// issue 14): the listener the view hub is given posts each message on the port
// the page sent, and nothing comes back. The hub lets it go on unsubscribe
// (`Comlink.releaseProxy`, as it does a proxy): a `null` tells the page's end to close.

import * as Comlink from 'comlink';
import { VIEW_PORT_HANDLER, type ViewListener, type ViewMessage } from '../../shared/api.js';

/** What the view hub holds for a port: posts each message; `Comlink.releaseProxy` lets the page's end go, once. */
export type PortListener = ViewListener & { [Comlink.releaseProxy]: () => void };

export function portListener(port: MessagePort): PortListener {
  let open = true;
  const send = ((message: ViewMessage) => { if (open) port.postMessage(message); }) as PortListener;
  send[Comlink.releaseProxy] = () => {
    if (!open) return;
    open = false;
    port.postMessage(null);
    port.close();
  };
  return send;
}

/**
 * Registers the worker's half of the handler with Comlink: a port that arrives becomes a listener. The page's
 * half (ui/engine/viewPort.ts) sends them; in one realm (tests) the two halves make one handler.
 */
export function registerViewPortReceiver(): void {
  const other = Comlink.transferHandlers.get(VIEW_PORT_HANDLER) as Halves | undefined;
  if (other?.takes) return;
  const handler: Halves = {
    sends: other?.sends ?? false,
    takes: true,
    canHandle: other?.canHandle ?? ((_value): _value is never => false),
    serialize: other?.serialize ?? (() => { throw new Error('The worker sends no view ports'); }),
    deserialize: (port) => portListener(port as MessagePort),
  };
  Comlink.transferHandlers.set(VIEW_PORT_HANDLER, handler);
}

/** The handler as registered, with which halves it holds (VIEW_PORT_HANDLER: one name, both ends). */
type Halves = Comlink.TransferHandler<unknown, unknown> & { sends: boolean; takes: boolean };
