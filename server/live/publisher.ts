// One stream per scope: a random id per server process and a sequence that
// grows by one per message. Mutations call `publish` synchronously, so a REST
// read taken in the same tick reports exactly the position it contains;
// sending is queued per scope so messages leave in sequence order. An
// organization and a location each have two streams: the shared one
// (filtered) and the edit audience's complete mirror (docs/protocol.md §5),
// fed together by publishAudiences.

import { randomBytes } from 'node:crypto';
import { locationStreamScope, organizationStreamScope, scopeKey, type LiveChange, type StreamPosition, type StreamScope } from '../../src/shared/protocol.js';
import { encodeChanges } from './packetCodec.js';

/** Where encoded messages go: the Pusher SDK, an MQTT client, or a test. */
export interface LiveSink {
  send(scope: StreamScope, payloads: string[]): Promise<void>;
}

export interface Publisher {
  position(scope: StreamScope): StreamPosition;
  /** assigns sequences now, sends in order; returns the payloads sent */
  publish(scope: StreamScope, changes: LiveChange[]): string[];
  /**
   * Publishes an organization or location mutation on both of its streams:
   * `publicChanges` (without what only the edit role may see) on the shared
   * one, `editChanges` (everything, unfiltered) on the edit audience's.
   * Either may be empty.
   */
  publishAudiences(scope: StreamScope, publicChanges: LiveChange[], editChanges?: LiveChange[]): void;
  /** resolves when everything published so far has been handed to the sink */
  flush(): Promise<void>;
  onPublish(listener: (scope: StreamScope, payloads: string[]) => void): () => void;
  setSink(sink: LiveSink | null): void;
  /** while muted (bulk seeding before anyone listens) publish is a no-op and sequences stay put */
  setMuted(muted: boolean): void;
  /** whether publishing is muted (callers skip work whose only use is a message) */
  readonly muted: boolean;
  /** errors of the sink so far (sending never throws into a mutation) */
  readonly errors: Error[];
}

const MAX_KEPT_ERRORS = 100;

interface StreamState {
  id: string;
  sequence: number;
  queue: Promise<void>;
}

export function createPublisher(sink: LiveSink | null = null): Publisher {
  const streams = new Map<string, StreamState>();
  const listeners = new Set<(scope: StreamScope, payloads: string[]) => void>();
  const errors: Error[] = [];
  let currentSink = sink;
  let muted = false;

  function stream(scope: StreamScope): StreamState {
    const key = scopeKey(scope);
    let s = streams.get(key);
    if (!s) {
      s = { id: randomBytes(9).toString('base64url'), sequence: 0, queue: Promise.resolve() };
      streams.set(key, s);
    }
    return s;
  }

  const publisher: Publisher = {
    errors,
    get muted() { return muted; },
    position(scope) {
      const s = stream(scope);
      return { stream_id: s.id, stream_sequence: s.sequence };
    },
    publish(scope, changes) {
      if (changes.length === 0 || muted) return [];
      const s = stream(scope);
      const payloads = encodeChanges(s.id, s.sequence + 1, changes);
      s.sequence += payloads.length;
      const target = currentSink;
      if (target) {
        s.queue = s.queue
          .then(() => target.send(scope, payloads))
          .catch((err: unknown) => {
            errors.push(err instanceof Error ? err : new Error(String(err)));
            if (errors.length > MAX_KEPT_ERRORS) errors.shift();
          });
      }
      for (const l of listeners) l(scope, payloads);
      return payloads;
    },
    publishAudiences(scope, publicChanges, editChanges = publicChanges) {
      if (scope.kind === 'location') {
        publisher.publish(locationStreamScope(scope.organizationId, scope.locationId), publicChanges);
        publisher.publish(locationStreamScope(scope.organizationId, scope.locationId, 'edit'), editChanges);
      } else if (scope.kind === 'organization') {
        publisher.publish(organizationStreamScope(scope.organizationId), publicChanges);
        publisher.publish(organizationStreamScope(scope.organizationId, 'edit'), editChanges);
      } else {
        throw new TypeError(`publishAudiences needs an organization or location scope, not ${scopeKey(scope)}`);
      }
    },
    async flush() {
      await Promise.all([...streams.values()].map((s) => s.queue));
    },
    onPublish(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
    setSink(next) { currentSink = next; },
    setMuted(next) { muted = next; },
  };
  return publisher;
}
