// The heap of a page's dedicated worker in Chromium, over the DevTools
// protocol: Playwright's CDP sessions reach pages only, so this connects to
// the browser's own endpoint (launched with --remote-debugging-port=0; the
// port is in the profile's DevToolsActivePort), attaches to the page and
// auto-attaches to its workers in flat mode. A new worker (a reload) is
// followed by itself; workers started from blobs (the bench's own) are not.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';

export interface WorkerHeap {
  /** used JS heap of the page's current worker, bytes */
  used(): Promise<number>;
  /** a full garbage collection in the worker */
  gc(): Promise<void>;
  /** samples `used()` every `everyMs` until the returned stop(), which answers the highest sample */
  sample(everyMs?: number): () => Promise<number>;
  close(): void;
}

interface Message { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { message: string }; sessionId?: string }

/** The app's engine worker: a dedicated worker from a script of the app, not one a bench starts from a blob (the ceiling). */
const isEngineWorker = (t: { type?: string; url?: string } | undefined) => t?.type === 'worker' && !String(t.url ?? '').startsWith('blob:');

export async function watchWorkerHeap(profileDir: string, pageUrlPrefix: string): Promise<WorkerHeap> {
  const [port, path] = readFileSync(join(profileDir, 'DevToolsActivePort'), 'utf8').trim().split('\n');
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  await new Promise<void>((done, fail) => { ws.once('open', () => done()); ws.once('error', fail); });
  let nextId = 1;
  const pending = new Map<number, { done(v: Record<string, unknown>): void; fail(e: Error): void }>();
  let worker: string | null = null;
  let workerSeen: (() => void) | null = null;
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as Message;
    if (m.id !== undefined) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.error) p?.fail(new Error(m.error.message)); else p?.done(m.result ?? {});
    } else if (m.method === 'Target.attachedToTarget' && isEngineWorker(m.params?.targetInfo as { type?: string; url?: string })) {
      worker = m.params!.sessionId as string;
      workerSeen?.();
    } else if (m.method === 'Target.detachedFromTarget' && m.params?.sessionId === worker) {
      worker = null;
    }
  });
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) => new Promise<Record<string, unknown>>((done, fail) => {
    const id = nextId++;
    pending.set(id, { done, fail });
    ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
  });

  const { targetInfos } = await send('Target.getTargets') as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
  const page = targetInfos.find((t) => t.type === 'page' && t.url.startsWith(pageUrlPrefix));
  if (!page) throw new Error(`no page at ${pageUrlPrefix}`);
  const { sessionId } = await send('Target.attachToTarget', { targetId: page.targetId, flatten: true }) as { sessionId: string };
  await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sessionId);

  const current = async (): Promise<string> => {
    if (worker) return worker;
    await new Promise<void>((done) => { workerSeen = done; });
    return worker!;
  };
  const used = async () => ((await send('Runtime.getHeapUsage', {}, await current())) as { usedSize: number }).usedSize;
  return {
    used,
    async gc() { await send('HeapProfiler.collectGarbage', {}, await current()); },
    sample(everyMs = 100) {
      let peak = 0;
      let stopped = false;
      const loop = (async () => {
        while (!stopped) {
          peak = Math.max(peak, await used().catch(() => 0));
          await new Promise((r) => setTimeout(r, everyMs));
        }
      })();
      return async () => { stopped = true; await loop; return peak; };
    },
    close() { ws.close(); },
  };
}
