// Ends the current task and resumes in a new one (issue 14: no main-thread
// task over 50 ms): the start-up's steps and long reads of the DOM give the
// browser a turn between them, to paint and to handle a click or a key.

interface Scheduler {
  yield?: () => Promise<void>;
}

/**
 * Resolves in a task of its own: `scheduler.yield()` where the browser has it (the
 * continuation goes before other queued tasks, so the work is not pushed back), else a
 * MessageChannel message (not clamped to 4 ms as setTimeout is).
 */
export function yieldTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  if (typeof MessageChannel !== 'function') return new Promise((done) => setTimeout(done, 0));
  return new Promise((done) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      done();
    };
    channel.port2.postMessage(null);
  });
}
