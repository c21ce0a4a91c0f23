// Optimistic actions at the view level (docs/engine.md "Optimistic
// actions"): an intent's expected result is drafted onto the affected view
// entries with immer at once, so the person sees it before the server
// answers. The store is never touched (the batch applier stays its one
// writer): the overlay sits between a view's source and the hub's diff. A
// refusal rolls each drafted entry back with the inverse patches immer gave,
// and the next flush reconciles it with the store; an acceptance keeps the
// draft until the truth arrives (the entry's source changes) or a grace
// period ends. With nothing drafted, a view pays one size check per entry.

import { enablePatches, Immer, type Draft, type Patch } from 'immer';
import type { ViewName, ViewSpec } from '../../shared/api.js';
import type { Dirty, DirtyChannel, ViewSource } from './viewHub.js';

enablePatches();
// entries share objects with the store (outlines, events): freezing them would freeze the store's
const immer = new Immer({ autoFreeze: false });

/** How long an accepted draft may stand in for the truth the live stream brings. */
export const OPTIMISTIC_GRACE_MS = 10_000;

export interface OptimisticEdit {
  view: ViewName;
  /** the entry's key in that view (SELF_KEY for one-entry views) */
  key: string;
  /** for views keyed by their spec (asset, roomDisplay): which subscriptions */
  spec?: (spec: ViewSpec) => boolean;
  /** the expected result, written on an immer draft of the entry */
  recipe(draft: Draft<Record<string, unknown>>): void;
  /** a new entry (a ticket being created): drafted from this while the source has none; removed again if refused */
  create?: () => Record<string, unknown>;
  /**
   * For a created entry: true for the source's entry that is the server's own
   * version of it. The live stream often brings the new asset before the
   * request's answer; the draft then gives way at once rather than drawing
   * the same thing twice until the answer comes.
   */
  arrived?: (entry: unknown) => boolean;
}

export interface PendingAction {
  /** the server agreed: the draft stands until its answer shows in the store */
  accept(): void;
  /** the server refused: every drafted entry rolls back */
  refuse(): void;
}

export interface OptimisticHooks {
  /** wakes the view hub for these keys of the overlay's channel */
  markDirty(channel: DirtyChannel, keys: Iterable<string>): void;
  /** runs fn after ms on the engine's scheduler, under a key */
  after(ms: number, key: string, fn: () => void): void;
}

export interface OptimisticOverlay {
  /** drafts the edits onto their views now */
  begin(edits: OptimisticEdit[]): PendingAction;
  /** the view source as the hub sees it: drafts over the source's entries */
  wrap(spec: ViewSpec, source: ViewSource): ViewSource;
  /** actions whose drafts still show */
  readonly size: number;
}

interface Action { id: number; edits: OptimisticEdit[]; accepted: boolean }

/** Only new entries: the action's answer brings them into the store at once, under their real keys. */
const createsOnly = (action: Action) => action.edits.every((e) => e.create);

const CHANNEL = 'optimistic' satisfies DirtyChannel;
const dirtyKey = (view: ViewName, key: string) => `${view}\u0000${key}`;

export function createOptimisticOverlay(hooks: OptimisticHooks): OptimisticOverlay {
  const actions = new Map<number, Action>();
  /** view+key of refused drafts, until each subscription has rolled them back */
  const refused = new Set<string>();
  let nextId = 1;

  const touch = (edits: OptimisticEdit[]) => hooks.markDirty(CHANNEL, edits.map((e) => dirtyKey(e.view, e.key)));
  const drop = (action: Action) => { if (actions.delete(action.id)) touch(action.edits); };

  return {
    get size() { return actions.size; },
    begin(edits) {
      const action: Action = { id: nextId++, edits, accepted: false };
      actions.set(action.id, action);
      touch(edits);
      let settled = false;
      return {
        accept() {
          if (settled) return;
          settled = true;
          action.accepted = true;
          if (createsOnly(action)) { drop(action); return; }
          hooks.after(OPTIMISTIC_GRACE_MS, `optimistic:${action.id}`, () => drop(action));
        },
        refuse() {
          if (settled) return;
          settled = true;
          actions.delete(action.id);
          const keys = edits.map((e) => dirtyKey(e.view, e.key));
          for (const k of keys) refused.add(k);
          touch(edits);
          hooks.after(OPTIMISTIC_GRACE_MS, `optimistic:${action.id}`, () => { for (const k of keys) refused.delete(k); });
        },
      };
    },
    wrap(spec, source) {
      const mine = (e: OptimisticEdit) => e.view === spec.view && (!e.spec || e.spec(spec));
      /** per key: the entry as last drafted and the patches that undo the draft (none for a created one: it goes) */
      const drafted = new Map<string, { entry: unknown; inverse: Patch[]; created: boolean }>();

      function liveEdits(key: string): OptimisticEdit[] {
        const out: OptimisticEdit[] = [];
        for (const action of actions.values()) for (const e of action.edits) if (e.key === key && mine(e)) out.push(e);
        return out;
      }

      /** this view's keys among the overlay channel's dirty ones */
      function overlayKeys(overlay: ReturnType<Dirty['get']>): string[] {
        if (!overlay) return [];
        if (overlay === 'all') return [...drafted.keys()];
        const prefix = `${spec.view}\u0000`;
        return [...overlay].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
      }

      /** drops the created drafts whose server entry is among the changed keys; their keys, to be read again */
      function arrivals(changed: Iterable<string>): string[] {
        const waiting: { action: Action; edit: OptimisticEdit }[] = [];
        for (const action of actions.values()) for (const e of action.edits) if (e.create && e.arrived && mine(e)) waiting.push({ action, edit: e });
        if (waiting.length === 0) return [];
        const gone: string[] = [];
        for (const key of changed) {
          const entry = source.entry(key);
          if (entry === undefined) continue;
          for (const { action, edit } of waiting) {
            if (actions.has(action.id) && edit.arrived!(entry)) {
              drop(action);
              gone.push(edit.key);
            }
          }
        }
        return gone;
      }

      return {
        // the drafts are what the hub sends and keeps as sent; the source's own part of a record stays its own
        kept: source.kept,
        // a draft is an entry of the source's kind: compared as the source compares its entries
        same: source.same,
        keys() {
          const own = source.keys();
          if (actions.size === 0) return own;
          const created: string[] = [];
          for (const action of actions.values()) for (const e of action.edits) if (e.create && mine(e)) created.push(e.key);
          return created.length ? new Set([...own, ...created]) : own;
        },
        entry(key, kept) {
          const base = source.entry(key, kept);
          if (actions.size === 0 && drafted.size === 0) return base;
          const edits = liveEdits(key);
          const last = drafted.get(key);
          const start = base ?? edits.find((e) => e.create)?.create?.();
          if (edits.length === 0 || start === undefined) {
            drafted.delete(key);
            if (last && refused.has(dirtyKey(spec.view, key))) {
              // undo exactly the draft, on the entry as the person saw it; the next flush reads the store again
              hooks.markDirty(CHANNEL, [dirtyKey(spec.view, key)]);
              return last.created ? undefined : immer.applyPatches(last.entry as object, last.inverse);
            }
            return base;
          }
          const [next, , inverse] = immer.produceWithPatches(start as Record<string, unknown>, (draft) => {
            for (const e of edits) e.recipe(draft);
          });
          drafted.set(key, { entry: next, inverse, created: base === undefined });
          return next;
        },
        meta: () => source.meta(),
        affected(d: Dirty) {
          const found = source.affected(d);
          const overlay = d.get(CHANNEL);
          // nothing drafted, nothing to undo: the source's answer as it is (a flush may touch thousands of keys)
          if (actions.size === 0 && drafted.size === 0 && !overlay) return found;
          // read twice below: a one-shot iterable becomes a list
          const own = found === null || found === 'all' ? found : [...found];
          // an accepted draft gives way once its entry's source changes: the truth has arrived
          if (own && actions.size > 0) {
            for (const key of own === 'all' ? [...drafted.keys()] : own) {
              for (const action of [...actions.values()]) {
                if (action.accepted && action.edits.some((e) => e.key === key && mine(e))) drop(action);
              }
            }
          }
          // a created draft gives way to the server's entry as soon as that shows, answered or not
          const superseded = own && own !== 'all' ? arrivals(own) : [];
          if (superseded.length) return new Set([...(own as Iterable<string>), ...superseded, ...overlayKeys(overlay)]);
          if (!overlay || own === 'all') return own;
          const keys = overlayKeys(overlay);
          if (keys.length === 0) return own;
          return new Set([...(own ?? []), ...keys]);
        },
        metaAffected: (d) => source.metaAffected(d),
        close: source.close ? () => source.close!() : undefined,
      };
    },
  };
}
