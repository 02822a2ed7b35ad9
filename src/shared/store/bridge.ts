// Tauri events → the store. Events are queued and folded once per frame so a fast stream costs one
// render per frame, not one per delta. Order is kept: the queue is flushed whole, in arrival order.
import { subscribeProtocolEvents, type ProtocolEvent } from "../ipc";
import type { ChatStore } from "./store";

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
  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    store.dispatchMany(batch);
  };
  return {
    push(e: ProtocolEvent) {
      queue.push(e);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
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
