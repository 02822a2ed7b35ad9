import { useCallback } from "react";
import { newId } from "../../shared/format";
import { api } from "../../shared/ipc";
import { useChatStore } from "../../shared/store/store";

export function useChatActions(conversationId: string) {
  const store = useChatStore();
  const send = useCallback(
    (text: string) => {
      store.dispatch({ type: "user-send", conversationId, messageId: newId("user"), text });
      api.chatSend(conversationId, text).catch((e: unknown) => {
        store.dispatch({ type: "send-failed", conversationId, message: e instanceof Error ? e.message : String(e) });
      });
    },
    [store, conversationId],
  );
  const stop = useCallback(() => {
    api.chatCancel(conversationId).catch((e: unknown) => console.warn("chat_cancel failed", e));
  }, [conversationId]);
  return { send, stop };
}
