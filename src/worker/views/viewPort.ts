// The worker's end of a view's one-way port (shared/api.ts VIEW_PORT_HANDLER,
// issue 14): the listener the view hub is given posts each message on the port
// the page sent, and nothing comes back. The hub lets it go on unsubscribe
// (`Comlink.releaseProxy`, as it does a proxy): a `null` tells the page's end to close.

import * as Comlink from 'comlink';
import { VIEW_PORT_HANDLER, type ViewListener, type ViewMessage } from '../../shared/api.js';
import { PRIORS, type WithPriors } from './viewHub.js';

/**
 * The fields of `next` that differ from `prev` (by identity: a redrawn entry keeps its unchanged fields' very
 * values, derive/drawState.ts redrawState), when both are records of the same keys and fewer than half of them
 * changed; else null, and the entry goes whole. A reading that recolours a desk sends its 3–6 changed fields of
 * ~20: the page's main thread spends less than half the time on a live load's view messages, and the worker's
 * clone shrinks about as much as the diff costs (docs/bench.md "Partial patches").
 */
export function changedFields(prev: unknown, next: unknown): Record<string, unknown> | null {
  if (typeof prev !== 'object' || typeof next !== 'object' || prev === null || next === null || Array.isArray(next) || Array.isArray(prev)) return null;
  const before = prev as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  let keys = 0;
  let changed = 0;
  let fields: Record<string, unknown> | null = null;
  for (const key in after) {
    keys++;
    const value = after[key];
    if (Object.is(before[key], value)) continue;
    // a field the entry did not have: the merge could not tell it from one it lost, so the entry goes whole
    if (!(key in before)) return null;
    changed++;
    (fields ??= {})[key] = value;
  }
  if (changed === 0 || changed * 2 > keys) return null;
  // a field it lost
  let keysBefore = 0;
  for (const _key in before) keysBefore++;
  return keysBefore === keys ? fields : null;
}

/**
 * The message as it crosses to the page: an entry the page holds since an earlier message goes as its changed
 * fields (`changed`), which the page's mirror merges into that entry (ui/engine/viewMirror.ts).
 */
export function onTheWire(message: ViewMessage): ViewMessage {
  const priors = (message as WithPriors)[PRIORS];
  if (message.type !== 'patch' || !priors) return message;
  let whole: Record<string, unknown> | null = null;
  let changed: Record<string, Record<string, unknown>> | null = null;
  for (const key in message.upserted) {
    const next = message.upserted[key];
    const prior = priors.get(key);
    const fields = prior === undefined ? null : changedFields(prior, next);
    if (fields) (changed ??= {})[key] = fields;
    else (whole ??= {})[key] = next;
  }
  if (!changed) return message;
  const wire: ViewMessage = { type: 'patch', version: message.version, upserted: whole ?? {}, removed: message.removed, changed };
  if ('meta' in message) wire.meta = message.meta;
  return wire;
}

/** What the view hub holds for a port: posts each message; `Comlink.releaseProxy` lets the page's end go, once. */
export type PortListener = ViewListener & { [Comlink.releaseProxy]: () => void };

export function portListener(port: MessagePort): PortListener {
  let open = true;
  const send = ((message: ViewMessage) => { if (open) port.postMessage(onTheWire(message)); }) as PortListener;
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
