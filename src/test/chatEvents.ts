// The engine's events as the window receives them: a batch in one `chat:events` (src/shared/ipc.ts
// `subscribeProtocolEvents`), here of one event, through Tauri's mocked event bus.
import { emit } from "@tauri-apps/api/event";

/** Sends the window the protocol event `event` with `payload`, as the engine does. */
export function emitChat(event: string, payload: unknown): Promise<void> {
  return emit("chat:events", [{ event, payload }]);
}
