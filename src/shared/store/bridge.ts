// Tauri events → the store. Events are queued and folded once per frame so a fast stream costs one
// render per frame, not one per delta. Order is kept: the queue is flushed in arrival order, as
// many events per frame as the frame budget allows (frameBudget.ts) — a burst (200 tool calls
// arrive as 400 events at once) mounts its blocks over several frames instead of stalling one.
// Text deltas come coalesced per frame from the shell, so the budget does not slow a text stream.
import { subscribeProtocolEvents, type ProtocolEvent } from "../ipc";
import { FrameBudget } from "./frameBudget";
import type { ChatStore } from "./store";

type Schedule = (flush: () => void) => void;

const nextFrame: Schedule = (flush) => {
  if (typeof requestAnimationFrame === "function" && typeof document !== "undefined" && !document.hidden) {
    requestAnimationFrame(() => flush());
  } else {
    setTimeout(flush, 0);
  }
};

export interface BatcherOptions {
  schedule?: Schedule;
  budget?: FrameBudget;
  /** The clock the work of a frame is measured with (ms). */
  now?: () => number;
}

export function createEventBatcher(store: ChatStore, options: BatcherOptions = {}) {
  const { schedule = nextFrame, budget = new FrameBudget(), now = () => performance.now() } = options;
  let queue: ProtocolEvent[] = [];
  let scheduled = false;
  const later = () => {
    if (!scheduled && queue.length) {
      scheduled = true;
      schedule(flushFrame);
    }
  };
  const flushFrame = () => {
    scheduled = false;
    const batch = queue.length > budget.events ? queue.splice(0, budget.events) : queue;
    if (batch === queue) queue = [];
    const started = now();
    store.dispatchMany(batch);
    // React renders a store change in a microtask queued during dispatch (and lays the page out
    // in its effects): a microtask queued now runs after that, so it sees the frame's whole work.
    // Only full batches say something about the budget.
    if (queue.length) queueMicrotask(() => budget.observe(now() - started));
    later();
  };
  return {
    push(e: ProtocolEvent) {
      queue.push(e);
      later();
    },
    /** Fold everything queued now (on stop). */
    flush() {
      const batch = queue;
      queue = [];
      store.dispatchMany(batch);
    },
  };
}

/** Start feeding protocol events into `store`; resolves with a stop function. */
export async function connectEvents(store: ChatStore, schedule?: Schedule): Promise<() => void> {
  const batcher = createEventBatcher(store, { schedule });
  const stop = await subscribeProtocolEvents((e) => batcher.push(e));
  return () => {
    stop();
    batcher.flush();
  };
}
