// The bench page's stand-in for the engine worker: a snapshot of N desks in a
// grid, then every 50 ms (the engine's flush interval) one patch carrying
// rate × 0.05 changed desks, posted to the page like the engine's view
// messages, so the structured-clone cost lands on the main thread as it does
// in the app. The same messages feed the viewer and the bare SVG page.

import type { DrawState, FloorViewMeta, ViewMessage } from '../../src/shared/api.js';

interface Port {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

const FLUSH_MS = 50;
const COLORS = ['#4caf50', '#f44336', '#ff9800', '#2196f3'];
const STATUS = ['free', 'occupied', 'should be cleared', 'reserved'];
const KINDS = ['free', 'busy', 'attention', 'booked'] as const;
const port = globalThis as unknown as Port;

export function deskGrid(n: number): { entries: Record<string, DrawState>; width: number; depth: number } {
  const cols = Math.ceil(Math.sqrt(n * 1.6));
  const entries: Record<string, DrawState> = {};
  for (let i = 0; i < n; i++) {
    const id = `d${i}`;
    entries[id] = desk(id, 1 + (i % cols) * 2.2, 1 + Math.floor(i / cols) * 1.6, i % 4);
  }
  return { entries, width: cols * 2.2 + 2, depth: Math.ceil(n / cols) * 1.6 + 2 };
}

function desk(id: string, x: number, y: number, s: number): DrawState {
  return {
    id, kind: 'desk', statusKind: KINDS[s]!, name: `Desk ${id}`, layers: ['desks', 'desk_usage'], x, y, angle: 0,
    width: 1.6, depth: 0.8, outline: null, color: COLORS[s]!, alpha: 1, greyedOut: false,
    missingSymbol: false, label: null, text: null, status: STATUS[s]!, unpublished: false,
  };
}

let timer: ReturnType<typeof setInterval> | null = null;

port.onmessage = (event: MessageEvent) => {
  const command = event.data as { type: 'start'; n: number; rate: number } | { type: 'stop' };
  if (command.type === 'stop') {
    if (timer) clearInterval(timer);
    timer = null;
    return;
  }
  const { entries, width, depth } = deskGrid(command.n);
  const meta: FloorViewMeta = {
    floor: {
      id: 'f1', name: 'Bench floor', parent_id: 'b1', height: 3, hidden: false, building_relative_z: 0, building_relative_index: 0,
      outline: [[0, 0], [width, 0], [width, depth], [0, depth]], floor_plan_img_path: null, zones_img_path: null,
      floor_plan_img_offset_x: 0, floor_plan_img_offset_y: 0, config: {},
    },
    building: null, legends: [], fromCache: false, loading: false,
  };
  let version = 1;
  port.postMessage({ type: 'snapshot', version, entries, meta } satisfies ViewMessage);
  const ids = Object.keys(entries);
  const perFlush = Math.max(1, Math.round((command.rate * FLUSH_MS) / 1000));
  let cursor = 0;
  timer = setInterval(() => {
    const upserted: Record<string, DrawState> = {};
    for (let i = 0; i < perFlush; i++) {
      // a stride through the grid, so successive patches touch desks all over the floor
      cursor = (cursor + 7919) % ids.length;
      const id = ids[cursor]!;
      const s = (COLORS.indexOf(entries[id]!.color!) + 1) % COLORS.length;
      entries[id] = { ...entries[id]!, color: COLORS[s]!, status: STATUS[s]!, statusKind: KINDS[s]! };
      upserted[id] = entries[id]!;
    }
    version += 1;
    port.postMessage({ type: 'patch', version, upserted, removed: [] } satisfies ViewMessage);
  }, FLUSH_MS);
};
