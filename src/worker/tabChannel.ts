// The engine's word to the other tabs of this app (BroadcastChannel, same
// origin): a sign-out in one tab signs the same user out in every tab, as a
// person on a shared computer expects. Only this file touches the channel;
// the engine sees a two-method port, and tests pass their own.

import type { Id } from '../shared/types.js';

/** What one tab's engine tells the others. */
export type TabMessage = { type: 'signedOut'; userId: Id };

export interface TabChannel {
  post(message: TabMessage): void;
  /** calls handler with every other tab's message (never this tab's own); returns the unsubscribe */
  listen(handler: (message: TabMessage) => void): () => void;
  /** the engine is disposed: no more messages either way */
  close(): void;
}

export const TAB_CHANNEL_NAME = 'storey-tabs';

/** Keeps only messages of the known shape: another tab may run an older or newer build. */
export function parseTabMessage(data: unknown): TabMessage | null {
  if (!data || typeof data !== 'object') return null;
  const { type, userId } = data as { type?: unknown; userId?: unknown };
  if (type === 'signedOut' && typeof userId === 'string' && userId !== '') return { type, userId };
  return null;
}

/** The browser's channel; a no-op where there is none (BroadcastChannel is in every browser the app supports). */
export function createBroadcastTabChannel(name = TAB_CHANNEL_NAME): TabChannel {
  if (typeof BroadcastChannel === 'undefined') return { post: () => undefined, listen: () => () => undefined, close: () => undefined };
  const channel = new BroadcastChannel(name);
  const handlers = new Set<(message: TabMessage) => void>();
  channel.onmessage = (event: MessageEvent) => {
    const message = parseTabMessage(event.data);
    if (message) for (const handler of handlers) handler(message);
  };
  return {
    post: (message) => channel.postMessage(message),
    listen(handler) {
      handlers.add(handler);
      return () => { handlers.delete(handler); };
    },
    close() {
      handlers.clear();
      channel.close();
    },
  };
}
