// Tauri events → the store. Events are queued and folded once per frame so a fast stream costs one
// render per frame, not one per delta. Order is kept: the queue is flushed in arrival order, at most
// MAX_EVENTS_PER_FRAME at a time — a burst (200 tool calls arrive as 400 events at once) mounts its
// blocks over a few frames instead of one frame of ~120 ms. Text deltas come coalesced per frame
// from the shell, so the cap does not slow a text stream.
import { subscribeProtocolEvents, type ProtocolEvent } from "../ipc";
import type { ChatStore } from "./store";

/** Events folded per frame; the rest wait for the next one. */
export const MAX_EVENTS_PER_FRAME = 48;

type Schedule = (flush: () => void) => void;

const nextFrame: Schedule = (flush) => {
  if (typeof requestAnimationFrame === "function" && typeof document !== "undefined" && !document.hidden) {
    requestAnimationFrame(() => flush());
  } else {
    setTimeout(flush, 0);
  }
};

export function createEventBatcher(store: ChatStore, schedule: Schedule = nextFrame) {
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
    const batch = queue.length > MAX_EVENTS_PER_FRAME ? queue.splice(0, MAX_EVENTS_PER_FRAME) : queue;
    if (batch === queue) queue = [];
    store.dispatchMany(batch);
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
  const batcher = createEventBatcher(store, schedule);
  const stop = await subscribeProtocolEvents((e) => batcher.push(e));
  return () => {
    stop();
    batcher.flush();
  };
}
