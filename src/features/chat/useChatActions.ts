import { useCallback } from "react";
import { messageOf, newId } from "../../shared/format";
import { api, CommandError, type ErrorCode, type SendMode, type ToolImage } from "../../shared/ipc";
import { useChatStore } from "../../shared/store/store";
import { planModeOf } from "../plan/planMode";

export function useChatActions(conversationId: string) {
  const store = useChatStore();
  const send = useCallback(
    // Without a `mode`: in plan mode while the conversation's is on (the composer's toggle).
    (text: string, images: readonly ToolImage[] = [], mode?: SendMode) => {
      // Only what the engine takes: a media type and the base64 data of each image.
      const sent = images.map(({ mediaType, data }) => ({ mediaType, data }));
      store.dispatch({ type: "user-send", conversationId, messageId: newId("user"), text, images: sent });
      const how = mode ?? (planModeOf(conversationId) ? { plan: true } : {});
      api.chatSend(conversationId, text, sent, how).catch((e: unknown) => {
        const message = messageOf(e);
        store.dispatch({ type: "send-failed", conversationId, message, code: sendFailure(e) });
      });
    },
    [store, conversationId],
  );
  const stop = useCallback(() => {
    api.chatCancel(conversationId).catch((e: unknown) => console.warn("chat_cancel failed", e));
  }, [conversationId]);
  return { send, stop };
}

/**
 * What a refused send means for the conversation: a missing or refused key is the user's to fix in
 * Settings (the error card offers it), the rest is Warden's.
 */
function sendFailure(e: unknown): ErrorCode {
  if (!(e instanceof CommandError)) return "INTERNAL";
  switch (e.code) {
    case "MISSING_CREDENTIALS":
      return "MISSING_CREDENTIALS";
    case "AUTH_FAILED":
      return "AUTH_FAILED";
    case "NETWORK":
      return "NETWORK";
    default:
      return "INTERNAL";
  }
}
