import { api } from "../../../shared/ipc";
import type { ChatStore } from "../../../shared/store/store";

/**
 * Where a saved conversation was last compacted (`chat_compaction`), into the store for its
 * divider; `wanted` says whether the answer is still wanted when it comes.
 */
export async function loadCompaction(store: ChatStore, conversationId: string, wanted: () => boolean = () => true) {
  try {
    const compaction = await api.chatCompaction(conversationId);
    if (wanted()) store.dispatch({ type: "compaction-loaded", conversationId, compaction: compaction ?? null });
  } catch {
    // Without it the history shows whole, with no divider: nothing the user can act on.
  }
}
