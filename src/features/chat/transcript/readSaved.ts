// A saved conversation as the window reopens it: its messages, and when each was written and by
// which model. The stamps only decorate: a conversation whose stamps cannot be read still opens.
// One that cannot be read whole opens read-only, as far as it can be read (`openSaved`).
import { api, CommandError, type HistoryMessage, type MessageStamp } from "../../../shared/ipc";
import type { ChatStore } from "../../../shared/store/store";
import { loadCompaction } from "./loadCompaction";

export async function readSaved(conversationId: string): Promise<{ history: HistoryMessage[]; stamps: MessageStamp[] }> {
  const [history, stamps] = await Promise.all([
    api.chatHistory(conversationId),
    api.chatMessageStamps(conversationId).catch(() => null),
  ]);
  return { history, stamps: Array.isArray(stamps) ? stamps : [] };
}

/**
 * Loads a saved conversation into the store: whole (each result with what its call changed, as
 * the engine says it), with where it was last compacted (a saved history does not say); or, when
 * it cannot be read whole, read-only with why. `live` says whether the answer is still wanted when
 * it comes.
 */
export async function openSaved(store: ChatStore, conversationId: string, live: () => boolean = () => true) {
  let saved: Awaited<ReturnType<typeof readSaved>>;
  try {
    saved = await readSaved(conversationId);
  } catch (error) {
    if (error instanceof CommandError && error.code === "CONVERSATION_UNREADABLE") {
      await openReadOnly(store, conversationId, error.message, live);
    }
    // Otherwise: a new conversation has no history yet.
    return;
  }
  const { history, stamps } = saved;
  if (!live() || !history.length) return;
  store.dispatch({ type: "history-loaded", conversationId, history, stamps });
  void loadCompaction(store, conversationId, live);
}

async function openReadOnly(store: ChatStore, conversationId: string, why: string, live: () => boolean) {
  let shown: Awaited<ReturnType<typeof api.chatHistoryReadOnly>> = { reason: why, rows: [] };
  try {
    shown = await api.chatHistoryReadOnly(conversationId);
  } catch {
    // Nothing can be read: the banner still says why.
  }
  if (!live()) return;
  store.dispatch({ type: "read-only-loaded", conversationId, rows: shown.rows, reason: shown.reason ?? why });
}
