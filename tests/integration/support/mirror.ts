// A change sink that mirrors what the sync delivers into Maps, per collection,
// and records every applied asset version so a test can tell that nothing was
// applied twice and nothing was lost.

import type { ChangeBatch, ChangeSink } from '../../../src/worker/ports.js';

type Item = { id: string; [key: string]: unknown };

export function createMirror() {
  const collections = new Map<string, Map<string, Item>>();
  /** asset id → versions applied by live changes, in order */
  const liveVersions = new Map<string, number[]>();
  let initialLoads = 0;
  const col = (name: string) => {
    if (!collections.has(name)) collections.set(name, new Map());
    return collections.get(name)!;
  };
  const sink: ChangeSink = {
    apply(batch: ChangeBatch) {
      for (const change of batch.changes) {
        if (change.collection === 'measurements' || change.collection === 'heartbeats') continue;
        const map = col(change.collection);
        if (change.kind === 'initial') {
          initialLoads += 1;
          map.clear();
          for (const item of (change.items ?? []) as Item[]) map.set(String(item.id), item);
        } else if (change.kind === 'deleted') {
          map.delete(String(change.id));
        } else {
          const item = change.data as Item;
          map.set(String(change.id), item);
          if (change.collection === 'assets' && typeof item.version === 'number') {
            const list = liveVersions.get(String(change.id)) ?? [];
            list.push(item.version);
            liveVersions.set(String(change.id), list);
          }
        }
      }
    },
  };
  return {
    sink,
    get: (collection: string) => col(collection),
    liveVersions,
    initialLoads: () => initialLoads,
    /** sorted plain list, for deep equality with a REST answer */
    list: (collection: string) => [...col(collection).values()].sort((a, b) => String(a.id).localeCompare(String(b.id))),
  };
}

export const byId = <T extends { id: unknown }>(items: T[]) => [...items].sort((a, b) => String(a.id).localeCompare(String(b.id)));
